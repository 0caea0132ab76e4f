import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { isRegionOf, type CloudProvider } from "#contract/cloud-providers";
import {
  cloneEnvironmentRequestSchema,
  cloneStateSchema,
  environmentErrorMessages,
  environmentResponseSchema,
} from "#contract/environments";
import { apiErrorMessages } from "#contract/errors";
import { messages } from "#contract/validation";
import type { Database } from "../db/index";
import { assertRoomForEnvironment } from "../plans/limits";
import { environments } from "../db/schema";
import { cloneJobOf, cloneResourcesOf, cloneStateOf } from "../deployments/cloning";
import type { Operations } from "../operations/operations";
import { toEnvironment } from "../environments/records";
import { noServices, serviceTotalsOf } from "../environments/service-totals";
import { conflict, conflictOn, invalidFields } from "../lib/errors";
import { assertCloudPlacement, findEnvironment, hasUnfinishedJobs } from "./environments";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { unlessUnchanged } from "./unchanged";
import { permit } from "./permissions";
import { documentRoutes } from "./documented";

/**
 * /tenant/:tenantId/workspace/:environmentId/clone...: cloning an environment (SPEC §4, §7) through the engine's
 * clone jobs. Writes happen in one transaction with the job they create or move, and wake the runner afterwards.
 */
export function cloningRoutes({ db, engine }: { db: Database; engine: Operations }) {
  const routes = new Hono<OrganizationEnv>();

  /** The new environment's placement: the request's, else the source's; a region must fit the provider. */
  function placementOf(
    request: { cloudProvider?: CloudProvider; region?: string },
    source: { cloudProvider: string; region: string },
  ): { cloudProvider: CloudProvider; region: string } {
    const cloudProvider = request.cloudProvider ?? (source.cloudProvider as CloudProvider);
    const region = request.region?.trim() || undefined;
    if (region) return { cloudProvider, region };
    // The source's region carries over when it belongs to the chosen provider.
    if (isRegionOf(cloudProvider, source.region)) return { cloudProvider, region: source.region };
    throw invalidFields({ region: [messages.required("Region")] });
  }

  routes.post(
    "/:environmentId/clone",
    permit("environments.create", { scope: "organization" }),
    async (c) => {
      const { tenantId } = currentOrganization(c);
      const request = await readJsonBody(c, cloneEnvironmentRequestSchema);
      const sourceId = c.req.param("environmentId");
      const preview = await findEnvironment(db, tenantId, sourceId);
      const placement = placementOf(request, preview);
      await assertCloudPlacement(db, tenantId, placement);

      const now = engine.now();
      const created = await db.transaction(async (tx) => {
        // Shared: the source cannot be deleted until this commits, and DELETE then sees the new clone's job.
        const source = await findEnvironment(tx, tenantId, sourceId, { lock: "share" });
        // A source with work ahead (its own clone still copying, say) has no settled settings to copy yet.
        if (await hasUnfinishedJobs(tx, source.id)) throw conflict(environmentErrorMessages.environmentBusy);
        await assertRoomForEnvironment(tx, tenantId);
        const [target] = await tx
          .insert(environments)
          .values({
            tenantId,
            name: request.name,
            cloningStage: "STAGE_IN_PROGRESS",
            ...placement,
            // The source's cloud account carries over while the clone stays with its provider.
            cloudConnectionId:
              placement.cloudProvider === source.cloudProvider ? source.cloudConnectionId : null,
            clonedFromId: source.id,
            clonedFromName: source.name,
            createdAt: now,
          })
          .onConflictDoNothing({ target: [environments.tenantId, environments.name] })
          .returning();
        if (!target) throw conflictOn("name", apiErrorMessages.environmentNameTaken);
        await engine.cloning.enqueue(tx, { source, target }, now);
        return target;
      });
      engine.runner.wake();
      return sendJson(c, environmentResponseSchema, { environment: toEnvironment(created) }, 201);
    },
  );

  routes.get("/:environmentId/clone/state", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const environment = await findEnvironment(db, tenantId, c.req.param("environmentId"));
    // Its job and services are the environment's: its revision counts their changes (decision 065).
    return unlessUnchanged(c, db, environment.id, async () => {
      const job = await cloneJobOf(db, environment.id);
      return sendJson(c, cloneStateSchema, cloneStateOf(job, await cloneResourcesOf(db, environment.id)));
    });
  });

  routes.post("/:environmentId/clone/launch/resources", permit("services.deploy"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const environment = await findEnvironment(db, tenantId, c.req.param("environmentId"));
    const moved = await db.transaction(async (tx) => {
      const job = await cloneJobOf(tx, environment.id, { lock: true });
      const launched = job ? await engine.cloning.launchResources(tx, job, engine.now()) : null;
      if (!launched) throw conflict(environmentErrorMessages.cloneNotWaitingForLaunch);
      return launched;
    });
    engine.runner.wake();
    return sendJson(c, cloneStateSchema, cloneStateOf(moved, await cloneResourcesOf(db, environment.id)));
  });

  routes.put("/:environmentId/clone/exit", permit("environments.configure"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { id } = await findEnvironment(db, tenantId, c.req.param("environmentId"));
    const exited = await db.transaction(async (tx) => {
      // The job before its environment: the order the engine locks them in.
      const job = await cloneJobOf(tx, id, { lock: true });
      const environment = await findEnvironment(tx, tenantId, id, { lock: "update" });
      if (!job || environment.cloningStage !== "STAGE_IN_PROGRESS") {
        throw conflict(environmentErrorMessages.notCloning);
      }
      const stage = await engine.cloning.exit(tx, job, engine.now());
      const [updated] = await tx
        .update(environments)
        .set({ cloningStage: stage })
        .where(eq(environments.id, environment.id))
        .returning();
      if (!updated) throw new Error("the locked environment was not updated");
      return updated;
    });
    const totals = await serviceTotalsOf(db, [exited.id]);
    return sendJson(c, environmentResponseSchema, {
      environment: toEnvironment(exited, totals.get(exited.id) ?? noServices),
    });
  });

  documentRoutes(routes, {
    "POST /:environmentId/clone": {
      body: cloneEnvironmentRequestSchema,
      responses: { 201: environmentResponseSchema },
    },
    "GET /:environmentId/clone/state": { responses: { 200: cloneStateSchema } },
    "POST /:environmentId/clone/launch/resources": { responses: { 200: cloneStateSchema } },
    "PUT /:environmentId/clone/exit": { responses: { 200: environmentResponseSchema } },
  });
  return routes;
}
