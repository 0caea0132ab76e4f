import { Hono } from "hono";
import { featureFlagQuerySchema, featureFlagsSchema } from "#contract/feature-flag-schemas";
import type { Database } from "../db/index";
import { assertEnvironmentOfTenant, flagsOfTenant } from "../feature-flags/flags";
import { currentUser, type AuthenticatedEnv } from "./auth";
import { resolveOrganizationAccess } from "./tenancy";
import { readQuery, sendJson } from "./validation";
import { signedIn } from "./permissions";
import { documentRoutes } from "./documented";

/** GET /v2/feature-flags?organizationId=<tenant id>&environmentId=<environment id>. */
export function featureFlagRoutes({ db }: { db: Database }) {
  const routes = new Hono<AuthenticatedEnv>();

  routes.get("/v2/feature-flags", signedIn(), async (c) => {
    const { organizationId, environmentId } = readQuery(c, featureFlagQuerySchema);
    // The tenant is named by the query rather than the path, so the organization guard is applied here.
    const { tenantId } = await resolveOrganizationAccess(db, currentUser(c).id, organizationId);
    if (environmentId) await assertEnvironmentOfTenant(db, tenantId, environmentId);
    return sendJson(c, featureFlagsSchema, { featureFlags: await flagsOfTenant(db, tenantId) });
  });

  documentRoutes(routes, {
    "GET /v2/feature-flags": { query: featureFlagQuerySchema, responses: { 200: featureFlagsSchema } },
  });
  return routes;
}
