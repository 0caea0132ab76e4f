import { asc, eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import {
  createEnvironmentRequestSchema,
  environmentListSchema,
  environmentResponseSchema,
  type Environment,
} from "#contract/environments";
import { apiErrorMessages } from "#contract/errors";
import type { Stage } from "#contract/stages";
import type { Database } from "../db/index";
import { environments } from "../db/schema";
import { conflictOn } from "./errors";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";

const initialCloningStage: Stage = "STAGE_UNSPECIFIED";

type EnvironmentRow = typeof environments.$inferSelect;

/** The contract names the tenant `organizationId`; the response schema rejects an unknown stage. */
function toEnvironment(row: EnvironmentRow): Environment {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.tenantId,
    cloningStage: row.cloningStage as Stage,
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET and POST /v2/organizations/:tenantId/environments, behind the organization guard mounted by the app. */
export function environmentRoutes({ db }: { db: Database }) {
  const routes = new Hono<OrganizationEnv>();

  routes.get("/", async (c) => {
    const { tenantId } = currentOrganization(c);
    const rows = await db
      .select()
      .from(environments)
      .where(eq(environments.tenantId, tenantId))
      // Byte order, so PGlite and PostgreSQL servers with other default collations list names identically.
      .orderBy(asc(sql`${environments.name} collate "C"`));
    return sendJson(c, environmentListSchema, { environments: rows.map(toEnvironment) });
  });

  routes.post("/", async (c) => {
    const { tenantId } = currentOrganization(c);
    const { name } = await readJsonBody(c, createEnvironmentRequestSchema);
    const [created] = await db
      .insert(environments)
      .values({ tenantId, name, cloningStage: initialCloningStage })
      .onConflictDoNothing({ target: [environments.tenantId, environments.name] })
      .returning();
    if (!created) throw conflictOn("name", apiErrorMessages.environmentNameTaken);
    return sendJson(c, environmentResponseSchema, { environment: toEnvironment(created) }, 201);
  });

  return routes;
}
