// The monitoring tabs' charts (@mantine/charts, recharts, d3) and the logs tab's date picker (@mantine/dates, dayjs)
// are most of the details page's script, yet only those tabs use them: they load when their tab is shown, not with
// the page (docs/decisions/014-first-visit-bytes.md). The server still renders a tab opened by its URL in full.
import { Center, Loader } from "@mantine/core";
import { lazy, Suspense, type ComponentProps } from "react";

const Monitoring = lazy(() =>
  import("./monitoring-panel").then((panels) => ({ default: panels.MonitoringPanel })),
);
const Monitor = lazy(() => import("./monitoring-panel").then((panels) => ({ default: panels.MonitorPanel })));
const Logs = lazy(() => import("./logs-panel").then((panels) => ({ default: panels.LogsPanel })));

function PanelLoading() {
  return (
    <Center py="xl" role="status" aria-label="Loading the tab">
      <Loader />
    </Center>
  );
}

export function MonitoringPanel(props: ComponentProps<typeof Monitoring>) {
  return (
    <Suspense fallback={<PanelLoading />}>
      <Monitoring {...props} />
    </Suspense>
  );
}

export function MonitorPanel(props: ComponentProps<typeof Monitor>) {
  return (
    <Suspense fallback={<PanelLoading />}>
      <Monitor {...props} />
    </Suspense>
  );
}

export function LogsPanel(props: ComponentProps<typeof Logs>) {
  return (
    <Suspense fallback={<PanelLoading />}>
      <Logs {...props} />
    </Suspense>
  );
}
