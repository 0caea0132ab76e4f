import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { environmentListSchema, environmentPaths, environmentResponseSchema } from "#contract/environments";
import { MAX_RETRIES, SERVERLESS_UPLOAD_MAX_BYTES } from "#contract/service-catalogue";
import {
  defaultServiceSettings,
  resourceListSchema,
  resourceResponseSchema,
  serviceErrorMessages,
  servicePaths,
  type Resource,
} from "#contract/services";
import { defaultApplicationConfig } from "#contract/application-config";
import { defaultServiceConfigs } from "#contract/service-configs";
import {
  connections,
  engineJobs,
  environments,
  resourceHistory,
  resourceLogs,
  resources,
} from "../db/schema";
import { DEPLOY_JOB_KIND } from "../deployments/deploys";
import { fakeDriver } from "../testing/driver";
import { openTestApi, uniqueName, type TestMember } from "../testing/http-harness";

const api = await openTestApi({}, { driver: fakeDriver() });
afterAll(() => api.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  environmentId = (await api.createEnvironment(tenantId)).id;
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

const database = (name = uniqueName("db")) => ({
  serviceType: "database",
  name,
  config: defaultServiceConfigs.database,
  launch: true,
});

async function create(body: Record<string, unknown>, environment = environmentId): Promise<Resource> {
  const response = await call("POST", servicePaths.list(tenantId, environment), body);
  expect(response.status).toBe(201);
  return resourceResponseSchema.parse(await response.json()).resource;
}

async function get(id: string, environment = environmentId): Promise<Resource> {
  const response = await call("GET", servicePaths.one(tenantId, environment, id));
  expect(response.status).toBe(200);
  return resourceResponseSchema.parse(await response.json()).resource;
}

const run = () => api.engine.runner.runUntilIdle();

/** The service's deployment jobs, oldest first (PostgreSQL answers rows in no set order). */
async function jobsOf(resourceId: string) {
  const jobs = await api.db
    .select()
    .from(engineJobs)
    .where(eq(engineJobs.kind, DEPLOY_JOB_KIND))
    .orderBy(asc(engineJobs.createdAt));
  return jobs.filter((job) => job.payload.resourceId === resourceId);
}

async function expectError(response: Response, status: number, message?: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { message: string; fieldErrors?: Record<string, string[]> };
  if (message) expect(body.message).toBe(message);
  return body;
}

describe("create and deploy", () => {
  it("queues a launched service, then deploys it through the driver's phases", async () => {
    const created = await create(database());
    expect(created.stage).toBe("STAGE_QUEUED");
    expect(created.version).toBe(1);
    expect(created.settings).toEqual(defaultServiceSettings);
    expect(created.history.map((entry) => [entry.action, entry.outcome])).toEqual([["Create", null]]);
    expect(created.history[0]?.actor).toMatch(/^Test user_/);
    expect(created.history[0]?.diff).toContainEqual({ path: "config.engine", after: "postgres" });

    await run();
    const deployed = await get(created.id);
    expect(deployed).toMatchObject({
      stage: "STAGE_COMPLETED",
      endpoint: `${created.name}.${(await api.environmentsOf(tenantId))[0]?.name}.internal`,
      monthlyCost: 12.5,
      retries: 0,
      message: null,
      pods: [
        { name: `${created.name}-1-a`, status: "Running" },
        { name: `${created.name}-1-b`, status: "Running" },
      ],
    });
    expect(deployed.history[0]).toMatchObject({ action: "Create", outcome: "STAGE_COMPLETED" });
    expect(deployed.history[0]?.finishedAt).not.toBeNull();
    expect(deployed.history[0]?.podNames).toEqual([`${created.name}-1-a`, `${created.name}-1-b`]);

    const [job] = await jobsOf(created.id);
    expect(job?.environmentId).toBe(environmentId);
    expect(job?.status).toBe("succeeded");
    expect(job?.history.map((entry) => entry.state)).toEqual([
      "QUEUED",
      "PHASE_0",
      "PHASE_1",
      "PHASE_2",
      "COMPLETED",
    ]);
    const logs = await api.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, created.id));
    expect(logs.map((line) => line.message)).toEqual([
      `Planning: ${created.name} (database)`,
      `Planning: ${created.name} (database)`,
      `Provisioning: ${created.name} (database)`,
      `Provisioning: ${created.name} (database)`,
      `Health check: ${created.name} (database)`,
      `Health check: ${created.name} (database)`,
    ]);
  });

  it("counts services and their cost in the environment", async () => {
    const environment = await api.createEnvironment(tenantId);
    const before = await call("GET", environmentPaths.one(tenantId, environment.id));
    const { environment: empty } = (await before.json()) as {
      environment: { serviceCount: number; monthlyCostEstimate: number };
    };
    expect(empty).toMatchObject({ serviceCount: 0, monthlyCostEstimate: 0 });
    await create(database(), environment.id);
    await create({ ...database(), launch: false }, environment.id);
    await run();
    const after = await call("GET", environmentPaths.one(tenantId, environment.id));
    const { environment: withServices } = (await after.json()) as {
      environment: { serviceCount: number; monthlyCostEstimate: number };
    };
    expect(withServices.serviceCount).toBe(2);
    expect(withServices.monthlyCostEstimate).toBeCloseTo(12.5, 2);
  });

  it("gives the environment the stage its services are in", async () => {
    const environment = await api.createEnvironment(tenantId);
    const stageOf = async () => {
      const one = await call("GET", environmentPaths.one(tenantId, environment.id));
      const { environment: shown } = environmentResponseSchema.parse(await one.json());
      const list = await call("GET", environmentPaths.list(tenantId));
      const listed = environmentListSchema
        .parse(await list.json())
        .environments.find((candidate) => candidate.id === environment.id);
      expect(listed?.stage).toBe(shown.stage);
      return shown.stage;
    };
    expect(await stageOf()).toBe("STAGE_DRAFT");

    await create({ ...database(), launch: false }, environment.id);
    expect(await stageOf()).toBe("STAGE_DRAFT");

    await create(database(), environment.id);
    expect(await stageOf()).toBe("STAGE_IN_PROGRESS");
    await run();
    // A deployed service beside a draft: changes wait to be deployed.
    expect(await stageOf()).toBe("STAGE_READY_TO_DEPLOY");

    const running = await api.createEnvironment(tenantId);
    await create(database(), running.id);
    await create(database(), running.id);
    await run();
    const listed = environmentListSchema.parse(
      await (await call("GET", environmentPaths.list(tenantId))).json(),
    );
    expect(listed.environments.find((candidate) => candidate.id === running.id)?.stage).toBe(
      "STAGE_COMPLETED",
    );
    expect(listed.environments.find((candidate) => candidate.id === running.id)?.cloningStage).toBe(
      "STAGE_UNSPECIFIED",
    );

    const failing = await api.createEnvironment(tenantId);
    await create(database(), failing.id);
    await create(database(uniqueName("db-fail-deploy")), failing.id);
    await run();
    const failed = await call("GET", environmentPaths.one(tenantId, failing.id));
    expect(environmentResponseSchema.parse(await failed.json()).environment.stage).toBe("STAGE_FAILED");
  });

  it("refuses invalid bodies and configurations and stores nothing", async () => {
    const path = servicePaths.list(tenantId, environmentId);
    const before = await api.countRows();
    const cases: [unknown, string][] = [
      [{ ...database(), name: "Bad Name" }, "name"],
      [{ ...database(), serviceType: "mainframe" }, "serviceType"],
      [{ ...database(), config: { ...defaultServiceConfigs.database, storageGb: 5 } }, "config.storageGb"],
      [{ ...database(), config: { ...defaultServiceConfigs.database, version: "8.0" } }, "config.version"],
      [
        { ...database(), serviceType: "application", config: { image: "Not An Image" } },
        "config.source.image",
      ],
      [
        {
          ...database(),
          settings: {
            ...defaultServiceSettings,
            scaling: { minInstances: 5, maxInstances: 2, targetCpuPercent: 50 },
          },
        },
        "settings.scaling.maxInstances",
      ],
      [
        {
          serviceType: "serverless",
          name: uniqueName("fn"),
          config: { ...defaultServiceConfigs.serverless, uploadId: "00000000-0000-4000-8000-000000000000" },
          launch: true,
        },
        "config.uploadId",
      ],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await call("POST", path, body), 400);
      expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
    }
    expect(await api.countRows()).toEqual(before);
  });

  it("answers 409 on a name taken in the environment", async () => {
    const { name } = await create({ ...database(), launch: false });
    const before = await api.countRows();
    const error = await expectError(
      await call("POST", servicePaths.list(tenantId, environmentId), database(name)),
      409,
      serviceErrorMessages.nameTaken,
    );
    expect(error.fieldErrors).toEqual({ name: [serviceErrorMessages.nameTaken] });
    expect(await api.countRows()).toEqual(before);
  });
});

