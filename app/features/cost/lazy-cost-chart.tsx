// The chart (@mantine/charts, recharts, d3) is most of a chart page's script: it loads after the page, with its
// style sheet, so the first visit stays within its byte budget (docs/decisions/014-first-visit-bytes.md), and only
// once the browser is idle or the chart in view, so start-up keeps the network and the main thread
// (docs/decisions/064-a-200-kb-first-visit.md). The table below the chart carries the same figures for anyone who
// cannot see it.
import chartsStyles from "@mantine/charts/styles.css?url";
import { Center, Loader } from "@mantine/core";
import { lazy, Suspense, useRef, type ComponentProps } from "react";
import { loadStyleSheet } from "~/components/load-style-sheet";
import { useWhenWanted } from "~/hooks/use-when-wanted";

const Chart = lazy(() =>
  Promise.all([import("./cost-chart"), loadStyleSheet(chartsStyles)]).then(([module]) => ({
    default: module.CostChart,
  })),
);

export function CostChart(props: ComponentProps<typeof Chart>) {
  const placeholder = useRef<HTMLDivElement>(null);
  const wanted = useWhenWanted(placeholder);
  const loading = (
    <Center ref={placeholder} h={300} role="status" aria-label="Loading the chart">
      <Loader />
    </Center>
  );
  return wanted ? (
    <Suspense fallback={loading}>
      <Chart {...props} />
    </Suspense>
  ) : (
    loading
  );
}
