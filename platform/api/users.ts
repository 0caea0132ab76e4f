import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { effectivePermissionsSchema, permissionsFor, type EffectivePermissions } from "#contract/permissions";
import type { Database } from "../db/index";
import { environments } from "../db/schema";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { sendJson } from "./validation";

/** SPEC §7 Users, mounted at /v2/organizations/:tenantId. */
export function userRoutes({ db }: { db: Database }) {
  const routes = new Hono<OrganizationEnv>();

  routes.get("/users/v2/permissions", permit("organization.view"), async (c) => {
    const { tenantId, grants } = currentOrganization(c);
    const rows = await db
      .select({ id: environments.id })
      .from(environments)
      .where(eq(environments.tenantId, tenantId));
    const effective: EffectivePermissions = {
      organization: [...permissionsFor(grants)],
      environments: Object.fromEntries(rows.map(({ id }) => [id, [...permissionsFor(grants, id)]])),
    };
    return sendJson(c, effectivePermissionsSchema, effective);
  });

  return routes;
}
