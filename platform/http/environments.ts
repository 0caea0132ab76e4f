import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { cloudProviderOfKind, type ConnectionKind } from "#contract/connections";
import { Hono } from "hono";
import * as z from "zod";
import { isRegionOf, type CloudProvider } from "#contract/cloud-providers";
import {
  addonListSchema,
  costEstimateSchema,
  createEnvironmentRequestSchema,
  environmentConfigListSchema,
  environmentConfigResponseSchema,
  environmentConfigSchema,
  environmentErrorMessages,
  environmentListQuerySchema,
  environmentListSchema,
  environmentResponseSchema,
  environmentSummaryListSchema,
  estimateCostRequestSchema,
  addonNames,
  type Addon,
} from "#contract/environments";
import { apiErrorMessages } from "#contract/errors";
import type { Stage } from "#contract/stages";
import { findConnection } from "../connections/records";
import type { Database } from "../db/index";
import { assertRoomForEnvironment } from "../plans/limits";
import { engineJobs, environments } from "../db/schema";
import { CLONE_JOB_KIND } from "../deployments/cloning";
import type { Operations } from "../operations/operations";
import { unfinishedJobStatuses } from "../engine/jobs";
import { estimateEnvironmentCost } from "../cloud/pricing";
import {
  addonsOf,
  configOf,
  toEnvironment,
  toEnvironmentSummary,
  type EnvironmentRow,
} from "../environments/records";
import { noServices, serviceTotalsOf } from "../environments/service-totals";
import { conflict, conflictOn, invalidFields, notFound } from "../lib/errors";
import { flagsOfTenant } from "../feature-flags/flags";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { permit } from "./permissions";
import { documentRoutes } from "./documented";
import { unlessUnchanged } from "./unchanged";

const initialCloningStage: Stage = "STAGE_UNSPECIFIED";

/** Environment ids are uuids; anything else cannot name an environment and must not reach a uuid column. */
const environmentIdSchema = z.guid();

/**
 * The tenant's environment, or 404 (also for another tenant's id). `lock` takes the row FOR UPDATE (writes that
 * must not interleave: variables, config, deletion) or FOR SHARE (reading it as a clone source).
 */
export async function findEnvironment(
  db: Database,
  tenantId: string,
  environmentId: string,
  { lock }: { lock?: "update" | "share" } = {},
): Promise<EnvironmentRow> {
  if (!environmentIdSchema.safeParse(environmentId).success) {
    throw notFound(apiErrorMessages.environmentNotFound);
  }
  const query = db
    .select()
    .from(environments)
    .where(and(eq(environments.id, environmentId), eq(environments.tenantId, tenantId)));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw notFound(apiErrorMessages.environmentNotFound);
  return row;
}

/**
 * Refuses writes to an environment's settings while its clone has yet to copy them from the source: the copy
 * would overwrite them. Call with the environment row locked, so the copy cannot commit in between.
 */
export async function assertSettingsEditable(db: Database, environmentId: string) {
  const [copying] = await db
    .select({ id: engineJobs.id })
    .from(engineJobs)
    .where(
      and(
        eq(engineJobs.environmentId, environmentId),
        eq(engineJobs.kind, CLONE_JOB_KIND),
        eq(engineJobs.state, "CREATING_DRAFT_RESOURCES"),
        eq(engineJobs.status, "queued"),
      ),
    );
  if (copying) throw conflict(environmentErrorMessages.settingsBeingCopied);
}

/** Whether the environment has a job with work ahead (a clone not yet at its end, later a deployment). */
export async function hasUnfinishedJobs(db: Database, environmentId: string): Promise<boolean> {
  const [job] = await db
    .select({ id: engineJobs.id })
    .from(engineJobs)
    .where(
      and(eq(engineJobs.environmentId, environmentId), inArray(engineJobs.status, unfinishedJobStatuses)),
    )
    .limit(1);
  return Boolean(job);
}

/** The provider must be enabled for the tenant (Azure by its flag) and the region in the provider's catalogue. */
export async function assertCloudPlacement(
  db: Database,
  tenantId: string,
  { cloudProvider, region }: { cloudProvider: CloudProvider; region: string },
) {
  if (cloudProvider === "AZURE" && !(await flagsOfTenant(db, tenantId))["azure-connection"]) {
    throw invalidFields({ cloudProvider: [environmentErrorMessages.providerNotEnabled] });
  }
  assertRegionOf(cloudProvider, region);
}

/** An environment runs in a cloud account of its organization, of its provider. */
async function assertCloudAccount(
  db: Database,
  organizationId: string,
  cloudProvider: CloudProvider,
  id: string | null | undefined,
) {
  const connection = id ? await findConnection(db, organizationId, id) : undefined;
  if (!connection || cloudProviderOfKind[connection.kind as ConnectionKind] !== cloudProvider) {
    throw invalidFields({ cloudConnectionId: [cloudAccountMessage(cloudProvider)] });
  }
}

