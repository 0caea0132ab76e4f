import { alarmSeverities } from "#contract/service-catalogue";
import { type Alarm, type Metrics } from "#contract/services";
import { formatDateTime } from "~/components/date-time";

export type LoadedPart<T> = { kind: "ok"; value: T } | { kind: "error"; message: string };
export type Telemetry = { metrics: LoadedPart<Metrics>; alarms: LoadedPart<Alarm[]> };

export const severityColors: Record<Alarm["severity"], string> = {
  critical: "red",
  high: "orange",
  medium: "yellow",
  low: "blue",
  unspecified: "gray",
};

/** Alarms firing first, then by severity (critical first), then by name. */
export function sortAlarms(alarms: readonly Alarm[]): Alarm[] {
  return [...alarms].sort(
    (a, b) =>
      (a.state === "ALARM" ? 0 : 1) - (b.state === "ALARM" ? 0 : 1) ||
      alarmSeverities.indexOf(a.severity) - alarmSeverities.indexOf(b.severity) ||
      a.name.localeCompare(b.name),
  );
}

/** The latest value of each series (the monitor tab's current values); null for a series with no points. */
export function currentValues(metrics: Metrics) {
  return metrics.series.map((series) => ({
    metric: series.metric,
    unit: series.unit,
    value: series.points.at(-1)?.value ?? null,
  }));
}

/** A point's time as a chart's axis label: "08:30" within a day's range, "01-31 08:30" beyond (UTC, short). */
export function axisLabel(iso: string, range: string): string {
  const [day = "", time = iso] = formatDateTime(iso).split(" ");
  return range === "7d" ? `${day.slice(5)} ${time}` : time;
}