describe("on a container host (issue 26)", () => {
  it("says at creation that a type without a container form cannot run there, and stores nothing", async () => {
    const [host] = await api.db
      .insert(connections)
      .values({
        organizationId: member.organization.organizationId,
        kind: "CONTAINER_HOST",
        name: "This machine",
        method: "docker-host",
        status: "VERIFIED",
      })
      .returning();
    const [onHost] = await api.db
      .insert(environments)
      .values({
        tenantId,
        name: uniqueName("host"),
        cloudProvider: "CONTAINERS",
        region: "local",
        cloudConnectionId: host?.id,
      })
      .returning();
    const path = servicePaths.list(tenantId, onHost?.id ?? "");
    const before = await api.countRows();
    const network = {
      serviceType: "network",
      name: uniqueName("net"),
      config: defaultServiceConfigs.network,
      launch: true,
    };
    const error = await expectError(await call("POST", path, network), 400);
    expect(error.fieldErrors).toEqual({
      serviceType: [
        "A network cannot run on a container host: it has no container form. Create it in an environment on a cloud account.",
      ],
    });
    expect(await api.countRows()).toEqual(before);
    const queue = {
      serviceType: "queue",
      name: uniqueName("jobs"),
      config: defaultServiceConfigs.queue,
      launch: true,
    };
    const nosql = {
      serviceType: "nosql-database",
      name: uniqueName("table"),
      config: { ...defaultServiceConfigs["nosql-database"], tableName: "orders" },
      launch: true,
    };
    expect((await expectError(await call("POST", path, nosql), 400)).fieldErrors).toEqual({
      serviceType: [
        "A NoSQL database cannot run on a container host yet: the container driver has no server for it. Create it in an environment on a cloud account.",
      ],
    });
    expect(await api.countRows()).toEqual(before);
    // A database and a cache have one (an official image), whichever engine the form offers: they are created.
    await create({ ...database(), launch: false }, onHost?.id);
    for (const [engine, version] of [
      ["mysql", "8.0"],
      ["mariadb", "10.11"],
    ]) {
      const created = await create(
        { ...database(), config: { ...defaultServiceConfigs.database, engine, version }, launch: false },
        onHost?.id,
      );
      expect(created.config).toMatchObject({ engine, version });
    }
    for (const [engine, version] of [
      ["valkey", "8.0"],
      ["memcached", "1.6"],
    ]) {
      const cache = {
        serviceType: "cache",
        name: uniqueName("cache"),
        config: { ...defaultServiceConfigs.cache, engine, version },
        launch: false,
      };
      expect((await create(cache, onHost?.id)).config).toMatchObject({ engine, version });
    }
    // A queue (RabbitMQ) and a file storage (RustFS) have one (an official image): they are created.
    await create({ ...queue, launch: false }, onHost?.id);
    await create(
      {
        serviceType: "file-storage",
        name: uniqueName("files"),
        config: { ...defaultServiceConfigs["file-storage"], bucketName: "shop-uploads" },
        launch: false,
      },
      onHost?.id,
    );
  });
});

