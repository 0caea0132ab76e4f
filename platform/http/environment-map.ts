import { asc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { environmentMapSchema } from "#contract/infrastructure-map";
import type { Database } from "../db/index";
import { resources } from "../db/schema";
import { environmentMapOf } from "../services/environment-map";
import { findEnvironment } from "./environments";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { sendJson } from "./validation";
import { documentRoutes } from "./documented";

/** GET .../environments/:environmentId/infrastructure-map: how the environment fits together (decision 037). */
export function environmentMapRoutes({ db }: { db: Database }) {
  const routes = new Hono<OrganizationEnv>();
  routes.get("/infrastructure-map", permit("organization.view"), async (c) => {
    const environment = await findEnvironment(
      db,
      currentOrganization(c).tenantId,
      c.req.param("environmentId") ?? "",
    );
    const rows = await db
      .select()
      .from(resources)
      .where(eq(resources.environmentId, environment.id))
      .orderBy(asc(resources.name), asc(resources.id));
    return sendJson(c, environmentMapSchema, environmentMapOf(rows, environment));
  });
  documentRoutes(routes, {
    "GET /infrastructure-map": { responses: { 200: environmentMapSchema } },
  });
  return routes;
}
