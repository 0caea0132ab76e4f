import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePlanPaths, changePlanResponseSchema } from "#contract/change-plans";
import { defaultServiceSettings, resourceResponseSchema, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { resources } from "../db/schema";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * Issue 24 §1: the plan of a change before it is saved, as the AWS driver computes it (computing it calls no AWS,
 * so no moto here), and the refusal of a deployment that replaces a service and deletes its data unless the
 * service's name is typed as confirmation.
 */

const region = "us-west-2";
let api: TestApi;
let member: TestMember;
let tenantId: string;
let awsEnvironmentId: string;
let simulatedEnvironmentId: string;
beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  const aws = await api.createAwsEnvironment(member, region);
  awsEnvironmentId = aws.id;
  simulatedEnvironmentId = (await api.createEnvironment(tenantId)).id;
});
afterAll(() => api?.close());

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

/** A service deployed and running, as the engine leaves it. */
async function deployedService(
  serviceType: "database" | "queue",
  { environmentId = awsEnvironmentId, deployed = true } = {},
) {
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId,
      name: `${serviceType}-${Math.random().toString(36).slice(2, 8)}`,
      serviceType,
      // 30 GB: the database, which a typo shrank to 20.
      config:
        serviceType === "database"
          ? { ...defaultServiceConfigs.database, storageGb: 30 }
          : defaultServiceConfigs[serviceType],
      settings: defaultServiceSettings,
      stage: deployed ? "STAGE_COMPLETED" : "STAGE_DRAFT",
      deployedAt: deployed ? new Date("2026-01-10T12:00:00.000Z") : null,
    })
    .returning();
  if (!row) throw new Error("service was not created");
  return row;
}

async function planOf(service: { id: string; environmentId: string }, config: Record<string, unknown>) {
  const response = await call("POST", changePlanPaths.plan(tenantId, service.environmentId, service.id), {
    config,
  });
  expect(response.status).toBe(200);
  return changePlanResponseSchema.parse(await response.json()).plan;
}

describe("POST infrastructure/{id}/plan", () => {
  it("says that shrinking an AWS database's storage replaces it and deletes its data", async () => {
    const database = await deployedService("database");
    const plan = await planOf(database, { ...defaultServiceConfigs.database, storageGb: 20 });
    expect(plan).toMatchObject({
      replace: ["config.storageGb"],
      inPlace: [],
      loses: ["its data", "its endpoint"],
      summary: "Replaces the service and deletes its data",
      confirmationRequired: true,
    });
    // Nothing was saved.
    const [row] = await api.db.select().from(resources).where(eq(resources.id, database.id));
    expect(row?.config).toMatchObject({ storageGb: 30 });
  });

  it("says that turning a standard queue into a FIFO one replaces it and deletes its messages", async () => {
    const queue = await deployedService("queue");
    const plan = await planOf(queue, { ...defaultServiceConfigs.queue, queueType: "fifo" });
    expect(plan).toMatchObject({
      replace: ["config.queueType"],
      loses: ["its messages", "its queue URL"],
      summary: "Replaces the service and deletes its messages",
      confirmationRequired: true,
    });
  });

  it("says that a queue's retention changes in place, losing nothing", async () => {
    const queue = await deployedService("queue");
    const plan = await planOf(queue, { ...defaultServiceConfigs.queue, messageRetentionDays: 7 });
    expect(plan).toEqual({
      inPlace: ["config.messageRetentionDays"],
      replace: [],
      other: [],
      loses: [],
      summary: "Updates the service in place",
      confirmationRequired: false,
    });
  });

  it("claims nothing where the cloud cannot say (simulated) or nothing is deployed yet", async () => {
    const simulated = await deployedService("database", { environmentId: simulatedEnvironmentId });
    expect(await planOf(simulated, { ...defaultServiceConfigs.database, storageGb: 20 })).toMatchObject({
      inPlace: [],
      replace: [],
      other: ["config.storageGb"],
      confirmationRequired: false,
    });
    const draft = await deployedService("database", { deployed: false });
    expect(await planOf(draft, { ...defaultServiceConfigs.database, storageGb: 20 })).toMatchObject({
      replace: [],
      other: ["config.storageGb"],
      confirmationRequired: false,
    });
  });

  it("answers the configuration's field errors", async () => {
    const database = await deployedService("database");
    const response = await call("POST", changePlanPaths.plan(tenantId, database.environmentId, database.id), {
      config: { ...defaultServiceConfigs.database, storageGb: 1 },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fieldErrors: object }).fieldErrors).toHaveProperty(
      "config.storageGb",
    );
  });
});

describe("saving a change that replaces the service and deletes its data", () => {
  it("is refused without the service's name typed as confirmation, and deploys with it", async () => {
    const database = await deployedService("database");
    const path = servicePaths.one(tenantId, database.environmentId, database.id);
    const change = {
      version: database.version,
      config: { ...defaultServiceConfigs.database, storageGb: 20 },
    };

    const refused = await call("PUT", path, change);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      fieldErrors: {
        confirmation: [
          `This change replaces the service and deletes its data: type ${database.name} to confirm`,
        ],
      },
    });
    const wrongName = await call("PUT", path, { ...change, confirmation: "something else" });
    expect(wrongName.status).toBe(400);

    const confirmed = await call("PUT", path, { ...change, confirmation: database.name });
    expect(confirmed.status).toBe(200);
    const { resource } = resourceResponseSchema.parse(await confirmed.json());
    expect(resource.config.storageGb).toBe(20);
    expect(resource.stage).not.toBe("STAGE_COMPLETED");
  });

  it("launching a draft that deletes data is refused without the confirmation too", async () => {
    const database = await deployedService("database");
    const draft = await call("PUT", servicePaths.draft(tenantId, database.environmentId, database.id), {
      version: database.version,
      config: { ...defaultServiceConfigs.database, storageGb: 20 },
    });
    expect(draft.status).toBe(200);
    const launch = servicePaths.launchDraft(tenantId, database.environmentId, database.id);
    expect((await call("POST", launch, {})).status).toBe(400);
    expect((await call("POST", launch, { confirmation: database.name })).status).toBe(200);
  });

  it("an in-place change needs no confirmation", async () => {
    const database = await deployedService("database");
    const response = await call("PUT", servicePaths.one(tenantId, database.environmentId, database.id), {
      version: database.version,
      config: { ...defaultServiceConfigs.database, storageGb: 40 },
    });
    expect(response.status).toBe(200);
  });
});

it("launching a draft still takes an empty body, as the app sends it", async () => {
  const database = await deployedService("database");
  const response = await api.call(
    "POST",
    servicePaths.launchDraft(tenantId, database.environmentId, database.id),
    { token: member.user.token },
  );
  expect(response.status).toBe(200);
});
