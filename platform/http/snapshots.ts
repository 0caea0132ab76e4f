import { Hono } from "hono";
import { snapshotsResponseSchema } from "#contract/snapshots";
import type { Database } from "../db/index";
import type { Operations } from "../operations/operations";
import { TelemetryUnavailable } from "../deployments/telemetry";
import { findEnvironment } from "./environments";
import { HttpError } from "./errors";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { sendJson } from "./validation";
import { documentRoutes } from "./documented";

/**
 * GET .../environments/{w}/snapshots (snapshotPaths.list): the final snapshots the platform kept of the
 * environment's databases and caches, for whoever may see the organization; AWS's refusal answers 502 in its words.
 */
export function snapshotRoutes({
  db,
  engine,
}: {
  db: Database;
  engine: Pick<Operations, "finalSnapshotsOf">;
}) {
  const routes = new Hono<OrganizationEnv>();
  routes.get("/snapshots", permit("organization.view"), async (c) => {
    const environment = await findEnvironment(
      db,
      currentOrganization(c).tenantId,
      c.req.param("environmentId") ?? "",
    );
    try {
      return sendJson(c, snapshotsResponseSchema, {
        snapshots: await engine.finalSnapshotsOf(environment),
      });
    } catch (error) {
      if (error instanceof TelemetryUnavailable) throw new HttpError(502, { message: error.message });
      throw error;
    }
  });
  documentRoutes(routes, {
    "GET /snapshots": { responses: { 200: snapshotsResponseSchema } },
  });
  return routes;
}