describe("drafts", () => {
  it("saves a draft, saves changes to it and provisions it", async () => {
    const draft = await create({ ...database(), launch: false });
    expect(draft.stage).toBe("STAGE_DRAFT");
    expect(draft.history.map((entry) => entry.action)).toEqual(["Save"]);
    expect(await jobsOf(draft.id)).toEqual([]);

    const saved = await call("PUT", servicePaths.draft(tenantId, environmentId, draft.id), {
      version: draft.version,
      config: { ...defaultServiceConfigs.database, storageGb: 100 },
    });
    expect(saved.status).toBe(200);
    const withDraft = resourceResponseSchema.parse(await saved.json()).resource;
    expect(withDraft).toMatchObject({ stage: "STAGE_DRAFT", hasDraft: true, version: 2 });
    expect(withDraft.config.storageGb).toBe(20);
    expect(withDraft.draft?.config.storageGb).toBe(100);
    expect(withDraft.history[0]?.diff).toEqual([{ path: "config.storageGb", before: 20, after: 100 }]);

    const launched = await call("POST", servicePaths.launchDraft(tenantId, environmentId, draft.id));
    expect(launched.status).toBe(200);
    const queued = resourceResponseSchema.parse(await launched.json()).resource;
    expect(queued).toMatchObject({ stage: "STAGE_QUEUED", hasDraft: false, draft: null, version: 3 });
    expect(queued.config.storageGb).toBe(100);
    expect(queued.history.map((entry) => entry.action)).toEqual(["Provision", "Save", "Save"]);
    await run();
    expect((await get(draft.id)).stage).toBe("STAGE_COMPLETED");
  });

  it("makes a deployed service ready to deploy, and relaunches without a draft", async () => {
    const service = await create(database());
    await run();
    const saved = await call("PUT", servicePaths.draft(tenantId, environmentId, service.id), {
      version: (await get(service.id)).version,
      settings: { ...defaultServiceSettings, hardware: { cpu: "1", memoryMb: 2048 } },
    });
    expect(resourceResponseSchema.parse(await saved.json()).resource.stage).toBe("STAGE_READY_TO_DEPLOY");
    await call("POST", servicePaths.launchDraft(tenantId, environmentId, service.id));
    await run();
    const relaunched = await call("POST", servicePaths.launchDraft(tenantId, environmentId, service.id));
    const queued = resourceResponseSchema.parse(await relaunched.json()).resource;
    expect(queued.history[0]?.action).toBe("Relaunch");
    await run();
    const done = await get(service.id);
    expect(done.stage).toBe("STAGE_COMPLETED");
    expect(done.settings.hardware).toEqual({ cpu: "1", memoryMb: 2048 });
    expect(done.pods.map((pod) => pod.name)).toEqual([`${service.name}-3-a`, `${service.name}-3-b`]);
  });
});

