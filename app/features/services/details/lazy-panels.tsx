// The monitoring tabs' charts (@mantine/charts, recharts, d3) and the logs tab's date picker (@mantine/dates, dayjs)
// are most of the details page's script, yet only those tabs use them: they load when their tab is shown, not with
// the page, and so do their style sheets (docs/decisions/014-first-visit-bytes.md). The server still renders a tab
// opened by its URL in full, with its style sheet.
import chartsStyles from "@mantine/charts/styles.css?url";
import datesStyles from "@mantine/dates/styles.css?url";
import { Center, Loader } from "@mantine/core";
import { lazy, Suspense, type ComponentProps } from "react";
import { loadStyleSheet } from "~/components/load-style-sheet";

const monitoringModule = () =>
  Promise.all([import("./monitoring-panel"), loadStyleSheet(chartsStyles)]).then(([panels]) => panels);
const Monitoring = lazy(() => monitoringModule().then((panels) => ({ default: panels.MonitoringPanel })));
const Monitor = lazy(() => monitoringModule().then((panels) => ({ default: panels.MonitorPanel })));
const Logs = lazy(() =>
  Promise.all([import("./logs-panel"), loadStyleSheet(datesStyles)]).then(([panels]) => ({
    default: panels.LogsPanel,
  })),
);

// The configuration tab's form carries every type's configuration rules (contract/service-configs.ts): it loads with
// that tab too.
const Config = lazy(() => import("./config-panel").then((panels) => ({ default: panels.ConfigPanel })));

// A database's or cache's final snapshots, under its history tab: only those two types have any.
const Snapshots = lazy(() =>
  import("./final-snapshots").then((panels) => ({ default: panels.FinalSnapshots })),
);

function PanelLoading() {
  return (
    <Center py="xl" role="status" aria-label="Loading the tab">
      <Loader />
    </Center>
  );
}

export function MonitoringPanel(props: ComponentProps<typeof Monitoring>) {
  return (
    <>
      <link rel="stylesheet" href={chartsStyles} />
      <Suspense fallback={<PanelLoading />}>
        <Monitoring {...props} />
      </Suspense>
    </>
  );
}

export function MonitorPanel(props: ComponentProps<typeof Monitor>) {
  return (
    <>
      <link rel="stylesheet" href={chartsStyles} />
      <Suspense fallback={<PanelLoading />}>
        <Monitor {...props} />
      </Suspense>
    </>
  );
}

export function LogsPanel(props: ComponentProps<typeof Logs>) {
  return (
    <>
      <link rel="stylesheet" href={datesStyles} />
      <Suspense fallback={<PanelLoading />}>
        <Logs {...props} />
      </Suspense>
    </>
  );
}

export function ConfigPanel(props: ComponentProps<typeof Config>) {
  return (
    <Suspense fallback={<PanelLoading />}>
      <Config {...props} />
    </Suspense>
  );
}

// A change's plan step shows only after the platform refused a launch that deletes data: the pre-deploy tab loads it
// then, not with the page.
const PlanStep = lazy(() => import("./change-plan-step").then((step) => ({ default: step.ChangePlanStep })));

export function ChangePlanStep(props: ComponentProps<typeof PlanStep>) {
  return (
    <Suspense fallback={<PanelLoading />}>
      <PlanStep {...props} />
    </Suspense>
  );
}

export function FinalSnapshots(props: ComponentProps<typeof Snapshots>) {
  return (
    <Suspense fallback={<PanelLoading />}>
      <Snapshots {...props} />
    </Suspense>
  );
}
