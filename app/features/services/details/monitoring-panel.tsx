import { AreaChart, LineChart } from "@mantine/charts";
import {
  Alert,
  Anchor,
  Badge,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useNavigate } from "@remix-run/react";
import { metricRanges, type MetricRange } from "#contract/service-catalogue";
import { type Alarm, type Metrics } from "#contract/services";
import { useRevalidateWhile } from "~/hooks/use-revalidate-while";
import { HEALTH_METRICS_FETCH_INTERVAL_MS } from "./dynamic-settings";
import { serviceDetailsPaths } from "./paths";
import { axisLabel, currentValues, severityColors, sortAlarms, type Telemetry } from "./telemetry";

const metricTitles: Record<Metrics["series"][number]["metric"], string> = {
  cpu: "CPU",
  memory: "Memory",
  requests: "Requests",
  errors: "Errors",
  latency: "Latency",
};

/**
 * Charts of the service's metrics over a chosen range, and its alarms; `dashboards` open the same metrics in the
 * environment's Datadog or Middleware.
 */
export function MonitoringPanel({
  environmentName,
  serviceId,
  range,
  telemetry,
  dashboards = [],
}: {
  environmentName: string;
  serviceId: string;
  range: MetricRange;
  telemetry: Telemetry;
  dashboards?: { label: string; url: string }[];
}) {
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      {dashboards.length ? (
        <Group gap="md">
          {dashboards.map((dashboard) => (
            <Anchor
              key={dashboard.url}
              href={dashboard.url}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
            >
              {dashboard.label}
            </Anchor>
          ))}
        </Group>
      ) : null}
      <Group justify="space-between">
        <Title order={3} size="h4">
          Metrics
        </Title>
        <SegmentedControl
          aria-label="Time range"
          value={range}
          data={Object.keys(metricRanges)}
          onChange={(value) =>
            navigate(serviceDetailsPaths.monitoring(environmentName, serviceId, value as MetricRange), {
              preventScrollReset: true,
            })
          }
        />
      </Group>
      {telemetry.metrics.kind === "error" ? (
        <Alert color="red" title="Metrics unavailable">
          {telemetry.metrics.message}
        </Alert>
      ) : (
        <MetricCharts metrics={telemetry.metrics.value} range={range} />
      )}
      <Title order={3} size="h4">
        Alarms
      </Title>
      <AlarmList alarms={telemetry.alarms} />
    </Stack>
  );
}

/**
 * A chart per series the service's type has (a queue has no CPU); an empty series says "No data yet" rather than
 * drawing an empty chart (CloudWatch publishes a service's first datapoints minutes after it runs).
 */
export function MetricCharts({ metrics, range }: { metrics: Metrics; range: MetricRange }) {
  if (!metrics.series.length) {
    return <Text c="dimmed">This type of service publishes no metrics.</Text>;
  }
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      {metrics.series.map((series) => {
        const title = `${metricTitles[series.metric]} (${series.unit})`;
        const data = series.points.map((point) => ({ time: axisLabel(point.at, range), value: point.value }));
        const Chart = series.metric === "requests" || series.metric === "errors" ? AreaChart : LineChart;
        return (
          <Paper
            key={series.metric}
            withBorder
            p="md"
            role="figure"
            aria-label={`${metricTitles[series.metric]} chart`}
          >
            <Text fw={600} mb="xs">
              {title}
            </Text>
            {data.length ? (
              <Chart
                h={180}
                data={data}
                dataKey="time"
                series={[{ name: "value", label: title, color: "purple.6" }]}
                curveType="linear"
                withDots={false}
                tickLine="none"
                gridAxis="y"
              />
            ) : (
              <Text c="dimmed" size="sm" h={180}>
                No data yet
              </Text>
            )}
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}

const alarmStates: Record<Alarm["state"], { label: string; color: string; variant: string }> = {
  ALARM: { label: "ALARM", color: "red", variant: "filled" },
  OK: { label: "OK", color: "teal", variant: "outline" },
  INSUFFICIENT_DATA: { label: "Insufficient data", color: "gray", variant: "outline" },
};

export function AlarmList({ alarms }: { alarms: Telemetry["alarms"] }) {
  if (alarms.kind === "error") {
    return (
      <Alert color="red" title="Alarms unavailable">
        {alarms.message}
      </Alert>
    );
  }
  if (!alarms.value.length) return <Text c="dimmed">No alarms are set for this service.</Text>;
  return (
    <Table aria-label="Alarms" fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Alarm</Table.Th>
          <Table.Th>Severity</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Value / threshold</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {sortAlarms(alarms.value).map((alarm) => (
          <AlarmRow key={alarm.id} alarm={alarm} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

function AlarmRow({ alarm }: { alarm: Alarm }) {
  return (
    <Table.Tr>
      <Table.Td>{alarm.name}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={severityColors[alarm.severity]}>
          {alarm.severity}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Badge variant={alarmStates[alarm.state].variant} color={alarmStates[alarm.state].color}>
          {alarmStates[alarm.state].label}
        </Badge>
      </Table.Td>
      <Table.Td>
        {alarm.value ?? "no data"} / {alarm.threshold}
      </Table.Td>
    </Table.Tr>
  );
}

/** The compact health view: each metric's current value and the alarms, firing ones first; kept fresh. */
export function MonitorPanel({ telemetry }: { telemetry: Telemetry }) {
  useRevalidateWhile(true, HEALTH_METRICS_FETCH_INTERVAL_MS);
  return (
    <Stack gap="md">
      {telemetry.metrics.kind === "error" ? (
        <Alert color="red" title="Metrics unavailable">
          {telemetry.metrics.message}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
          {currentValues(telemetry.metrics.value).map((current) => (
            <Paper key={current.metric} withBorder p="sm" data-testid={`current-${current.metric}`}>
              <Text size="xs" c="dimmed">
                {metricTitles[current.metric]}
              </Text>
              <Text fw={700} size="lg">
                {current.value === null
                  ? "no data yet"
                  : `${Math.round(current.value * 10) / 10} ${current.unit}`}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      <AlarmList alarms={telemetry.alarms} />
    </Stack>
  );
}