describe("updates", () => {
  it("syncs a settings-only change of a deployed service", async () => {
    const service = await create(database());
    await run();
    const { version } = await get(service.id);
    const response = await call("PUT", servicePaths.one(tenantId, environmentId, service.id), {
      version,
      settings: { ...defaultServiceSettings, envvars: [{ name: "LOG_LEVEL", value: "debug" }] },
    });
    const syncing = resourceResponseSchema.parse(await response.json()).resource;
    expect(syncing).toMatchObject({ stage: "STAGE_SYNCING", version: version + 1 });
    // Applied in place, not redeployed: the history says so.
    expect(syncing.history[0]).toMatchObject({
      action: "Sync",
      outcome: null,
      diff: [{ path: "settings.envvars", before: [], after: [{ name: "LOG_LEVEL", value: "debug" }] }],
    });
    await run();
    const synced = await get(service.id);
    expect(synced.stage).toBe("STAGE_COMPLETED");
    expect(synced.pods.map((pod) => pod.name)).toEqual([`${service.name}-1-a`, `${service.name}-1-b`]);
    const [, job] = await jobsOf(service.id);
    expect(job?.history.map((entry) => entry.state)).toEqual(["SYNCING", "COMPLETED"]);
  });

  it("redeploys a configuration change, refuses stale versions and edits during a deployment", async () => {
    const service = await create(database());
    const path = servicePaths.one(tenantId, environmentId, service.id);
    const storage50 = { ...defaultServiceConfigs.database, storageGb: 50 };
    await expectError(
      await call("PUT", path, { version: 1, config: storage50 }),
      409,
      serviceErrorMessages.deploymentRunning,
    );
    await run();

    const response = await call("PUT", path, { version: 1, config: storage50 });
    const relaunched = resourceResponseSchema.parse(await response.json()).resource;
    expect(relaunched).toMatchObject({ stage: "STAGE_QUEUED", version: 2 });
    expect(relaunched.history[0]).toMatchObject({
      action: "Relaunch",
      diff: [{ path: "config.storageGb", before: 20, after: 50 }],
    });
    await run();
    expect((await get(service.id)).stage).toBe("STAGE_COMPLETED");

    const before = await api.countRows();
    await expectError(
      await call("PUT", path, {
        version: 1,
        settings: { ...defaultServiceSettings, volumes: [] },
        config: defaultServiceConfigs.database,
      }),
      409,
      serviceErrorMessages.staleVersion,
    );
    await expectError(
      await call("PUT", servicePaths.draft(tenantId, environmentId, service.id), {
        version: 1,
        config: storage50,
      }),
      409,
      serviceErrorMessages.staleVersion,
    );
    const invalid = await expectError(
      await call("PUT", path, {
        version: 2,
        config: { ...defaultServiceConfigs.database, instanceSize: "huge" },
      }),
      400,
    );
    expect(Object.keys(invalid.fieldErrors ?? {})).toEqual(["config.instanceSize"]);
    const noVersion = await expectError(await call("PUT", path, { config: {} }), 400);
    expect(Object.keys(noVersion.fieldErrors ?? {})).toEqual(["version"]);
    expect(await api.countRows()).toEqual(before);
    expect((await get(service.id)).version).toBe(2);
  });

  it("records one row per changed key of an application, none for the values it kept", async () => {
    const application = await create({
      serviceType: "application",
      name: uniqueName("web"),
      config: { ...defaultApplicationConfig, source: { kind: "image", image: "nginx:1.27" } },
      launch: true,
    });
    // An application's settings are derived from its configuration: its creation lists its configuration alone.
    expect(application.history[0]?.diff.map((entry) => entry.path)).toEqual(
      Object.keys(defaultApplicationConfig)
        .sort()
        .map((key) => `config.${key}`),
    );
    await run();
    const { version, config } = await get(application.id);
    // The form sends the ports and health check in its own key order: an equal value is no change.
    const edited = {
      ...config,
      ports: [{ public: true, protocol: "HTTP", port: 80 }],
      healthCheck: { ...defaultApplicationConfig.healthCheck, path: "/status" },
    };
    const response = await call("PUT", servicePaths.one(tenantId, environmentId, application.id), {
      version,
      config: edited,
    });
    expect(response.status).toBe(200);
    const relaunched = resourceResponseSchema.parse(await response.json()).resource;
    expect(relaunched.history[0]).toMatchObject({
      action: "Relaunch",
      diff: [{ path: "config.healthCheck.path", before: "/", after: "/status" }],
    });
  });

  it("just saves a change of a service that was never launched", async () => {
    const draft = await create({ ...database(), launch: false });
    const response = await call("PUT", servicePaths.one(tenantId, environmentId, draft.id), {
      version: 1,
      config: { ...defaultServiceConfigs.database, multiAz: true },
    });
    const saved = resourceResponseSchema.parse(await response.json()).resource;
    expect(saved).toMatchObject({ stage: "STAGE_DRAFT", version: 2, hasDraft: false });
    expect(saved.config.multiAz).toBe(true);
    expect(await jobsOf(draft.id)).toEqual([]);
  });
});

