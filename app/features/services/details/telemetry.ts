import { alarmSeverities, type Alarm, type Metrics } from "#contract/services";

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

/** A point's time as a chart's axis label: "08:30" within a day's range, "31 Jan 08:30" beyond. */
export function axisLabel(iso: string, range: string): string {
  const date = new Date(iso);
  const time = date.toISOString().slice(11, 16);
  if (range !== "7d") return time;
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
  return `${day} ${time}`;
}
