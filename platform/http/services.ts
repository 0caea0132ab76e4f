import { Hono, type Context } from "hono";
import * as z from "zod";
import {
  MAX_RETRIES,
  SERVERLESS_UPLOAD_BODY_MAX_BYTES,
  SERVERLESS_UPLOAD_MAX_BYTES,
  noContainerFormMessage,
  type ServiceType,
} from "#contract/service-catalogue";
import {
  attributeResponseSchema,
  costEstimateSchema,
  createResourceRequestSchema,
  defaultServiceSettings,
  estimateResourceCostRequestSchema,
  resourceListQuerySchema,
  resourceListSchema,
  resourceResponseSchema,
  retryResponseSchema,
  serverlessUploadResponseSchema,
  serviceErrorMessages,
  updateResourceRequestSchema,
  type ServiceSettings,
} from "#contract/services";
import { serverlessConfigSchema, serviceConfigSchemas } from "#contract/service-configs";
import { apiErrorCodes } from "#contract/errors";
import type { ApplicationConfig } from "#contract/application-config";
import {
  applicationConfigSchema,
  applicationErrorMessages,
  applicationVersionListSchema,
  applicationVersionResponseSchema,
  rollbackResponseSchema,
} from "#contract/applications";
import type { CloudProvider } from "#contract/cloud-providers";
import { NUL_CHARACTER_MESSAGE } from "#contract/validation";
import type { Database } from "../db/index";
import { activeDeployOf } from "../deployments/deploys";
import { deployProgressOf } from "../deployments/progress";
import type { Operations } from "../operations/operations";
import { SecretDecryptionError, type SecretCipher } from "../lib/cipher";
import {
  applicationConfigOf,
  applicationConfigWithSettings,
  applicationSettingsOf,
} from "../services/application-config";
import { applicationReferenceErrors } from "../applications/references";
import { recordRelease, versionDiff, versionsOf } from "../applications/versions";
import { serviceDiff } from "../lib/diff";
import { recordAction } from "../services/history";
import {
  attributesContextOf,
  configOf,
  driverResourceOf,
  settingsOf,
  stageOf,
  toResource,
  toResourceSummary,
  type ResourceRow,
} from "../services/records";
import {
  findService,
  hasUpload,
  listServices,
  releaseOf,
  serviceWithHistory,
  storeUpload,
  updateService,
} from "../services/queries";
import { createService } from "../services/services";
import {
  applyModeOf,
  cancelableStages,
  deleteBlockedStages,
  editBlocked,
  stageAfterDraftSaved,
} from "../services/stages";
import { currentUser } from "./auth";
import { HttpError } from "./errors";
import { conflict, conflictOn, invalidFields, notFound } from "../lib/errors";
import { findEnvironment } from "./environments";
import type { EnvironmentRow } from "../environments/records";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { permit } from "./permissions";
import { unlessUnchanged } from "./unchanged";
import { environmentErrorMessages } from "#contract/environments";
import {
  changePlanRequestSchema,
  changePlanResponseSchema,
  launchDraftRequestSchema,
} from "#contract/change-plans";
import { assertConfirmed, changePlanOf } from "../deployments/change-plans";
import { documentRoutes } from "./documented";

const idSchema = z.guid();

/** The estimate needs no archive: a serverless function costs the same whatever its code. */
const estimateConfigSchemas = {
  ...serviceConfigSchemas,
  serverless: serverlessConfigSchema.extend({ uploadId: z.string().optional() }),
};

/**
 * The type's configuration checked, errors keyed `config.<field>` like the rest of the body's. An application's is
 * checked in full (its Helm values' YAML too); one sent in the shape before issue 15 (`{ image }`) is read with the
 * settings sent beside it.
 */
function checkConfig(
  serviceType: ServiceType,
  config: Record<string, unknown>,
  { forEstimate = false, settings }: { forEstimate?: boolean; settings?: ServiceSettings } = {},
): Record<string, unknown> {
  const schema =
    serviceType === "application"
      ? applicationConfigSchema
      : (forEstimate ? estimateConfigSchemas : serviceConfigSchemas)[serviceType];
  const given =
    serviceType === "application" ? applicationConfigOf(config, settings ?? defaultServiceSettings) : config;
  const result = schema.safeParse(given);
  if (result.success) return result.data as Record<string, unknown>;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    (fieldErrors[["config", ...issue.path.map(String)].join(".")] ??= []).push(issue.message);
  }
  throw invalidFields(fieldErrors);
}