describe("cancel", () => {
  it("cancels a queued deployment", async () => {
    const service = await create(database());
    const response = await call("POST", servicePaths.cancel(tenantId, environmentId, service.id));
    expect(resourceResponseSchema.parse(await response.json()).resource.stage).toBe("STAGE_CANCELING");
    await expectError(
      await call("POST", servicePaths.cancel(tenantId, environmentId, service.id)),
      409,
      serviceErrorMessages.notCancelable,
    );
    await run();
    const canceled = await get(service.id);
    expect(canceled.stage).toBe("STAGE_CANCELED");
    expect(canceled.history[0]?.outcome).toBe("STAGE_CANCELED");
    const [job] = await jobsOf(service.id);
    expect(job?.status).toBe("cancelled");
    await expectError(
      await call("POST", servicePaths.cancel(tenantId, environmentId, service.id)),
      409,
      serviceErrorMessages.notCancelable,
    );
  });
});

describe("the environment's network", () => {
  it("holds other deployments until the network is deployed", async () => {
    const environment = await api.createEnvironment(tenantId);
    const network = await create(
      { serviceType: "network", name: "vpc", config: defaultServiceConfigs.network, launch: false },
      environment.id,
    );
    const service = await create(database(), environment.id);
    expect(service.stage).toBe("STAGE_INFRASTRUCTURE_NOT_READY");
    await run();
    expect((await get(service.id, environment.id)).stage).toBe("STAGE_INFRASTRUCTURE_NOT_READY");
    const [waiting] = await jobsOf(service.id);
    expect(waiting?.status).toBe("waiting");

    // The environment cannot go while a deployment waits in it.
    await expectError(await call("DELETE", environmentPaths.one(tenantId, environment.id)), 409);

    await call("POST", servicePaths.launchDraft(tenantId, environment.id, network.id));
    await run();
    expect((await get(network.id, environment.id)).stage).toBe("STAGE_COMPLETED");
    expect((await get(service.id, environment.id)).stage).toBe("STAGE_COMPLETED");
    const [released] = await jobsOf(service.id);
    expect(released?.history.map((entry) => entry.state)).toEqual([
      "QUEUED",
      "INFRASTRUCTURE_NOT_READY",
      "QUEUED",
      "PHASE_0",
      "PHASE_1",
      "PHASE_2",
      "COMPLETED",
    ]);
  });
});

