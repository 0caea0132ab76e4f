// The chart (@mantine/charts, recharts, d3) is most of a chart page's script: it loads after the page, with its
// style sheet, so the first visit stays within its byte budget (docs/decisions/014-first-visit-bytes.md). The
// table below the chart carries the same figures for anyone who cannot see it.
import chartsStyles from "@mantine/charts/styles.css";
import { Center, Loader } from "@mantine/core";
import { lazy, Suspense, type ComponentProps } from "react";
import { loadStyleSheet } from "~/components/load-style-sheet";

const Chart = lazy(() =>
  Promise.all([import("./cost-chart"), loadStyleSheet(chartsStyles)]).then(([module]) => ({
    default: module.CostChart,
  })),
);

export function CostChart(props: ComponentProps<typeof Chart>) {
  return (
    <>
      <link rel="stylesheet" href={chartsStyles} />
      <Suspense
        fallback={
          <Center h={300} role="status" aria-label="Loading the chart">
            <Loader />
          </Center>
        }
      >
        <Chart {...props} />
      </Suspense>
    </>
  );
}
