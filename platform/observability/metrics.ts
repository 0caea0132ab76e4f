import type { metricNames, ServiceType } from "#contract/service-catalogue";

/**
 * What the forwarder posts (issue 13, SPEC §7): the metrics of an environment's deployed services, one point a
 * minute, under names and tags both Datadog and Middleware accept.
 */

export type MetricName = (typeof metricNames)[number];

/** The name each of the product's metrics is posted under, and Datadog's unit for it. */
export const forwardedMetrics: Record<MetricName, { name: string; datadogUnit?: string }> = {
  cpu: { name: "cloudconsole.cpu.utilization", datadogUnit: "percent" },
  memory: { name: "cloudconsole.memory.utilization", datadogUnit: "percent" },
  requests: { name: "cloudconsole.requests.rate" },
  errors: { name: "cloudconsole.errors.rate" },
  latency: { name: "cloudconsole.latency", datadogUnit: "millisecond" },
};

export type ServiceSeries = {
  service: { id: string; name: string; serviceType: ServiceType };
  metric: MetricName;
  /** The product's unit (%, req/min, err/min, ms). */
  unit: string;
  points: { at: Date; value: number }[];
};

/** An environment's series for one post. */
export type MetricBatch = { environmentName: string; series: ServiceSeries[] };

/** The tags of a service's series: the environment, the service and its type. */
export function tagsOf(batch: MetricBatch, series: ServiceSeries): Record<string, string> {
  return {
    env: batch.environmentName,
    service: series.service.name,
    service_type: series.service.serviceType,
  };
}