describe("retry", () => {
  it("retries a failed deployment up to the limit", async () => {
    const service = await create(database(uniqueName("fail-deploy")));
    await run();
    const failed = await get(service.id);
    expect(failed.stage).toBe("STAGE_FAILED");
    expect(failed.message).toContain("Health check failed");
    expect(failed.history[0]?.outcome).toBe("STAGE_FAILED");
    expect(failed.failedSince).toBe(failed.history[0]?.finishedAt);
    const [job] = await jobsOf(service.id);
    expect(job?.status).toBe("failed");

    const path = servicePaths.retry(tenantId, environmentId, service.id);
    for (let retry = 1; retry <= MAX_RETRIES; retry += 1) {
      const response = await call("POST", path);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
      expect((await get(service.id)).retries).toBe(retry);
      await expectError(await call("POST", path), 409, serviceErrorMessages.notFailed);
      await run();
    }
    const exhausted = await get(service.id);
    expect(exhausted).toMatchObject({ stage: "STAGE_FAILED", retries: MAX_RETRIES });
    // Failing since the first failure: the retries that failed again do not move it.
    expect(exhausted.failedSince).toBe(failed.failedSince);
    const listed = resourceListSchema.parse(
      await (await call("GET", servicePaths.list(tenantId, environmentId, { stage: "STAGE_FAILED" }))).json(),
    );
    expect(listed.infrastructure.find((entry) => entry.id === service.id)?.failedSince).toBe(
      failed.failedSince,
    );
    expect(exhausted.message).toBe(serviceErrorMessages.retryLimit);
    expect(exhausted.history.filter((entry) => entry.action === "Relaunch")).toHaveLength(MAX_RETRIES);
    const before = await api.countRows();
    await expectError(await call("POST", path), 409, serviceErrorMessages.retryLimit);
    expect(await api.countRows()).toEqual(before);
  });

  it("refuses to retry a deployment that did not fail", async () => {
    const service = await create(database());
    await run();
    await expectError(
      await call("POST", servicePaths.retry(tenantId, environmentId, service.id)),
      409,
      serviceErrorMessages.notFailed,
    );
  });
});

describe("secret attributes", () => {
  it("reveals a value only through the attribute route", async () => {
    const service = await create(database());
    await expectError(
      await call("GET", servicePaths.attribute(tenantId, environmentId, service.id, "password")),
      404,
      serviceErrorMessages.attributeNotReady,
    );
    await run();
    const response = await call(
      "GET",
      servicePaths.attribute(tenantId, environmentId, service.id, "password"),
    );
    expect(response.status).toBe(200);
    const { value } = (await response.json()) as { value: string };
    expect(value).toBe(`pw-${service.id.slice(0, 8)}`);

    const detail = await call("GET", servicePaths.one(tenantId, environmentId, service.id));
    const detailText = await detail.text();
    expect(detailText).not.toContain(value);
    expect(resourceResponseSchema.parse(JSON.parse(detailText)).resource.secretAttributes).toEqual([
      "password",
      "connectionString",
    ]);
    const list = await call("GET", servicePaths.list(tenantId, environmentId));
    expect(await list.text()).not.toContain(value);
    const [row] = await api.db.select().from(resources).where(eq(resources.id, service.id));
    expect(row?.sealedAttributes).not.toContain(value);

    await expectError(
      await call("GET", servicePaths.attribute(tenantId, environmentId, service.id, "api-key")),
      404,
      serviceErrorMessages.attributeNotFound,
    );
  });
});

