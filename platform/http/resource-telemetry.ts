import { and, asc, desc, eq, gt, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import { metricRanges } from "#contract/service-catalogue";
import {
  alarmListSchema,
  logListSchema,
  logQuerySchema,
  metricsQuerySchema,
  metricsSchema,
  serviceErrorMessages,
  serviceUnitsSchema,
  type LogLine,
  type Metrics,
} from "#contract/services";
import type { Database } from "../db/index";
import { resourceHistory, resourceLogs, resources } from "../db/schema";
import type { Operations } from "../operations/operations";
import { TelemetryUnavailable } from "../deployments/telemetry";
import { unitsOf } from "../deployments/units";
import { CloudStepError } from "../cloud/driver";
import { driverResourceOf, type ResourceRow } from "../services/records";
import { HttpError } from "./errors";
import { notFound } from "../lib/errors";
import { findEnvironment } from "./environments";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readQuery, sendJson } from "./validation";
import { permit } from "./permissions";
import { documentRoutes } from "./documented";
import { unlessSameAnswer, unlessUnchanged } from "./unchanged";

const resourceIdSchema = z.guid();

const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** The environment's service, or 404 (also for a malformed id or a service of another environment). */
export async function findResource(
  db: Database,
  environmentId: string,
  resourceId: string,
): Promise<ResourceRow> {
  if (!resourceIdSchema.safeParse(resourceId).success) throw notFound(serviceErrorMessages.notFound);
  const [row] = await db
    .select()
    .from(resources)
    .where(and(eq(resources.id, resourceId), eq(resources.environmentId, environmentId)));
  if (!row) throw notFound(serviceErrorMessages.notFound);
  return row;
}

/** `%`, `_` and the escape character itself match literally in an ILIKE pattern. */
export const likePatternOf = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * GET resources/:resourceId/logs, .../metrics and .../metrics/alarms under an environment.
 *
 * Where the lines and series come from is the environment's telemetry source (the simulated cloud, or CloudWatch
 * for an environment in an AWS connection: platform/deployments/telemetry.ts). A read first has the source store the
 * runtime lines written since the last one in resource_logs; reads then use the (resource_id, id) index (live
 * tail) or the (resource_id, at) index (search). A cloud that refuses or does not answer is a 502 with its words.
 */
export function resourceTelemetryRoutes({
  db,
  engine,
}: {
  db: Database;
  engine: Pick<Operations, "driver" | "telemetryOf" | "now" | "deploys">;
}) {
  const routes = new Hono<OrganizationEnv>();

  /** Runs a read of the cloud's telemetry; its refusal or silence answers 502 with what it said. */
  async function fromCloud<Result>(read: () => Promise<Result>): Promise<Result> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof TelemetryUnavailable) throw new HttpError(502, { message: error.message });
      throw error;
    }
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
    const telemetry = await engine.telemetryOf(environment);
    await fromCloud(() => telemetry.collectLogs(environment, row));

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
   * The source's series, cut to the time since the first deployment (a service has no data before it runs). The
   * default step gives 60 points: 1 min for 1h, 6 min for 6h, 24 min for 24h, 2 h 48 min for 7d.
   */
  async function metricsOf(c: Context<OrganizationEnv>) {
    const { tenantId } = currentOrganization(c);
    const environment = await findEnvironment(db, tenantId, c.req.param("environmentId") ?? "");
    const { range, step: requestedStep } = readQuery(c, metricsQuerySchema);
    const row = await findResource(db, environment.id, c.req.param("resourceId") ?? "");
    const step = requestedStep ?? Math.max(10, Math.round(metricRanges[range] / 60));
    const at = engine.now();
    const resource = driverResourceOf(row, environment);
    const telemetry = await engine.telemetryOf(environment);
    const metrics: Metrics = await fromCloud(() => telemetry.metrics(row, resource, range, step, at));
    const deployedAt = row.deployedAt?.getTime();
    const series = metrics.series.map((entry) => ({
      ...entry,
      points:
        deployedAt === undefined ? [] : entry.points.filter((point) => Date.parse(point.at) >= deployedAt),
    }));
    return { row, resource, at, metrics: { ...metrics, series } };
  }

  /** The units the service runs now (ECS tasks, RDS instances, nodes), as its cloud reports them. */
  routes.get("/resources/:resourceId/units", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const environment = await findEnvironment(db, tenantId, c.req.param("environmentId") ?? "");
    const cloud = await engine.deploys.driverOf(db, environment);
    const answer = async () => {
      // Read after the revision (unlessUnchanged), so that the answer is never older than its ETag.
      const row = await findResource(db, environment.id, c.req.param("resourceId") ?? "");
      try {
        return sendJson(c, serviceUnitsSchema, await unitsOf(db, cloud, { row, environment }, engine.now()));
      } catch (error) {
        if (error instanceof CloudStepError) throw new HttpError(502, { message: error.message });
        throw error;
      }
    };
    // Simulated units are the service's row (its pods), counted by the environment's revision; a cloud's change
    // without a write here, so they are asked of it and tagged by what it answered (decision 065).
    return cloud.units ? unlessSameAnswer(c, await answer()) : unlessUnchanged(c, db, environment.id, answer);
  });

  routes.get("/resources/:resourceId/metrics", permit("organization.view"), async (c) => {
    const { metrics } = await metricsOf(c);
    return sendJson(c, metricsSchema, metrics);
  });

  routes.get("/resources/:resourceId/metrics/alarms", permit("organization.view"), async (c) => {
    const { row, resource, at, metrics } = await metricsOf(c);
    // Judged by the same rules whatever the series' source.
    const alarms = row.deployedAt ? engine.driver.alarms(resource, metrics, at) : [];
    return sendJson(c, alarmListSchema, { alarms });
  });

  documentRoutes(routes, {
    "GET /resources/:resourceId/logs": { query: logQuerySchema, responses: { 200: logListSchema } },
    "GET /resources/:resourceId/units": { responses: { 200: serviceUnitsSchema } },
    "GET /resources/:resourceId/metrics": { responses: { 200: metricsSchema } },
    "GET /resources/:resourceId/metrics/alarms": { responses: { 200: alarmListSchema } },
  });
  return routes;
}
