import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloningState } from "#contract/cloning";
import {
  SECRET_MASK,
  addonListSchema,
  cloneStateSchema,
  environmentConfigResponseSchema,
  environmentErrorMessages,
  environmentPaths,
  environmentResponseSchema,
  environmentVariableListSchema,
  type Environment,
} from "#contract/environments";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import {
  defaultServiceSettings,
  resourceListSchema,
  resourceResponseSchema,
  servicePaths,
} from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { environmentVariables, resources } from "../db/schema";
import { openTestApi, testEngineConfig, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(() => api.close());

function send(member: TestMember, method: string, path: string, json?: unknown) {
  return api.call(method, path, { token: member.user.token, json });
}

/** A developer's environment in GCP with a configuration, an add-on and two variables (one secret). */
async function sourceScene() {
  const member = await api.createMember({ role: "admin" });
  const { tenantId } = member.organization;
  const created = await send(member, "POST", environmentPaths.list(tenantId), {
    name: "source",
    cloudProvider: "GCP",
    region: "europe-west1",
  });
  const { environment: source } = environmentResponseSchema.parse(await created.json());
  await send(member, "PUT", environmentPaths.config(tenantId, source.id), {
    description: "The original",
    autoDeploy: true,
    deletionProtection: false,
    maintenanceWindow: { day: "friday", hour: 4 },
  });
  await send(member, "PUT", environmentPaths.addons(tenantId, source.id), {
    addons: [{ name: "observability", enabled: true }],
  });
  await send(member, "POST", environmentPaths.variables(tenantId, source.id), {
    envVariables: [
      { name: "LOG_LEVEL", value: "info" },
      { name: "DB_PASSWORD", value: "hunter2", secret: true },
    ],
  });
  return { member, tenantId, source };
}

async function clone(member: TestMember, sourceId: string, body: unknown): Promise<Environment> {
  const response = await send(
    member,
    "POST",
    environmentPaths.clone(member.organization.tenantId, sourceId),
    body,
  );
  expect(response.status).toBe(201);
  return environmentResponseSchema.parse(await response.json()).environment;
}

async function stateOf(member: TestMember, environmentId: string) {
  const response = await send(
    member,
    "GET",
    environmentPaths.cloneState(member.organization.tenantId, environmentId),
  );
  expect(response.status).toBe(200);
  return cloneStateSchema.parse(await response.json());
}

async function environmentOf(member: TestMember, environmentId: string) {
  const response = await send(
    member,
    "GET",
    environmentPaths.one(member.organization.tenantId, environmentId),
  );
  return environmentResponseSchema.parse(await response.json()).environment;
}

const throughLaunch: CloningState[] = ["CREATING_DRAFT_RESOURCES", "WAITING_FOR_LAUNCH_RESOURCES_EVENT"];
const afterLaunch: CloningState[] = [
  "QUEUE_RESOURCES_FOR_LAUNCH",
  "LAUNCH_RESOURCES",
  "LAUNCH_RESOURCES_SUCCEEDED",
  "CREATING_DRAFT_APPLICATIONS",
  "CREATING_DRAFT_APPLICATIONS_SUCCEEDED",
  "REVIEW_AND_DEPLOY_APPLICATIONS",
];

describe("cloning an environment", () => {
  it("creates the clone in progress, runs the SPEC §4 states in order and copies the settings", async () => {
    const { member, tenantId, source } = await sourceScene();
    const created = await clone(member, source.id, { name: "source-copy" });
    expect(created).toMatchObject({
      name: "source-copy",
      cloningStage: "STAGE_IN_PROGRESS",
      cloudProvider: "GCP",
      region: "europe-west1",
      clonedFrom: { id: source.id, name: "source" },
    });
    expect(await stateOf(member, created.id)).toEqual({
      infraState: "CREATING_DRAFT_RESOURCES",
      history: [{ state: "CREATING_DRAFT_RESOURCES", at: expect.any(String) }],
      details: null,
      resources: { total: 0, running: 0, stage: "STAGE_UNSPECIFIED" },
    });

    await api.engine.runner.runUntilIdle();
    const waiting = await stateOf(member, created.id);
    expect(waiting.infraState).toBe("WAITING_FOR_LAUNCH_RESOURCES_EVENT");
    expect(waiting.history.map((entry) => entry.state)).toEqual(throughLaunch);

    // The drafts: configuration, add-ons and variables, the secret sealed again for its new row.
    const config = await send(member, "GET", environmentPaths.config(tenantId, created.id));
    expect(environmentConfigResponseSchema.parse(await config.json()).config).toMatchObject({
      description: "The original",
      maintenanceWindow: { day: "friday", hour: 4 },
    });
    const addons = addonListSchema.parse(
      await (await send(member, "GET", environmentPaths.addons(tenantId, created.id))).json(),
    );
    expect(addons.addons.filter((addon) => addon.enabled).map((addon) => addon.name)).toEqual([
      "observability",
    ]);
    const variables = environmentVariableListSchema.parse(
      await (await send(member, "GET", environmentPaths.variables(tenantId, created.id))).json(),
    ).envVariables;
    expect(variables.map(({ name, value }) => [name, value])).toEqual([
      ["DB_PASSWORD", SECRET_MASK],
      ["LOG_LEVEL", "info"],
    ]);
    const secret = variables.find((variable) => variable.name === "DB_PASSWORD");
    const revealed = environmentVariableListSchema.parse(
      await (
        await send(member, "GET", environmentPaths.variables(tenantId, created.id, { reveal: secret?.id }))
      ).json(),
    ).envVariables;
    expect(revealed.find((variable) => variable.name === "DB_PASSWORD")?.value).toBe("hunter2");
    const [sourceSecret] = await api.db
      .select()
      .from(environmentVariables)
      .where(eq(environmentVariables.environmentId, source.id))
      .then((rows) => rows.filter((row) => row.secret));
    const [cloneSecret] = await api.db
      .select()
      .from(environmentVariables)
      .where(eq(environmentVariables.environmentId, created.id))
      .then((rows) => rows.filter((row) => row.secret));
    expect(cloneSecret?.encryptedValue).toBeTruthy();
    expect(cloneSecret?.encryptedValue).not.toBe(sourceSecret?.encryptedValue);
    expect(cloneSecret?.value).toBeNull();

    const launched = await send(member, "POST", environmentPaths.cloneLaunchResources(tenantId, created.id));
    expect(launched.status).toBe(200);
    expect(cloneStateSchema.parse(await launched.json()).infraState).toBe("QUEUE_RESOURCES_FOR_LAUNCH");

    await api.engine.runner.runUntilIdle();
    const done = await stateOf(member, created.id);
    expect(done).toEqual({
      infraState: "REVIEW_AND_DEPLOY_APPLICATIONS",
      history: expect.any(Array),
      details: null,
      resources: { total: 0, running: 0, stage: "STAGE_UNSPECIFIED" },
    });
    expect(done.history.map((entry) => entry.state)).toEqual([...throughLaunch, ...afterLaunch]);
    const times = done.history.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Still in progress until the user leaves the flow: at review-and-deploy it no longer counts as cloning.
    expect((await environmentOf(member, created.id)).cloningStage).toBe("STAGE_IN_PROGRESS");

    const exited = await send(member, "PUT", environmentPaths.cloneExit(tenantId, created.id));
    expect(exited.status).toBe(200);
    expect(environmentResponseSchema.parse(await exited.json()).environment).toMatchObject({
      cloningStage: "STAGE_COMPLETED",
      clonedFrom: { id: source.id, name: "source" },
    });
    expect((await stateOf(member, created.id)).infraState).toBe("REVIEW_AND_DEPLOY_APPLICATIONS");
    // The source is untouched.
    expect((await environmentOf(member, source.id)).cloningStage).toBe("STAGE_UNSPECIFIED");
  });

  it("places the clone in another provider and region when asked", async () => {
    const { member, source } = await sourceScene();
    const created = await clone(member, source.id, {
      name: "moved",
      cloudProvider: "AWS",
      region: "eu-west-1",
    });
    expect(created).toMatchObject({ cloudProvider: "AWS", region: "eu-west-1" });
  });

  it("keeps the source's region for a region-less request when it belongs to the provider", async () => {
    const { member, source } = await sourceScene();
    const created = await clone(member, source.id, { name: "same-region", cloudProvider: "GCP" });
    expect(created).toMatchObject({ cloudProvider: "GCP", region: "europe-west1" });
  });

  it.each([
    ["a missing name", {}, "name"],
    ["an invalid name", { name: "Bad_Name" }, "name"],
    ["a region of another provider", { name: "x1", region: "us-east-1" }, "region"],
    ["another provider without a region", { name: "x2", cloudProvider: "AWS" }, "region"],
    [
      "Azure while its flag is off",
      { name: "x3", cloudProvider: "AZURE", region: "westeurope" },
      "cloudProvider",
    ],
  ])("answers 400 to %s and creates nothing", async (_case, body, field) => {
    const { member, tenantId, source } = await sourceScene();
    const before = await api.countRows();
    const response = await send(member, "POST", environmentPaths.clone(tenantId, source.id), body);
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toHaveProperty([field]);
    expect(await api.countRows()).toEqual(before);
  });

  it("answers 409 for a name the tenant already uses, and 404 for another tenant's source", async () => {
    const { member, tenantId, source } = await sourceScene();
    const taken = await send(member, "POST", environmentPaths.clone(tenantId, source.id), { name: "source" });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({
      message: apiErrorMessages.environmentNameTaken,
      code: apiErrorCodes.conflict,
      fieldErrors: { name: [apiErrorMessages.environmentNameTaken] },
    });
    const neighbour = await sourceScene();
    const foreign = await send(member, "POST", environmentPaths.clone(tenantId, neighbour.source.id), {
      name: "stolen",
    });
    expect(foreign.status).toBe(404);
    expect(await api.environmentsOf(tenantId)).toHaveLength(1);
    expect(await api.environmentsOf(neighbour.tenantId)).toHaveLength(1);
  });

  it("answers 409 for a source whose own clone is still unfinished", async () => {
    const { member, tenantId, source } = await sourceScene();
    const first = await clone(member, source.id, { name: "first" });
    const response = await send(member, "POST", environmentPaths.clone(tenantId, first.id), {
      name: "second",
    });
    expect(response.status).toBe(409);
    expect(apiErrorSchema.parse(await response.json()).message).toBe(
      environmentErrorMessages.environmentBusy,
    );
  });

  it("answers UNSPECIFIED for an environment that was never cloned", async () => {
    const { member, source } = await sourceScene();
    expect(await stateOf(member, source.id)).toEqual({
      infraState: "UNSPECIFIED",
      history: [],
      details: null,
      resources: { total: 0, running: 0, stage: "STAGE_UNSPECIFIED" },
    });
  });
});

describe("POST .../clone/launch/resources", () => {
  it("answers 409 in every state but WAITING_FOR_LAUNCH_RESOURCES_EVENT and moves nothing", async () => {
    const { member, tenantId, source } = await sourceScene();
    const launch = (id: string) => send(member, "POST", environmentPaths.cloneLaunchResources(tenantId, id));
    const notWaiting = {
      message: environmentErrorMessages.cloneNotWaitingForLaunch,
      code: apiErrorCodes.conflict,
    };

    const neverCloned = await launch(source.id);
    expect(neverCloned.status).toBe(409);
    expect(await neverCloned.json()).toEqual(notWaiting);

    const created = await clone(member, source.id, { name: "launch-me" });
    const early = await launch(created.id);
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual(notWaiting);
    expect((await stateOf(member, created.id)).infraState).toBe("CREATING_DRAFT_RESOURCES");

    await api.engine.runner.runUntilIdle();
    expect((await launch(created.id)).status).toBe(200);
    expect((await launch(created.id)).status).toBe(409);
    await api.engine.runner.runUntilIdle();
    expect((await launch(created.id)).status).toBe(409);
    expect((await stateOf(member, created.id)).infraState).toBe("REVIEW_AND_DEPLOY_APPLICATIONS");
  });
});

describe("a failing clone step (ENGINE_FAILURE_INJECTION)", () => {
  it.each([
    ["fail-creating-draft-resources", "CREATING_DRAFT_RESOURCES_FAILED", ["CREATING_DRAFT_RESOURCES"]],
    [
      "fail-queue-resources-for-launch",
      "QUEUE_RESOURCES_FOR_LAUNCH_FAILED",
      [...throughLaunch, "QUEUE_RESOURCES_FOR_LAUNCH"],
    ],
    [
      "fail-launch-resources",
      "LAUNCH_RESOURCES_FAILED",
      [...throughLaunch, "QUEUE_RESOURCES_FOR_LAUNCH", "LAUNCH_RESOURCES"],
    ],
    [
      "fail-creating-draft-applications",
      "CREATING_DRAFT_APPLICATIONS_FAILED",
      [...throughLaunch, ...afterLaunch.slice(0, 4)],
    ],
  ] as [string, CloningState, CloningState[]][])(
    "a clone named x-%s ends in %s with details, and exiting marks the environment failed",
    async (marker, failedState, passed) => {
      const { member, tenantId, source } = await sourceScene();
      const created = await clone(member, source.id, { name: `x-${marker}` });
      await api.engine.runner.runUntilIdle();
      if (passed.includes("WAITING_FOR_LAUNCH_RESOURCES_EVENT")) {
        expect(
          (await send(member, "POST", environmentPaths.cloneLaunchResources(tenantId, created.id))).status,
        ).toBe(200);
        await api.engine.runner.runUntilIdle();
      }
      const state = await stateOf(member, created.id);
      expect(state.infraState).toBe(failedState);
      expect(state.history.map((entry) => entry.state)).toEqual([...passed, failedState]);
      expect(state.details).toContain(`Failure injected at ${passed.at(-1)}`);
      if (failedState === "CREATING_DRAFT_RESOURCES_FAILED") {
        // The copy is one transaction: a failure leaves no half-copied variables.
        expect(
          await api.db
            .select()
            .from(environmentVariables)
            .where(eq(environmentVariables.environmentId, created.id)),
        ).toEqual([]);
      }

      // A failed clone has no work ahead: it can be deleted right away, or exited first.
      const exited = await send(member, "PUT", environmentPaths.cloneExit(tenantId, created.id));
      expect(exited.status).toBe(200);
      expect(environmentResponseSchema.parse(await exited.json()).environment.cloningStage).toBe(
        "STAGE_FAILED",
      );
      expect((await send(member, "DELETE", environmentPaths.one(tenantId, created.id))).status).toBe(204);
    },
  );

  it("is off unless configured: the same name clones normally", async () => {
    const quiet = await openTestApi({ engine: { ...testEngineConfig, failureInjection: false } });
    try {
      const member = await quiet.createMember();
      const source = await quiet.createEnvironment(member.organization.tenantId);
      const response = await quiet.call(
        "POST",
        environmentPaths.clone(member.organization.tenantId, source.id),
        {
          token: member.user.token,
          json: { name: "x-fail-creating-draft-resources" },
        },
      );
      const { environment } = environmentResponseSchema.parse(await response.json());
      await quiet.engine.runner.runUntilIdle();
      const state = await quiet.call(
        "GET",
        environmentPaths.cloneState(member.organization.tenantId, environment.id),
        {
          token: member.user.token,
        },
      );
      expect(cloneStateSchema.parse(await state.json()).infraState).toBe(
        "WAITING_FOR_LAUNCH_RESOURCES_EVENT",
      );
    } finally {
      await quiet.close();
    }
  });
});

describe("PUT .../clone/exit", () => {
  it("cancels a clone that has work ahead: the environment keeps what was copied, the engine stops", async () => {
    const { member, tenantId, source } = await sourceScene();
    const created = await clone(member, source.id, { name: "cancel-me" });
    await api.engine.runner.runUntilIdle();
    const exited = await send(member, "PUT", environmentPaths.cloneExit(tenantId, created.id));
    expect(exited.status).toBe(200);
    expect(environmentResponseSchema.parse(await exited.json()).environment.cloningStage).toBe(
      "STAGE_CANCELED",
    );
    expect((await stateOf(member, created.id)).infraState).toBe("WAITING_FOR_LAUNCH_RESOURCES_EVENT");
    expect(
      (await send(member, "POST", environmentPaths.cloneLaunchResources(tenantId, created.id))).status,
    ).toBe(409);
    expect(await api.engine.runner.runUntilIdle()).toBe(0);
  });

  it("cancels a clone before its first step ran: the step never runs", async () => {
    const { member, tenantId, source } = await sourceScene();
    const created = await clone(member, source.id, { name: "cancel-early" });
    expect((await send(member, "PUT", environmentPaths.cloneExit(tenantId, created.id))).status).toBe(200);
    await api.engine.runner.runUntilIdle();
    expect((await stateOf(member, created.id)).infraState).toBe("CREATING_DRAFT_RESOURCES");
    expect(
      await api.db
        .select()
        .from(environmentVariables)
        .where(eq(environmentVariables.environmentId, created.id)),
    ).toEqual([]);
  });

  it("answers 409 for an environment outside a clone flow, also once it has exited", async () => {
    const { member, tenantId, source } = await sourceScene();
    const notCloning = { message: environmentErrorMessages.notCloning, code: apiErrorCodes.conflict };
    const never = await send(member, "PUT", environmentPaths.cloneExit(tenantId, source.id));
    expect(never.status).toBe(409);
    expect(await never.json()).toEqual(notCloning);

    const created = await clone(member, source.id, { name: "exit-twice" });
    expect((await send(member, "PUT", environmentPaths.cloneExit(tenantId, created.id))).status).toBe(200);
    const again = await send(member, "PUT", environmentPaths.cloneExit(tenantId, created.id));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(notCloning);
    expect((await environmentOf(member, created.id)).cloningStage).toBe("STAGE_CANCELED");
  });
});

describe("cloning services", () => {
  it("drafts the source's resources, provisions them at the launch, and drafts its applications for review", async () => {
    const { member, tenantId, source } = await sourceScene();
    const create = (body: unknown) => send(member, "POST", servicePaths.list(tenantId, source.id), body);
    expect(
      (
        await create({
          serviceType: "cache",
          name: "sessions",
          config: defaultServiceConfigs.cache,
          launch: true,
        })
      ).status,
    ).toBe(201);
    await api.db.insert(resources).values({
      environmentId: source.id,
      name: "web",
      serviceType: "application",
      stage: "STAGE_COMPLETED",
      config: { image: "ghcr.io/acme/web:1.4.2" },
      settings: defaultServiceSettings,
    });
    await api.engine.runner.runUntilIdle();

    const target = await clone(member, source.id, { name: "copy-with-services" });
    await api.engine.runner.runUntilIdle();
    const servicesOf = async () => {
      const response = await send(member, "GET", servicePaths.list(tenantId, target.id));
      return resourceListSchema.parse(await response.json()).infrastructure;
    };
    expect((await servicesOf()).map(({ name, stage }) => ({ name, stage }))).toEqual([
      { name: "sessions", stage: "STAGE_DRAFT" },
    ]);

    await send(member, "POST", environmentPaths.cloneLaunchResources(tenantId, target.id));
    await api.engine.runner.runUntilIdle();
    expect((await stateOf(member, target.id)).infraState).toBe("REVIEW_AND_DEPLOY_APPLICATIONS");
    const services = await servicesOf();
    expect(
      services.map(({ name, stage }) => ({ name, stage })).sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: "sessions", stage: "STAGE_COMPLETED" },
      { name: "web", stage: "STAGE_DRAFT" },
    ]);
    const sessions = services.find((service) => service.name === "sessions");
    const detail = await send(member, "GET", servicePaths.one(tenantId, target.id, sessions?.id ?? ""));
    const { resource } = resourceResponseSchema.parse(await detail.json());
    expect(resource.history.map((entry) => [entry.action, entry.actor, entry.outcome])).toEqual([
      ["Provision", "Platform", "STAGE_COMPLETED"],
      ["Save", "Platform", null],
    ]);
    // The state tells where the resources stand; the draft application is not one of them.
    expect((await stateOf(member, target.id)).resources).toEqual({
      total: 1,
      running: 1,
      stage: "STAGE_COMPLETED",
    });
  });

  it("tells at the last step that the launched resources are still deploying, or that one failed", async () => {
    const { member, tenantId, source } = await sourceScene();
    for (const name of ["sessions", "cache-two"]) {
      await send(member, "POST", servicePaths.list(tenantId, source.id), {
        serviceType: "cache",
        name,
        config: defaultServiceConfigs.cache,
        launch: true,
      });
    }
    await api.engine.runner.runUntilIdle();
    const target = await clone(member, source.id, { name: "copy-still-deploying" });
    await api.engine.runner.runUntilIdle();
    await send(member, "POST", environmentPaths.cloneLaunchResources(tenantId, target.id));
    await api.engine.runner.runUntilIdle();
    const setStage = (name: string, stage: string) =>
      api.db
        .update(resources)
        .set({ stage })
        .where(and(eq(resources.environmentId, target.id), eq(resources.name, name)));

    // A deployment takes minutes in a real cloud: the clone reaches its last step first.
    await setStage("sessions", "STAGE_IN_PROGRESS");
    const deploying = await stateOf(member, target.id);
    expect(deploying.infraState).toBe("REVIEW_AND_DEPLOY_APPLICATIONS");
    expect(deploying.resources).toEqual({ total: 2, running: 1, stage: "STAGE_IN_PROGRESS" });

    await setStage("sessions", "STAGE_FAILED");
    expect((await stateOf(member, target.id)).resources).toEqual({
      total: 2,
      running: 1,
      stage: "STAGE_FAILED",
    });
  });
});
