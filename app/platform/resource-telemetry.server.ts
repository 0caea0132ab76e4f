import { type MetricRange } from "#contract/service-catalogue";
import {
  alarmListSchema,
  logListSchema,
  metricsSchema,
  servicePaths,
  serviceUnitsSchema,
  type LogQuery,
} from "#contract/services";
import type { PlatformClient } from "./client.server";

/**
 * What the platform observes of a running service (SPEC §7 "resources/{id}/..."): its units, logs, metrics and
 * alarms.
 * The infrastructure calls themselves live in services.server.ts.
 */

/** GET resources/{id}/logs: LIVE lines since `after` (oldest first), or SEARCH results (newest first). */
export async function getServiceLogs(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  query: LogQuery = {},
) {
  return api.get(servicePaths.logs(tenantId, environmentId, id, query), logListSchema);
}

/** GET resources/{id}/metrics: one series per metric over `range`. */
export async function getServiceMetrics(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  query: { range?: MetricRange; step?: number } = {},
) {
  return api.get(servicePaths.metrics(tenantId, environmentId, id, query), metricsSchema);
}

/** GET resources/{id}/metrics/alarms: the service's alarms and their current state. */
export async function getServiceAlarms(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  query: { range?: MetricRange; step?: number } = {},
) {
  const { alarms } = await api.get(servicePaths.alarms(tenantId, environmentId, id, query), alarmListSchema);
  return alarms;
}

/** GET resources/{id}/units: the tasks, instances or nodes the service runs now, as its cloud reports them. */
export async function getServiceUnits(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
) {
  return api.get(servicePaths.units(tenantId, environmentId, id), serviceUnitsSchema);
}
