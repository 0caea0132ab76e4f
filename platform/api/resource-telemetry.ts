import { and, asc, desc, eq, gt, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import {
  alarmListSchema,
  logListSchema,
  logQuerySchema,
  metricRanges,
  metricsQuerySchema,
  metricsSchema,
  serviceErrorMessages,
  type LogLine,
  type Metrics,
} from "#contract/services";
import type { Stage } from "#contract/stages";
import type { Database } from "../db/index";
import { resourceHistory, resourceLogs, resources } from "../db/schema";
import type { CloudDriver } from "../engine/driver";
import type { EnvironmentRow } from "../environments/records";
import { driverResourceOf, type ResourceRow } from "../services/records";
import { notFound } from "./errors";
import { findEnvironment } from "./environments";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readQuery, sendJson } from "./validation";
import { permit } from "./permissions";

const resourceIdSchema = z.guid();

/** Stages in which a deployed service's pods run and write logs. */
const runningStages: readonly Stage[] = ["STAGE_COMPLETED", "STAGE_SYNCING"];
/** The most runtime lines written per read: a service unread for a long time gets its latest lines only. */
export const RUNTIME_LOG_BATCH = 500;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** The environment's service, or 404 (also for a malformed id or a service of another environment). */
export async function findResource(
  db: Database,
  environmentId: string,
  resourceId: string,
  { lock }: { lock?: "update" } = {},
): Promise<ResourceRow> {
  if (!resourceIdSchema.safeParse(resourceId).success) throw notFound(serviceErrorMessages.notFound);
  const query = db
    .select()
    .from(resources)
    .where(and(eq(resources.id, resourceId), eq(resources.environmentId, environmentId)));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw notFound(serviceErrorMessages.notFound);
  return row;
}

const runningPodsOf = (row: ResourceRow) =>
  row.pods.filter((pod) => pod.status === "Running").map((pod) => pod.name);

const writesRuntimeLogs = (row: ResourceRow) =>
  runningStages.includes(row.stage as Stage) && (row.logsWrittenUntil ?? row.deployedAt) !== null;

/** `%`, `_` and the escape character itself match literally in an ILIKE pattern. */
export const likePatternOf = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * GET resources/:resourceId/logs, .../metrics and .../metrics/alarms under an environment.
 *
 * Runtime log lines are written lazily: a read first asks the driver for what the service's running pods wrote
 * since `logs_written_until` (or the deployment) and stores it, in one transaction holding the service row FOR
 * UPDATE, so concurrent reads neither duplicate nor lose lines. Reads then use the (resource_id, id) index (live
 * tail) or the (resource_id, at) index (search).
 */
