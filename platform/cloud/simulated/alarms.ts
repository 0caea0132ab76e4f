import type { Alarm, Metrics } from "#contract/services";
import type { DriverResource } from "../driver";
import { profileOf, type MetricName } from "./metrics";

type AlarmDefinition = {
  key: string;
  name: string;
  metric: MetricName;
  severity: Alarm["severity"];
  threshold: number;
};

/**
 * The alarms every service gets, CloudWatch-style: a metric above a threshold. Thresholds that depend on the
 * service's normal traffic (errors, latency) come from its profile, so a quiet service and a busy one both alarm
 * only when something is off.
 */
export function alarmDefinitionsOf(resource: DriverResource): AlarmDefinition[] {
  const profile = profileOf(resource);
  const latencyThreshold = profile.latency * 3;
  return [
    { key: "high-cpu", name: "High CPU", metric: "cpu", severity: "high", threshold: 80 },
    {
      key: "error-rate",
      name: "Error rate",
      metric: "errors",
      severity: "critical",
      threshold: Math.max(5, Math.round(profile.requests * profile.errorRate * 4)),
    },
    {
      key: "latency-p95",
      name: "Latency p95",
      metric: "latency",
      severity: "medium",
      threshold:
        latencyThreshold < 10 ? Math.round(latencyThreshold * 100) / 100 : Math.round(latencyThreshold),
    },
    { key: "memory", name: "Memory", metric: "memory", severity: "low", threshold: 85 },
  ];
}

/**
 * Each alarm's state over the series: ALARM when the latest value is above the threshold, `since` when the current
 * state began (the first point of the latest run of points on the same side of the threshold); INSUFFICIENT_DATA,
 * with no value, while the series has no point (a service CloudWatch has no datapoint of yet). A metric the service
 * has no series of (a queue's CPU) has no alarm.
 */
export function alarmsOf(resource: DriverResource, metrics: Metrics, now: Date): Alarm[] {
  const seriesOf = (metric: MetricName) => metrics.series.find((series) => series.metric === metric);
  return alarmDefinitionsOf(resource).flatMap((definition): Alarm[] => {
    const series = seriesOf(definition.metric);
    if (!series) return [];
    const { points } = series;
    const latest = points[points.length - 1];
    const id = `${resource.id}:${definition.key}`;
    const base = {
      id,
      name: definition.name,
      metric: definition.metric,
      severity: definition.severity,
      threshold: definition.threshold,
    };
    if (!latest) return [{ ...base, state: "INSUFFICIENT_DATA", value: null, since: now.toISOString() }];
    const crossing = latest.value > definition.threshold;
    let since = latest.at;
    for (let index = points.length - 1; index >= 0; index--) {
      const point = points[index];
      if (!point || point.value > definition.threshold !== crossing) break;
      since = point.at;
    }
    return [{ ...base, state: crossing ? "ALARM" : "OK", value: latest.value, since }];
  });
}