/** Containers need a host: without one there is nothing to run them on, and simulating them would mislead. */
function cloudAccountMessage(cloudProvider: CloudProvider): string {
  return cloudProvider === "CONTAINERS"
    ? environmentErrorMessages.containerHost
    : environmentErrorMessages.cloudAccount(cloudProvider);
}

function assertRegionOf(cloudProvider: CloudProvider, region: string) {
  if (!isRegionOf(cloudProvider, region)) {
    throw invalidFields({ region: [environmentErrorMessages.regionNotInCatalogue(cloudProvider)] });
  }
}

/** Add-on names must be known and named once; reported per index like a schema violation. */
function assertAddonNames(names: readonly string[], fieldOf: (index: number) => string): Addon["name"][] {
  const fieldErrors: Record<string, string[]> = {};
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (!(addonNames as readonly string[]).includes(name)) {
      fieldErrors[fieldOf(index)] = [environmentErrorMessages.unknownAddon];
    } else if (seen.has(name)) {
      fieldErrors[fieldOf(index)] = [environmentErrorMessages.addonRepeated];
    }
    seen.add(name);
  });
  if (Object.keys(fieldErrors).length) throw invalidFields(fieldErrors);
  return names as Addon["name"][];
}

/**
 * /v2/organizations/:tenantId/environments: list, create, one, delete, configuration, add-ons and the cost
 * estimate, behind the organization guard mounted by the app (membership, approval, no writes for read-only).
 */
