import { and, eq, isNull, or } from "drizzle-orm";
import * as z from "zod";
import { apiErrorMessages } from "#contract/errors";
import { featureFlagDefaults } from "#contract/feature-flags";
import type { Database } from "../db/index";
import { environments, featureFlags } from "../db/schema";
import { notFound } from "../lib/errors";

/** Environment ids are uuids; anything else cannot name an environment and must not reach the query. */
const environmentIdSchema = z.guid();

/** Refuses (404) an environment that is not the tenant's. */
export async function assertEnvironmentOfTenant(db: Database, tenantId: string, environmentId: string) {
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