/** A serverless function's archive must have been uploaded to the same environment. */
async function assertUploadIn(tx: Database, environmentId: string, config: Record<string, unknown>) {
  const uploadId = config.uploadId;
  const missing = () => invalidFields({ "config.uploadId": [serviceErrorMessages.uploadNotFound] });
  if (typeof uploadId !== "string" || !idSchema.safeParse(uploadId).success) throw missing();
  if (!(await hasUpload(tx, environmentId, uploadId))) throw missing();
}

/**
 * /v2/organizations/:tenantId/environments/:environmentId/infrastructure: the environment's services (SPEC §7).
 * Every write validates its body, then runs in one transaction that locks the service's deployment job before the
 * service (the order the engine locks them in), and wakes the engine once committed. Secret attribute values
 * leave only through GET attributes/{attribute}.
 */
export function serviceRoutes({
  db,
  engine,
  secrets,
}: {
  db: Database;
  engine: Operations;
  secrets: SecretCipher;
}) {
  const routes = new Hono<OrganizationEnv>();
  const { driver, deploys } = engine;

  const environmentOf = (c: Context<OrganizationEnv>, tx: Database = db) =>
    findEnvironment(tx, currentOrganization(c).tenantId, c.req.param("environmentId") ?? "");

  /** An environment whose services are being torn down for its deletion takes no new work. */
  function writable(environment: EnvironmentRow): EnvironmentRow {
    if (environment.deletionStage === "STAGE_IN_PROGRESS")
      throw conflict(environmentErrorMessages.beingDeleted);
    return environment;
  }

  async function findResource(
    tx: Database,
    environmentId: string,
    resourceId: string,
    { lock = false }: { lock?: boolean } = {},
  ): Promise<ResourceRow> {
    if (!idSchema.safeParse(resourceId).success) throw notFound(serviceErrorMessages.notFound);
    return findService(tx, environmentId, resourceId, { lock });
  }

  /** The environment, the service's running deployment and the service, locked in the engine's order. */
  async function lockForWrite(c: Context<OrganizationEnv>, tx: Database) {
    const environment = writable(await environmentOf(c, tx));
    const resourceId = c.req.param("resourceId") ?? "";
    if (!idSchema.safeParse(resourceId).success) throw notFound(serviceErrorMessages.notFound);
    const job = await activeDeployOf(tx, resourceId, { lock: true });
    const resource = await findResource(tx, environment.id, resourceId, { lock: true });
    return { environment, job, resource };
  }

  /** The names of the secret attributes the service's cloud answers for it (AWS's differ from the simulated). */
  async function secretAttributeNamesOf(
    tx: Database,
    row: ResourceRow,
    environment: EnvironmentRow,
  ): Promise<string[]> {
    const cloud = await deploys.driverOf(tx, environment);
    return [...cloud.secretAttributeNames(driverResourceOf(row, environment))];
  }

  async function viewOf(tx: Database, resourceId: string) {
    const { row, environment, history } = await serviceWithHistory(tx, resourceId);
    return toResource(
      row,
      environment,
      history,
      await secretAttributeNamesOf(tx, row, environment),
      await deployProgressOf(tx, row.id),
    );
  }

  /**
   * Checks a PUT body against the service: configuration (field errors first), then version, then stage. A plan
   * (`forPlan`) checks only the configuration: it saves nothing.
   */
  async function checkedChange(
    c: Context<OrganizationEnv>,
    tx: Database,
    environment: EnvironmentRow,
    resource: ResourceRow,
    body: z.output<typeof updateResourceRequestSchema>,
    { forPlan = false }: { forPlan?: boolean } = {},
  ) {
    const serviceType = resource.serviceType as ServiceType;
    if (serviceType === "application")
      return checkedApplicationChange(c, tx, environment, resource, body, { forPlan });
    const config = body.config ? checkConfig(serviceType, body.config) : undefined;
    if (config && serviceType === "serverless") await assertUploadIn(tx, resource.environmentId, config);
    if (!forPlan) assertEditable(resource, body.version);
    return { config, settings: body.settings };
  }

  function assertEditable(resource: ResourceRow, version: number) {
    if (version !== resource.version) throw conflict(serviceErrorMessages.staleVersion);
    if (editBlocked(stageOf(resource))) throw conflict(serviceErrorMessages.deploymentRunning);
  }

  /**
   * How deploying `after` over the service's current configuration lands in its cloud; a deployment that deletes
   * data needs `confirmation` (the service's name), else it is refused with the plan's words.
   */
  async function planOf(
    tx: Database,
    environment: EnvironmentRow,
    resource: ResourceRow,
    after: Pick<ResourceRow, "config" | "settings">,
  ) {
    const cloud = await deploys.driverOf(tx, environment);
    return changePlanOf(
      cloud,
      driverResourceOf(resource, environment),
      driverResourceOf({ ...resource, ...after }, environment),
      { deployed: resource.deployedAt !== null },
    );
  }

  /**
   * An application's change: its configuration is the truth, so a settings change is folded into it (and checked as
   * one), and the settings are derived from the configuration that results.
   */
  async function checkedApplicationChange(
    c: Context<OrganizationEnv>,
    tx: Database,
    environment: EnvironmentRow,
    resource: ResourceRow,
    body: z.output<typeof updateResourceRequestSchema>,
    { forPlan }: { forPlan: boolean },
  ) {
    if (!body.config && !body.settings) return { config: undefined, settings: undefined };
    const currentSettings = (resource.draft?.settings as ServiceSettings | undefined) ?? settingsOf(resource);
    const settings = body.settings ?? currentSettings;
    const base = body.config
      ? checkConfig("application", body.config, { settings })
      : (checkConfig("application", resource.draft?.config ?? configOf(resource), {
          settings: currentSettings,
        }) as ApplicationConfig);
    const config = body.settings
      ? checkConfig("application", applicationConfigWithSettings(base as ApplicationConfig, body.settings))
      : base;
    await assertApplicationReferences(c, tx, environment, config as ApplicationConfig, resource.name);
    if (!forPlan) assertEditable(resource, body.version);
    return { config, settings: applicationSettingsOf(config as ApplicationConfig, settings) };
  }

  async function assertApplicationReferences(
    c: Context<OrganizationEnv>,
    tx: Database,
    environment: EnvironmentRow,
    config: ApplicationConfig,
    serviceName: string,
  ) {
    const errors = await applicationReferenceErrors(tx, {
      organizationId: currentOrganization(c).organizationId,
      environment,
      config,
      serviceName,
      driverOf: () => deploys.driverOf(tx, environment),
    });
    if (Object.keys(errors).length) throw invalidFields(errors);
  }

  routes.get("/", permit("organization.view"), async (c) => {
    const query = readQuery(c, resourceListQuerySchema);
    const environment = await environmentOf(c);
    return unlessUnchanged(c, db, environment.id, async () => {
      const { rows, total, failedSince } = await listServices(db, environment.id, query);
      return sendJson(c, resourceListSchema, {
        infrastructure: rows.map((row) => toResourceSummary(row, environment, failedSince.get(row.id))),
        total,
        page: query.page,
        pageSize: query.pageSize,
      });
    });
  });

  routes.post("/", permit("services.configure"), async (c) => {
    const body = await readJsonBody(c, createResourceRequestSchema);
    const config = checkConfig(body.serviceType, body.config, { settings: body.settings });
    const settings: ServiceSettings =
      body.serviceType === "application"
        ? applicationSettingsOf(config as ApplicationConfig, body.settings ?? defaultServiceSettings)
        : (body.settings ?? defaultServiceSettings);
    const actor = currentUser(c).name;
    const now = engine.now();
    const id = await db.transaction(async (tx) => {
      const environment = await findEnvironment(
        tx,
        currentOrganization(c).tenantId,
        c.req.param("environmentId") ?? "",
        {
          lock: "share",
        },
      );
      writable(environment);
      // Said, not pretended: a container host runs only what has a container form.
      const noContainerForm =
        environment.cloudProvider === "CONTAINERS" ? noContainerFormMessage(body.serviceType) : null;
      if (noContainerForm) throw invalidFields({ serviceType: [noContainerForm] });
      if (body.serviceType === "serverless") await assertUploadIn(tx, environment.id, config);
      if (body.serviceType === "application") {
        await assertApplicationReferences(c, tx, environment, config as ApplicationConfig, body.name);
      }
      const created = await createService(
        tx,
        {
          environment,
          serviceType: body.serviceType,
          name: body.name,
          config,
          settings,
          launch: body.launch,
          actor,
        },
        now,
      );
      if (!created) throw conflictOn("name", serviceErrorMessages.nameTaken);
      if (body.launch) {
        await deploys.enqueue(
          tx,
          {
            resource: created.resource,
            environment,
            historyId: created.history.id,
            action: "Create",
            deployNumber: 1,
          },
          now,
        );
      }
      return created.resource.id;
    });
    engine.runner.wake();
    return sendJson(c, resourceResponseSchema, { resource: await viewOf(db, id) }, 201);
  });

  // Registered before the `/:resourceId` routes, which would otherwise see these names as ids.
  routes.post("/estimate-cost", permit("organization.view"), async (c) => {
    const body = await readJsonBody(c, estimateResourceCostRequestSchema);
    const config = checkConfig(body.serviceType, body.config, { forEstimate: true, settings: body.settings });
    const environment = await environmentOf(c);
    const settings = body.settings ?? defaultServiceSettings;
    return sendJson(
      c,
      costEstimateSchema,
      driver.price({
        serviceType: body.serviceType,
        config,
        settings:
          body.serviceType === "application"
            ? applicationSettingsOf(config as ApplicationConfig, settings)
            : settings,
        cloudProvider: environment.cloudProvider as CloudProvider,
        region: environment.region,
      }),
    );
  });

  routes.post("/serverless/upload", permit("services.configure"), async (c) => {
    const environment = await environmentOf(c);
    const tooLarge = () =>
      new HttpError(413, {
        message: serviceErrorMessages.uploadTooLarge,
        code: apiErrorCodes.validationFailed,
      });
    // Refused before reading a body that cannot fit (the multipart envelope adds a little to the file).
    if (Number(c.req.header("Content-Length") ?? 0) > SERVERLESS_UPLOAD_BODY_MAX_BYTES) throw tooLarge();
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw invalidFields({ file: [serviceErrorMessages.uploadMissing] });
    }
    const file = form.file;
    if (!(file instanceof File) || file.size === 0)
      throw invalidFields({ file: [serviceErrorMessages.uploadMissing] });
    if (file.size > SERVERLESS_UPLOAD_MAX_BYTES) throw tooLarge();
    if (file.name.includes("\u0000")) throw invalidFields({ file: [NUL_CHARACTER_MESSAGE] });
    const bytes = Buffer.from(await file.arrayBuffer());
    if (!bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
      throw invalidFields({ file: [serviceErrorMessages.uploadNotZip] });
    }
    const upload = await db.transaction((tx) =>
      storeUpload(tx, {
        environmentId: environment.id,
        fileName: file.name || "function.zip",
        bytes,
        createdAt: engine.now(),
      }),
    );
    return sendJson(
      c,
      serverlessUploadResponseSchema,
      {
        upload: {
          id: upload.id,
          fileName: upload.fileName,
          sizeBytes: upload.sizeBytes,
          sha256: upload.sha256,
          createdAt: upload.createdAt.toISOString(),
        },
      },
      201,
    );
  });

  routes.get("/:resourceId", permit("organization.view"), async (c) => {
    const environment = await environmentOf(c);
    const row = await findResource(db, environment.id, c.req.param("resourceId"));
    return unlessUnchanged(c, db, environment.id, async () =>
      sendJson(c, resourceResponseSchema, { resource: await viewOf(db, row.id) }),
    );
  });

  /** Applies at once: saves a never-launched service, syncs a settings-only change, redeploys anything else. */
  routes.put("/:resourceId", permit("services.configure"), async (c) => {
    const body = await readJsonBody(c, updateResourceRequestSchema);
    const actor = currentUser(c).name;
    const now = engine.now();
    const id = await db.transaction(async (tx) => {
      const { environment, resource } = await lockForWrite(c, tx);
      const change = await checkedChange(c, tx, environment, resource, body);
      const before = { config: configOf(resource), settings: settingsOf(resource) };
      const after = { config: change.config ?? before.config, settings: change.settings ?? before.settings };
      const diff = serviceDiff(before, after, resource);
      if (!diff.length) return resource.id;
      const saved = await updateService(tx, resource.id, { ...after, version: resource.version + 1 }, now);
      const mode = applyModeOf({
        stage: stageOf(resource),
        deployed: resource.deployedAt !== null,
        configChanged: diff.some((entry) => entry.path.startsWith("config.")),
      });
      if (mode !== "save") {
        const plan = await planOf(tx, environment, resource, after);
        assertConfirmed(plan, driverResourceOf(resource, environment), body.confirmation);
      }
      if (mode === "save") {
        await recordAction(tx, { resourceId: resource.id, action: "Save", actor, diff }, now);
      } else {
        await deploys.launch(
          tx,
          {
            resource: saved,
            environment,
            action: mode === "sync" ? "Sync" : "Relaunch",
            actor,
            diff,
            previous: before,
            sync: mode === "sync",
          },
          now,
        );
      }
      return resource.id;
    });
    engine.runner.wake();
    return sendJson(c, resourceResponseSchema, { resource: await viewOf(db, id) });
  });

  /**
   * The plan of a proposed change (parts left out stay as they are) over the current configuration, saving
   * nothing: what the cloud updates in place, what it replaces and what that loses (contract/change-plans.ts).
   */
  routes.post("/:resourceId/plan", permit("services.configure"), async (c) => {
    const body = await readJsonBody(c, changePlanRequestSchema);
    const environment = await environmentOf(c);
    const resource = await findResource(db, environment.id, c.req.param("resourceId"));
    const change = await checkedChange(
      c,
      db,
      environment,
      resource,
      { ...body, version: resource.version },
      { forPlan: true },
    );
    const after = {
      config: change.config ?? configOf(resource),
      settings: change.settings ?? settingsOf(resource),
    };
    return sendJson(c, changePlanResponseSchema, { plan: await planOf(db, environment, resource, after) });
  });

  /** Saves changes for a later launch (Save); parts left out keep the draft's, or the current, values. */
  routes.put("/:resourceId/draft", permit("services.configure"), async (c) => {
    const body = await readJsonBody(c, updateResourceRequestSchema);
    const actor = currentUser(c).name;
    const now = engine.now();
    const id = await db.transaction(async (tx) => {
      const { environment, resource } = await lockForWrite(c, tx);
      const change = await checkedChange(c, tx, environment, resource, body);
      const current = { config: configOf(resource), settings: settingsOf(resource) };
      const draft = {
        config: change.config ?? resource.draft?.config ?? current.config,
        settings:
          change.settings ?? (resource.draft?.settings as ServiceSettings | undefined) ?? current.settings,
      };
      await updateService(
        tx,
        resource.id,
        { draft, version: resource.version + 1, stage: stageAfterDraftSaved(stageOf(resource)) },
        now,
      );
      await recordAction(
        tx,
        { resourceId: resource.id, action: "Save", actor, diff: serviceDiff(current, draft, resource) },
        now,
      );
      return resource.id;
    });
    return sendJson(c, resourceResponseSchema, { resource: await viewOf(db, id) });
  });

  /**
   * Launches the draft (Provision) or, with none, redeploys the current configuration (Relaunch). The body may be
   * empty; a draft whose deployment deletes data needs the service's name as `confirmation`.
   */
  routes.post("/:resourceId/draft/launch", permit("services.deploy"), async (c) => {
    const body = (await c.req.text()) ? await readJsonBody(c, launchDraftRequestSchema) : {};
    const actor = currentUser(c).name;
    const now = engine.now();
    const id = await db.transaction(async (tx) => {
      const { environment, resource } = await lockForWrite(c, tx);
      if (editBlocked(stageOf(resource))) throw conflict(serviceErrorMessages.deploymentRunning);
      const current = { config: configOf(resource), settings: settingsOf(resource) };
      const launched = resource.draft ?? current;
      const plan = await planOf(tx, environment, resource, launched);
      assertConfirmed(plan, driverResourceOf(resource, environment), body.confirmation);
      const saved = await updateService(
        tx,
        resource.id,
        { ...launched, draft: null, version: resource.version + 1 },
        now,
      );
      await deploys.launch(
        tx,
        {
          resource: saved,
          environment,
          action: resource.draft ? "Provision" : "Relaunch",
          actor,
          diff: serviceDiff(current, launched, resource),
          previous: current,
        },
        now,
      );
      return resource.id;
    });
    engine.runner.wake();
    return sendJson(c, resourceResponseSchema, { resource: await viewOf(db, id) });
  });

  /** Redeploys a failed service as it is (Relaunch), at most MAX_RETRIES times since its last success. */
  routes.post("/:resourceId/retry", permit("services.deploy"), async (c) => {
    const actor = currentUser(c).name;
    const now = engine.now();
    await db.transaction(async (tx) => {
      const { environment, resource } = await lockForWrite(c, tx);
      if (stageOf(resource) !== "STAGE_FAILED") throw conflict(serviceErrorMessages.notFailed);
      if (resource.retries >= MAX_RETRIES) throw conflict(serviceErrorMessages.retryLimit);
      const saved = await updateService(
        tx,
        resource.id,
        { retries: resource.retries + 1, version: resource.version + 1 },
        now,
      );
      await deploys.launch(tx, { resource: saved, environment, action: "Relaunch", actor, diff: [] }, now);
    });
    engine.runner.wake();
    return sendJson(c, retryResponseSchema, { success: true });
  });

  routes.post("/:resourceId/cancel", permit("services.deploy"), async (c) => {
    const now = engine.now();
    const id = await db.transaction(async (tx) => {
      const { job, resource } = await lockForWrite(c, tx);
      if (!job || !cancelableStages.includes(stageOf(resource)) || job.state === "CANCELING") {
        throw conflict(serviceErrorMessages.notCancelable);
      }
      await updateService(tx, resource.id, { version: resource.version + 1 }, now);
      await deploys.cancel(tx, job, now);
      return resource.id;
    });
    engine.runner.wake();
    return sendJson(c, resourceResponseSchema, { resource: await viewOf(db, id) });
  });

  /**
   * Removes the service with its history and logs (a deployment waiting for the network is abandoned): at once
   * (204), or once its cloud tore down what it created there (202 with the service, in progress meanwhile).
   */
  routes.delete("/:resourceId", permit("services.delete"), async (c) => {
    const now = engine.now();
    const removal = await db.transaction(async (tx) => {
      const { environment, job, resource } = await lockForWrite(c, tx);
      if (deleteBlockedStages.includes(stageOf(resource)))
        throw conflict(serviceErrorMessages.deploymentRunning);
      if (job) await deploys.abandon(tx, job, now);
      return engine.teardowns.remove(tx, { resource, environment }, now);
    });
    engine.runner.wake();
    if (removal === "deleted") return c.body(null, 204);
    return sendJson(
      c,
      resourceResponseSchema,
      { resource: await viewOf(db, c.req.param("resourceId")) },
      202,
    );
  });

  // -------------------------------------------------------------------------------------------------------------
  // An application's versions and roll back (issue 15, contract/applications.ts)

  async function applicationOf(c: Context<OrganizationEnv>, tx: Database = db) {
    const environment = await environmentOf(c, tx);
    const row = await findResource(tx, environment.id, c.req.param("resourceId") ?? "");
    if (row.serviceType !== "application") throw notFound(applicationErrorMessages.notAnApplication);
    return row;
  }

  async function versionOf(tx: Database, resourceId: string, versionId: string) {
    const versions = await versionsOf(tx, resourceId);
    const version = versions.find((candidate) => candidate.id === versionId);
    if (!version) throw notFound(applicationErrorMessages.versionNotFound);
    const running = versions.find((candidate) => candidate.running);
    return { version, running, diff: versionDiff(running, version) };
  }

  routes.get("/:resourceId/versions", permit("organization.view"), async (c) => {
    const row = await applicationOf(c);
    return sendJson(c, applicationVersionListSchema, { versions: await versionsOf(db, row.id) });
  });

  routes.get("/:resourceId/versions/:versionId", permit("organization.view"), async (c) => {
    const row = await applicationOf(c);
    const { version, diff } = await versionOf(db, row.id, c.req.param("versionId"));
    return sendJson(c, applicationVersionResponseSchema, { version, diff });
  });

  /** Deploys exactly the version's configuration and image digest again (Rollback), as any deployment. */
  routes.post("/:resourceId/versions/:versionId/rollback", permit("services.deploy"), async (c) => {
    const actor = currentUser(c).name;
    const now = engine.now();
    const answer = await db.transaction(async (tx) => {
      const { environment, resource } = await lockForWrite(c, tx);
      if (resource.serviceType !== "application") throw notFound(applicationErrorMessages.notAnApplication);
      const { version, diff } = await versionOf(tx, resource.id, c.req.param("versionId"));
      const release = await releaseOf(tx, version.id);
      if (!release || version.outcome !== "STAGE_COMPLETED" || !version.imageDigest) {
        throw conflict(applicationErrorMessages.neverDeployed);
      }
      if (version.running) throw conflict(applicationErrorMessages.alreadyRunning);
      if (editBlocked(stageOf(resource))) throw conflict(serviceErrorMessages.deploymentRunning);
      const current = { config: configOf(resource), settings: settingsOf(resource) };
      const saved = await updateService(
        tx,
        resource.id,
        {
          config: release.config,
          settings: release.settings,
          draft: null,
          version: resource.version + 1,
          // The source step pulls this digest instead of building or looking the tag up again.
          cloudState: {
            ...resource.cloudState,
            pinnedImage: version.image ?? "",
            pinnedDigest: version.imageDigest,
          },
        },
        now,
      );
      const queued = await deploys.launch(
        tx,
        {
          resource: saved,
          environment,
          action: "Rollback",
          actor,
          diff: serviceDiff(current, { config: release.config, settings: release.settings }, resource),
        },
        now,
      );
      const historyId = String((queued.job.payload as { historyId?: unknown }).historyId);
      await recordRelease(tx, historyId, saved, version.id);
      return { historyId, stage: queued.stage, diff };
    });
    engine.runner.wake();
    return sendJson(c, rollbackResponseSchema, answer, 202);
  });

  routes.get("/:resourceId/attributes/:attribute", permit("secrets.reveal"), async (c) => {
    const environment = await environmentOf(c);
    const row = await findResource(db, environment.id, c.req.param("resourceId"));
    const attribute = c.req.param("attribute");
    if (!(await secretAttributeNamesOf(db, row, environment)).includes(attribute)) {
      throw notFound(serviceErrorMessages.attributeNotFound);
    }
    if (!row.sealedAttributes) throw notFound(serviceErrorMessages.attributeNotReady);
    let values: Record<string, unknown>;
    try {
      values = JSON.parse(secrets.decrypt(row.sealedAttributes, attributesContextOf(row.id))) as Record<
        string,
        unknown
      >;
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      throw new HttpError(500, { message: "The service's secrets could not be read" });
    }
    const value = values[attribute];
    if (typeof value !== "string") throw notFound(serviceErrorMessages.attributeNotFound);
    return sendJson(c, attributeResponseSchema, { attribute, value });
  });

  documentRoutes(routes, {
    "GET /": { query: resourceListQuerySchema, responses: { 200: resourceListSchema } },
    "POST /": { body: createResourceRequestSchema, responses: { 201: resourceResponseSchema } },
    "POST /estimate-cost": {
      body: estimateResourceCostRequestSchema,
      responses: { 200: costEstimateSchema },
    },
    "POST /serverless/upload": { responses: { 201: serverlessUploadResponseSchema } },
    "GET /:resourceId": { responses: { 200: resourceResponseSchema } },
    "PUT /:resourceId": { body: updateResourceRequestSchema, responses: { 200: resourceResponseSchema } },
    "POST /:resourceId/plan": { body: changePlanRequestSchema, responses: { 200: changePlanResponseSchema } },
    "PUT /:resourceId/draft": {
      body: updateResourceRequestSchema,
      responses: { 200: resourceResponseSchema },
    },
    "POST /:resourceId/draft/launch": {
      body: launchDraftRequestSchema,
      responses: { 200: resourceResponseSchema },
    },
    "POST /:resourceId/retry": { responses: { 200: retryResponseSchema } },
    "POST /:resourceId/cancel": { responses: { 200: resourceResponseSchema } },
    "DELETE /:resourceId": { responses: { 202: resourceResponseSchema, 204: null } },
    "GET /:resourceId/versions": { responses: { 200: applicationVersionListSchema } },
    "GET /:resourceId/versions/:versionId": { responses: { 200: applicationVersionResponseSchema } },
    "POST /:resourceId/versions/:versionId/rollback": { responses: { 202: rollbackResponseSchema } },
    "GET /:resourceId/attributes/:attribute": { responses: { 200: attributeResponseSchema } },
  });
  return routes;
}