export function environmentRoutes({ db, engine }: { db: Database; engine: Operations }) {
  const routes = new Hono<OrganizationEnv>();

  async function environmentsOfTenant(tenantId: string) {
    return (
      db
        .select()
        .from(environments)
        .where(eq(environments.tenantId, tenantId))
        // Byte order, so PGlite and PostgreSQL servers with other default collations list names identically.
        .orderBy(asc(sql`${environments.name} collate "C"`))
    );
  }

  routes.get("/", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { totals: withTotals } = readQuery(c, environmentListQuerySchema);
    const rows = await environmentsOfTenant(tenantId);
    if (withTotals === "false") {
      return sendJson(c, environmentSummaryListSchema, { environments: rows.map(toEnvironmentSummary) });
    }
    const totals = await serviceTotalsOf(
      db,
      rows.map((row) => row.id),
    );
    return sendJson(c, environmentListSchema, {
      environments: rows.map((row) => toEnvironment(row, totals.get(row.id) ?? noServices)),
    });
  });

  routes.post("/", permit("environments.create"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { name, cloudProvider, region, cloudConnectionId } = await readJsonBody(
      c,
      createEnvironmentRequestSchema,
    );
    await assertCloudPlacement(db, tenantId, { cloudProvider, region });
    // Without an account an environment is simulated, which containers never are.
    if (cloudConnectionId || cloudProvider === "CONTAINERS")
      await assertCloudAccount(db, currentOrganization(c).organizationId, cloudProvider, cloudConnectionId);
    const [created] = await db.transaction(async (tx) => {
      await assertRoomForEnvironment(tx, tenantId);
      return tx
        .insert(environments)
        .values({
          tenantId,
          name,
          cloningStage: initialCloningStage,
          cloudProvider,
          region,
          cloudConnectionId: cloudConnectionId ?? null,
        })
        .onConflictDoNothing({ target: [environments.tenantId, environments.name] })
        .returning();
    });
    if (!created) throw conflictOn("name", apiErrorMessages.environmentNameTaken);
    return sendJson(c, environmentResponseSchema, { environment: toEnvironment(created) }, 201);
  });

  // Registered before the `/:environmentId` routes, which would otherwise see these names as ids.
  routes.post("/estimate-cost", permit("organization.view"), async (c) => {
    const { cloudProvider, region, addons } = await readJsonBody(c, estimateCostRequestSchema);
    assertRegionOf(cloudProvider, region);
    const names = assertAddonNames(addons, (index) => `addons.${index}`);
    return sendJson(c, costEstimateSchema, estimateEnvironmentCost({ cloudProvider, region, addons: names }));
  });

  routes.get("/config", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const rows = await environmentsOfTenant(tenantId);
    return sendJson(c, environmentConfigListSchema, {
      configs: rows.map((row) => ({ environmentId: row.id, config: configOf(row) })),
    });
  });

  routes.get("/:environmentId", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { id } = await findEnvironment(db, tenantId, c.req.param("environmentId"));
    // Read again after the revision, so that the answer is never older than its ETag.
    return unlessUnchanged(c, db, id, async () => {
      const row = await findEnvironment(db, tenantId, id);
      const totals = await serviceTotalsOf(db, [row.id]);
      return sendJson(c, environmentResponseSchema, {
        environment: toEnvironment(row, totals.get(row.id) ?? noServices),
      });
    });
  });

  /**
   * Removes the environment with its variables, add-ons, configuration and finished jobs (foreign keys cascade in
   * one statement): at once (204), or, when its cloud keeps what its services created (AWS), once their teardowns
   * finished (202 with the environment, its deletion in progress). Refused while its own jobs have work ahead
   * (a deletion in progress included), while a clone still needs it as its source, and while deletion protection
   * is on. Its previews go with it, as closed pull requests' do, even while they open or deploy (decision 075).
   */
  routes.delete("/:environmentId", permit("environments.delete"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { id } = await findEnvironment(db, tenantId, c.req.param("environmentId"));
    const now = engine.now();
    const removal = await db.transaction(async (tx) => {
      // Jobs before their environment, the order the engine locks them in, so the two never wait on each other.
      await tx
        .select({ id: engineJobs.id })
        .from(engineJobs)
        .where(eq(engineJobs.environmentId, id))
        .for("update");
      const previewEnvironments = new Set(await engine.previews.lockWithSource(tx, id));
      const row = await findEnvironment(tx, tenantId, id, { lock: "update" });
      if (configOf(row).deletionProtection) throw conflict(environmentErrorMessages.deletionProtected);
      if (await hasUnfinishedJobs(tx, row.id)) throw conflict(environmentErrorMessages.environmentBusy);
      const clones = await tx
        .select({ id: environments.id })
        .from(environments)
        .where(eq(environments.clonedFromId, row.id));
      for (const clone of clones) {
        // A preview's work does not hold its source back: the preview goes with it.
        if (previewEnvironments.has(clone.id)) continue;
        if (await hasUnfinishedJobs(tx, clone.id)) throw conflict(environmentErrorMessages.cloneSourceInUse);
      }
      await engine.previews.removeWithSource(tx, row, now);
      return engine.environmentTeardowns.remove(tx, row, now);
    });
    // Its previews' removals, if any, start now.
    engine.runner.wake();
    if (removal === "deleted") return c.body(null, 204);
    const row = await findEnvironment(db, tenantId, id);
    const totals = await serviceTotalsOf(db, [row.id]);
    return sendJson(
      c,
      environmentResponseSchema,
      { environment: toEnvironment(row, totals.get(row.id) ?? noServices) },
      202,
    );
  });

  routes.get("/:environmentId/config", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const row = await findEnvironment(db, tenantId, c.req.param("environmentId"));
    return sendJson(c, environmentConfigResponseSchema, { config: configOf(row) });
  });

  routes.put("/:environmentId/config", permit("environments.configure"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const config = await readJsonBody(c, environmentConfigSchema);
    const saved = await db.transaction(async (tx) => {
      const row = await findEnvironment(tx, tenantId, c.req.param("environmentId"), { lock: "update" });
      await assertSettingsEditable(tx, row.id);
      const [updated] = await tx
        .update(environments)
        .set({ config })
        .where(eq(environments.id, row.id))
        .returning();
      if (!updated) throw new Error("the locked environment was not updated");
      return updated;
    });
    return sendJson(c, environmentConfigResponseSchema, { config: configOf(saved) });
  });

  routes.get("/:environmentId/addons", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const row = await findEnvironment(db, tenantId, c.req.param("environmentId"));
    return sendJson(c, addonListSchema, { addons: addonsOf(row) });
  });

  routes.put("/:environmentId/addons", permit("environments.configure"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { addons } = await readJsonBody(c, addonListSchema);
    assertAddonNames(
      addons.map((addon) => addon.name),
      (index) => `addons.${index}.name`,
    );
    const saved = await db.transaction(async (tx) => {
      const row = await findEnvironment(tx, tenantId, c.req.param("environmentId"), { lock: "update" });
      await assertSettingsEditable(tx, row.id);
      const enabled = new Set(row.enabledAddons);
      for (const addon of addons) {
        if (addon.enabled) enabled.add(addon.name);
        else enabled.delete(addon.name);
      }
      const [updated] = await tx
        .update(environments)
        .set({ enabledAddons: addonNames.filter((name) => enabled.has(name)) })
        .where(eq(environments.id, row.id))
        .returning();
      if (!updated) throw new Error("the locked environment was not updated");
      return updated;
    });
    return sendJson(c, addonListSchema, { addons: addonsOf(saved) });
  });

  documentRoutes(routes, {
    "GET /": {
      query: environmentListQuerySchema,
      responses: { 200: [environmentSummaryListSchema, environmentListSchema] },
    },
    "POST /": { body: createEnvironmentRequestSchema, responses: { 201: environmentResponseSchema } },
    "POST /estimate-cost": { body: estimateCostRequestSchema, responses: { 200: costEstimateSchema } },
    "GET /config": { responses: { 200: environmentConfigListSchema } },
    "GET /:environmentId": { responses: { 200: environmentResponseSchema } },
    "DELETE /:environmentId": { responses: { 202: environmentResponseSchema, 204: null } },
    "GET /:environmentId/config": { responses: { 200: environmentConfigResponseSchema } },
    "PUT /:environmentId/config": {
      body: environmentConfigSchema,
      responses: { 200: environmentConfigResponseSchema },
    },
    "GET /:environmentId/addons": { responses: { 200: addonListSchema } },
    "PUT /:environmentId/addons": { body: addonListSchema, responses: { 200: addonListSchema } },
  });
  return routes;
}
