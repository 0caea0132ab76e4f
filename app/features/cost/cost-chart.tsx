import { BarChart } from "@mantine/charts";
import { SegmentedControl, Stack } from "@mantine/core";
import { useState } from "react";
import type { CostDay } from "#contract/cost";
import { formatUsd } from "~/features/environments/cost";

const palette = [
  "purple.6",
  "teal.6",
  "orange.6",
  "blue.6",
  "pink.6",
  "lime.6",
  "cyan.6",
  "yellow.6",
  "grape.6",
];

type StackBy = "byEnvironment" | "byServiceType";

/** The window's daily cost as stacked bars, split by environment or by service type. */
export function CostChart({
  daily,
  labels,
}: {
  daily: CostDay[];
  /** The names of the days' keys (environment ids, service types). */
  labels: Record<StackBy, Record<string, string>>;
}) {
  const [stackBy, setStackBy] = useState<StackBy>("byEnvironment");
  const keys = [...new Set(daily.flatMap((day) => Object.keys(day[stackBy])))].sort();
  const data = daily.map((day) => ({ date: day.date, ...day[stackBy] }));
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Stack the bars by"
        value={stackBy}
        onChange={(value) => setStackBy(value as StackBy)}
        data={[
          { value: "byEnvironment", label: "By environment" },
          { value: "byServiceType", label: "By service type" },
        ]}
        w="fit-content"
      />
      <BarChart
        h={260}
        data={data}
        dataKey="date"
        type="stacked"
        series={keys.map((name, index) => ({
          name,
          label: labels[stackBy][name] ?? name,
          color: palette[index % palette.length] ?? "gray.6",
        }))}
        valueFormatter={formatUsd}
        withLegend
        tickLine="y"
      />
    </Stack>
  );
}
