import { Hono } from "hono";
import * as z from "zod";
import { isRegionOf, type CloudProvider } from "#contract/cloud-providers";
import { cloudProviderOfKind, type ConnectionKind } from "#contract/connections";
import { environmentErrorMessages } from "#contract/environments";
import { apiErrorMessages } from "#contract/errors";
import {
  fastbootErrorMessages,
  fastbootRequestSchema,
  fastbootResponseSchema,
  fastbootStackIds,
  fastbootStackListSchema,
  fastbootStackQuerySchema,
  fastbootStacks,
} from "#contract/fastboot";
import { permissionsFor } from "#contract/permissions";
import { findConnection } from "../connections/records";
import type { Database } from "../db/index";
import { assertRoomForEnvironment } from "../plans/limits";
import { environments } from "../db/schema";
import type { Operations } from "../operations/operations";
import { estimateStack, findFastboot, stackServicesOn, toFastboot } from "../deployments/fastboots";
import { currentUser } from "./auth";
import { permissionDenied } from "./errors";
import { conflictOn, invalidFields, notFound } from "../lib/errors";
import { assertCloudPlacement } from "./environments";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { documentRoutes } from "./documented";

const idSchema = z.guid();

/**
 * /v2/organizations/:tenantId/fastboot (issue 17, decision 038): the starter stacks with their estimates, a
 * fastboot (a new environment, its services as drafts and the job launching them, in one transaction) and its
 * progress.
 */
export function fastbootRoutes({ db, engine }: { db: Database; engine: Operations }) {
  const routes = new Hono<OrganizationEnv>();

  routes.get("/fastboot/stacks", permit("organization.view"), async (c) => {
    const { cloudProvider, region } = readQuery(c, fastbootStackQuerySchema);
    if (!isRegionOf(cloudProvider, region)) {
      throw invalidFields({ region: [environmentErrorMessages.regionNotInCatalogue(cloudProvider)] });
    }
    return sendJson(c, fastbootStackListSchema, {
      cloudProvider,
      region,
      stacks: fastbootStackIds.map((id) => {
        const stack = fastbootStacks[id];
        return {
          id,
          name: stack.name,
          description: stack.description,
          creates: stackServicesOn(id, cloudProvider).map(({ name, serviceType, description }) => ({
            name,
            serviceType,
            description,
          })),
          estimate: estimateStack(engine.driver, id, { cloudProvider, region }),
        };
      }),
    });
  });

  /**
   * Creating the environment is what the route declares; the fastboot also creates and launches services in it,
   * which the caller's role must allow on the whole organization (the new environment is in no narrower grant).
   */
  routes.post("/fastboot", permit("environments.create"), async (c) => {
    const organization = currentOrganization(c);
    const held = permissionsFor(organization.grants);
    for (const needed of ["services.configure", "services.deploy"] as const) {
      if (!held.has(needed)) throw permissionDenied(needed);
    }
    const request = await readJsonBody(c, fastbootRequestSchema);
    let cloudProvider: CloudProvider = "AWS";
    if (request.cloudConnectionId) {
      const connection = await findConnection(db, organization.organizationId, request.cloudConnectionId);
      const provider = connection && cloudProviderOfKind[connection.kind as ConnectionKind];
      if (!provider) {
        throw invalidFields({ cloudConnectionId: ["Choose a cloud account of this organization."] });
      }
      cloudProvider = provider;
    }
    await assertCloudPlacement(db, organization.tenantId, { cloudProvider, region: request.region });

    const now = engine.now();
    const actor = currentUser(c).name;
    const job = await db.transaction(async (tx) => {
      await assertRoomForEnvironment(tx, organization.tenantId);
      const [environment] = await tx
        .insert(environments)
        .values({
          tenantId: organization.tenantId,
          name: request.name,
          cloudProvider,
          region: request.region,
          cloudConnectionId: request.cloudConnectionId ?? null,
          createdAt: now,
        })
        .onConflictDoNothing({ target: [environments.tenantId, environments.name] })
        .returning();
      if (!environment) throw conflictOn("name", apiErrorMessages.environmentNameTaken);
      const created = await engine.fastboots.create(tx, { environment, stack: request.stack, actor }, now);
      return { job: created, environment };
    });
    engine.runner.wake();
    return sendJson(c, fastbootResponseSchema, { fastboot: await toFastboot(db, job) }, 201);
  });

  routes.get("/fastboot/:fastbootId", permit("organization.view"), async (c) => {
    const id = c.req.param("fastbootId");
    const found = idSchema.safeParse(id).success
      ? await findFastboot(db, currentOrganization(c).tenantId, id)
      : undefined;
    if (!found) throw notFound(fastbootErrorMessages.notFound);
    return sendJson(c, fastbootResponseSchema, { fastboot: await toFastboot(db, found) });
  });

  documentRoutes(routes, {
    "GET /fastboot/stacks": { query: fastbootStackQuerySchema, responses: { 200: fastbootStackListSchema } },
    "POST /fastboot": { body: fastbootRequestSchema, responses: { 201: fastbootResponseSchema } },
    "GET /fastboot/:fastbootId": { responses: { 200: fastbootResponseSchema } },
  });
  return routes;
}