describe("list", () => {
  it("filters, searches literally, pages and lists newest first", async () => {
    const environment = await api.createEnvironment(tenantId);
    const names = ["alpha-db", "beta-db", "gamma-cache"];
    await create(database("alpha-db"), environment.id);
    await create({ ...database("beta-db"), launch: false }, environment.id);
    await create(
      { serviceType: "cache", name: "gamma-cache", config: defaultServiceConfigs.cache, launch: false },
      environment.id,
    );
    const list = async (query: Record<string, string | number>) => {
      const response = await call("GET", servicePaths.list(tenantId, environment.id, query));
      expect(response.status).toBe(200);
      return resourceListSchema.parse(await response.json());
    };
    const all = await list({});
    expect(all.infrastructure.map((service) => service.name)).toEqual([...names].reverse());
    expect(all.total).toBe(3);
    expect(JSON.stringify(all)).not.toContain("config");
    expect((await list({ serviceType: "cache" })).infrastructure.map((s) => s.name)).toEqual(["gamma-cache"]);
    expect((await list({ stage: "STAGE_DRAFT" })).total).toBe(2);
    expect((await list({ text: "DB" })).total).toBe(2);
    expect((await list({ text: "_" })).total).toBe(0);
    expect((await list({ text: "%" })).total).toBe(0);
    const page = await list({ page: 2, pageSize: 2 });
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.infrastructure.map((service) => service.name)).toEqual(["alpha-db"]);
    await expectError(
      await call("GET", servicePaths.list(tenantId, environment.id, { stage: "STAGE_NOPE" as never })),
      400,
    );
  });

  it("tells each service's region and size, and lists the infrastructure apart from the applications", async () => {
    const environment = await api.createEnvironment(tenantId);
    await create(
      { ...database("sized-db"), config: { ...defaultServiceConfigs.database, multiAz: true } },
      environment.id,
    );
    await create(
      {
        serviceType: "cache",
        name: "sized-cache",
        config: { ...defaultServiceConfigs.cache, nodeSize: "cache.t4g.small", nodes: 3 },
        launch: false,
      },
      environment.id,
    );
    await api.db.insert(resources).values({
      environmentId: environment.id,
      name: "web",
      serviceType: "application",
      stage: "STAGE_DRAFT",
      config: { image: "nginx:1.27" },
      settings: {
        ...defaultServiceSettings,
        scaling: { ...defaultServiceSettings.scaling, minInstances: 2 },
      },
    });
    const list = async (query: Record<string, string>) => {
      const response = await call("GET", servicePaths.list(tenantId, environment.id, query));
      expect(response.status).toBe(200);
      return resourceListSchema.parse(await response.json());
    };
    const all = await list({});
    expect(
      all.infrastructure.map(({ name, region, size, replicas, failedSince }) => ({
        name,
        region,
        size,
        replicas,
        failedSince,
      })),
    ).toEqual([
      { name: "web", region: environment.region, size: "0.5 vCPU, 1024 MB", replicas: 2, failedSince: null },
      {
        name: "sized-cache",
        region: environment.region,
        size: "cache.t4g.small",
        replicas: 3,
        failedSince: null,
      },
      { name: "sized-db", region: environment.region, size: "db.t4g.micro", replicas: 2, failedSince: null },
    ]);
    const infrastructure = await list({ category: "infrastructure" });
    expect(infrastructure.infrastructure.map((service) => service.name)).toEqual(["sized-cache", "sized-db"]);
    expect(infrastructure.total).toBe(2);
    expect((await list({ category: "application" })).infrastructure.map((service) => service.name)).toEqual([
      "web",
    ]);
    await expectError(
      await call("GET", `${servicePaths.list(tenantId, environment.id)}?category=everything`),
      400,
    );
  });
});

describe("delete", () => {
  it("refuses while a deployment runs, then removes the service with its history and logs", async () => {
    const service = await create(database());
    const path = servicePaths.one(tenantId, environmentId, service.id);
    await expectError(await call("DELETE", path), 409, serviceErrorMessages.deploymentRunning);
    await run();
    expect((await call("DELETE", path)).status).toBe(204);
    await expectError(await call("GET", path), 404, serviceErrorMessages.notFound);
    expect(
      await api.db.select().from(resourceHistory).where(eq(resourceHistory.resourceId, service.id)),
    ).toEqual([]);
    expect(await api.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, service.id))).toEqual(
      [],
    );
  });
});

describe("estimate", () => {
  it("prices a configuration in the environment's region, and checks it", async () => {
    const response = await call("POST", servicePaths.estimateCost(tenantId, environmentId), {
      serviceType: "serverless",
      config: defaultServiceConfigs.serverless,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ currency: "USD", monthlyCost: 12.5 });
    const error = await expectError(
      await call("POST", servicePaths.estimateCost(tenantId, environmentId), {
        serviceType: "queue",
        config: { ...defaultServiceConfigs.queue, messageRetentionDays: 99 },
      }),
      400,
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["config.messageRetentionDays"]);
  });
});

