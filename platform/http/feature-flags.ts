import { and, eq, isNull, or } from "drizzle-orm";
import { Hono } from "hono";
import * as z from "zod";
import { apiErrorMessages } from "#contract/errors";
import { featureFlagQuerySchema, featureFlagsSchema } from "#contract/feature-flag-schemas";
import { featureFlagDefaults } from "#contract/feature-flags";
import type { Database } from "../db/index";
import { environments, featureFlags } from "../db/schema";
import { currentUser, type AuthenticatedEnv } from "./auth";
import { notFound } from "./errors";
import { resolveOrganizationAccess } from "./tenancy";
import { readQuery, sendJson } from "./validation";
import { signedIn } from "./permissions";

/** Environment ids are uuids; anything else cannot name an environment and must not reach the query. */
const environmentIdSchema = z.guid();

async function assertEnvironmentOfTenant(db: Database, tenantId: string, environmentId: string) {
  const [environment] = environmentIdSchema.safeParse(environmentId).success
    ? await db
        .select({ id: environments.id })
        .from(environments)
        .where(and(eq(environments.id, environmentId), eq(environments.tenantId, tenantId)))
    : [];
  if (!environment) throw notFound(apiErrorMessages.environmentNotFound);
}

/**
 * The tenant's flags: the contract's catalogue, overridden by the platform-wide default rows (no tenant), overridden
 * by the tenant's own rows.
 */
export async function flagsOfTenant(db: Database, tenantId: string): Promise<Record<string, boolean>> {
  const rows = await db
    .select({ tenantId: featureFlags.tenantId, name: featureFlags.name, enabled: featureFlags.enabled })
    .from(featureFlags)
    .where(or(isNull(featureFlags.tenantId), eq(featureFlags.tenantId, tenantId)));
  const platformDefaults = rows.filter((row) => row.tenantId === null);
  const tenantOverrides = rows.filter((row) => row.tenantId !== null);
  const flags: Record<string, boolean> = { ...featureFlagDefaults };
  for (const row of [...platformDefaults, ...tenantOverrides]) flags[row.name] = row.enabled;
  return flags;
}

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

  return routes;
}