export function resourceTelemetryRoutes({
  db,
  driver,
  now = () => new Date(),
}: {
  db: Database;
  driver: CloudDriver;
  now?: () => Date;
}) {
  const routes = new Hono<OrganizationEnv>();

  async function materialiseRuntimeLogs(environment: EnvironmentRow, row: ResourceRow) {
    if (!writesRuntimeLogs(row)) return;
    await db.transaction(async (tx) => {
      const locked = await findResource(tx, environment.id, row.id, { lock: "update" });
      const from = locked.logsWrittenUntil ?? locked.deployedAt;
      const until = now();
      if (!writesRuntimeLogs(locked) || !from || until.getTime() <= from.getTime()) return;
      const pods = runningPodsOf(locked);
      const lines = pods.length
        ? driver.runtimeLogs(driverResourceOf(locked, environment), pods, from, until, RUNTIME_LOG_BATCH)
        : [];
      if (lines.length) {
        await tx.insert(resourceLogs).values(
          lines.map((line) => ({
            resourceId: locked.id,
            at: line.at,
            podName: line.podName,
            level: line.level,
            message: line.message,
          })),
        );
      }
      await tx.update(resources).set({ logsWrittenUntil: until }).where(eq(resources.id, locked.id));
    });
  }

  /**
   * The pods a service has had: its current ones and those its deployments recorded (newest first), without
   * scanning its log lines.
   */
  async function podNamesOf(row: ResourceRow): Promise<string[]> {
    const deployments = await db
      .select({ podNames: resourceHistory.podNames })
      .from(resourceHistory)
      .where(eq(resourceHistory.resourceId, row.id))
      .orderBy(desc(resourceHistory.at));
    return [
      ...new Set([...row.pods.map((pod) => pod.name), ...deployments.flatMap((entry) => entry.podNames)]),
    ];
  }

  routes.get("/resources/:resourceId/logs", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const environment = await findEnvironment(db, tenantId, c.req.param("environmentId") ?? "");
    const query = readQuery(c, logQuerySchema);
    const row = await findResource(db, environment.id, c.req.param("resourceId") ?? "");
    await materialiseRuntimeLogs(environment, row);

    const ofResource = eq(resourceLogs.resourceId, row.id);
    let lines: (typeof resourceLogs.$inferSelect)[];
    if (query.logType === "LIVE") {
      if (query.after !== undefined) {
        lines =
          BigInt(query.after) >= MAX_BIGINT
            ? []
            : await db
                .select()
                .from(resourceLogs)
                .where(and(ofResource, gt(resourceLogs.id, sql`${query.after}::bigint`)))
                .orderBy(asc(resourceLogs.id))
                .limit(query.limit);
      } else {
        const newest = await db
          .select()
          .from(resourceLogs)
          .where(ofResource)
          .orderBy(desc(resourceLogs.id))
          .limit(query.limit);
        lines = newest.reverse();
      }
    } else {
      const conditions: SQL[] = [ofResource];
      if (query.text) conditions.push(sql`${resourceLogs.message} ilike ${likePatternOf(query.text)}`);
      if (query.level) conditions.push(eq(resourceLogs.level, query.level));
      if (query.from) conditions.push(gte(resourceLogs.at, new Date(query.from)));
      if (query.to) conditions.push(lte(resourceLogs.at, new Date(query.to)));
      const pods = (query.podNames ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean);
      if (pods.length) conditions.push(inArray(resourceLogs.podName, pods));
      lines = await db
        .select()
        .from(resourceLogs)
        .where(and(...conditions))
        .orderBy(desc(resourceLogs.at), desc(resourceLogs.id))
        .limit(query.limit);
    }
    return sendJson(c, logListSchema, {
      logs: lines.map(
        (line): LogLine => ({
          id: String(line.id),
          at: line.at.toISOString(),
          podName: line.podName,
          level: line.level as LogLine["level"],
          message: line.message,
        }),
      ),
      podNames: await podNamesOf(row),
    });
  });

  /**
   * The driver's series, cut to the time since the first deployment (a service has no data before it runs). The
   * default step gives 60 points: 1 min for 1h, 6 min for 6h, 24 min for 24h, 2 h 48 min for 7d.
   */
  async function metricsOf(c: Context<OrganizationEnv>) {
    const { tenantId } = currentOrganization(c);
    const environment = await findEnvironment(db, tenantId, c.req.param("environmentId") ?? "");
    const { range, step: requestedStep } = readQuery(c, metricsQuerySchema);
    const row = await findResource(db, environment.id, c.req.param("resourceId") ?? "");
    const step = requestedStep ?? Math.max(10, Math.round(metricRanges[range] / 60));
    const at = now();
    const resource = driverResourceOf(row, environment);
    const metrics: Metrics = driver.metrics(resource, range, step, at);
    const deployedAt = row.deployedAt?.getTime();
    const series = metrics.series.map((entry) => ({
      ...entry,
      points:
        deployedAt === undefined ? [] : entry.points.filter((point) => Date.parse(point.at) >= deployedAt),
    }));
    return { row, resource, at, metrics: { ...metrics, series } };
  }

  routes.get("/resources/:resourceId/metrics", permit("organization.view"), async (c) => {
    const { metrics } = await metricsOf(c);
    return sendJson(c, metricsSchema, metrics);
  });

  routes.get("/resources/:resourceId/metrics/alarms", permit("organization.view"), async (c) => {
    const { row, resource, at, metrics } = await metricsOf(c);
    const alarms = row.deployedAt ? driver.alarms(resource, metrics, at) : [];
    return sendJson(c, alarmListSchema, { alarms });
  });

  return routes;
}