describe("serverless uploads", () => {
  const zip = (size: number) => {
    const bytes = new Uint8Array(new ArrayBuffer(size));
    bytes.set([0x50, 0x4b, 0x03, 0x04]);
    return bytes;
  };
  const upload = (bytes: Uint8Array<ArrayBuffer>, environment = environmentId) => {
    const form = new FormData();
    form.set("file", new File([bytes], "function.zip", { type: "application/zip" }));
    return api.app.request(`/api${servicePaths.serverlessUpload(tenantId, environment)}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${member.user.token}` },
      body: form,
    });
  };

  it("stores a zip archive and lets a function use it in the same environment only", async () => {
    const response = await upload(zip(1000));
    expect(response.status).toBe(201);
    const { upload: stored } = (await response.json()) as {
      upload: { id: string; sizeBytes: number; sha256: string };
    };
    expect(stored.sizeBytes).toBe(1000);
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    const fn = await create({
      serviceType: "serverless",
      name: uniqueName("fn"),
      config: { ...defaultServiceConfigs.serverless, uploadId: stored.id },
      launch: false,
    });
    expect(fn.config.uploadId).toBe(stored.id);

    const other = await api.createEnvironment(tenantId);
    const error = await expectError(
      await call("POST", servicePaths.list(tenantId, other.id), {
        serviceType: "serverless",
        name: uniqueName("fn"),
        config: { ...defaultServiceConfigs.serverless, uploadId: stored.id },
        launch: true,
      }),
      400,
    );
    expect(error.fieldErrors).toEqual({ "config.uploadId": [serviceErrorMessages.uploadNotFound] });
  });

  it("refuses what is not a zip, nothing, and archives beyond the limit", async () => {
    const before = await api.countRows();
    const notZip = await expectError(await upload(new TextEncoder().encode("hello")), 400);
    expect(notZip.fieldErrors).toEqual({ file: [serviceErrorMessages.uploadNotZip] });
    const missing = await expectError(
      await call("POST", servicePaths.serverlessUpload(tenantId, environmentId), {}),
      400,
    );
    expect(missing.fieldErrors).toEqual({ file: [serviceErrorMessages.uploadMissing] });
    await expectError(
      await upload(zip(SERVERLESS_UPLOAD_MAX_BYTES + 1)),
      413,
      serviceErrorMessages.uploadTooLarge,
    );
    expect(await api.countRows()).toEqual(before);
  });
});

describe("tenant isolation", () => {
  it("does not reach another tenant's services", async () => {
    const victim = await api.createMember({ role: "admin" });
    const victimEnvironment = await api.createEnvironment(victim.organization.tenantId);
    const victimService = await api.call(
      "POST",
      servicePaths.list(victim.organization.tenantId, victimEnvironment.id),
      { token: victim.user.token, json: database() },
    );
    const { resource } = resourceResponseSchema.parse(await victimService.json());
    await run();
    const paths = [
      servicePaths.one(tenantId, victimEnvironment.id, resource.id),
      servicePaths.one(tenantId, environmentId, resource.id),
      servicePaths.attribute(tenantId, environmentId, resource.id, "password"),
    ];
    for (const path of paths) await expectError(await call("GET", path), 404);
    const before = await api.countRows();
    await expectError(await call("DELETE", servicePaths.one(tenantId, environmentId, resource.id)), 404);
    await expectError(await call("POST", servicePaths.retry(tenantId, environmentId, resource.id)), 404);
    await expectError(
      await call("PUT", servicePaths.one(tenantId, environmentId, resource.id), { version: 1 }),
      404,
    );
    expect(await api.countRows()).toEqual(before);
    const [row] = await api.db
      .select()
      .from(resources)
      .where(and(eq(resources.id, resource.id), eq(resources.environmentId, victimEnvironment.id)));
    expect(row?.stage).toBe("STAGE_COMPLETED");
  });
});

describe("referenced services", () => {
  it("lists the services whose variables reference a variable", async () => {
    const environment = await api.createEnvironment(tenantId);
    await call("POST", environmentPaths.variables(tenantId, environment.id), {
      envVariables: [{ name: "DB_PASSWORD", value: "s3cret", secret: true }],
    });
    const referencing = await create(
      {
        ...database("api-db"),
        settings: { ...defaultServiceSettings, envvars: [{ name: "PASSWORD", value: "pw=${DB_PASSWORD}" }] },
        launch: false,
      },
      environment.id,
    );
    await create({ ...database("other-db"), launch: false }, environment.id);
    const response = await call(
      "GET",
      environmentPaths.referencedServices(tenantId, environment.id, "DB_PASSWORD"),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      services: [{ id: referencing.id, name: "api-db", serviceType: "database" }],
    });
  });
});
