import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePlanPaths, changePlanResponseSchema } from "#contract/change-plans";
import { defaultServiceSettings, resourceResponseSchema, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultApplicationConfig } from "#contract/application-config";
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

/** An application answering at app.example.com, with the certificate that covers it. */
const applicationWithDomain = {
  ...defaultApplicationConfig,
  source: { kind: "image", image: "nginx:1.27" },
  domain: { host: "app.example.com", certificateId: "arn:aws:acm:us-west-2:123456789012:certificate/app" },
};

/** A service deployed and running, as the engine leaves it. */
async function deployedService(
  serviceType: "database" | "queue" | "network" | "application",
  {
    environmentId = awsEnvironmentId,
    deployed = true,
    config,
  }: { environmentId?: string; deployed?: boolean; config?: Record<string, unknown> } = {},
) {
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId,
      name: `${serviceType}-${Math.random().toString(36).slice(2, 8)}`,
      serviceType,
      // 30 GB: the database, which a typo shrank to 20.
      config:
        config ??
        (serviceType === "database"
          ? { ...defaultServiceConfigs.database, storageGb: 30 }
          : serviceType === "application"
            ? applicationWithDomain
            : defaultServiceConfigs[serviceType]),
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
  expect(response.status, await response.clone().text()).toBe(200);
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

  it("says what each change sets, from what it was", async () => {
    const database = await deployedService("database");
    const plan = await planOf(database, { ...defaultServiceConfigs.database, storageGb: 20, multiAz: true });
    expect(plan.changes).toEqual([
      { path: "config.multiAz", before: false, after: true },
      { path: "config.storageGb", before: 30, after: 20 },
    ]);
  });

  it("says that a replacement that only changes an address gives the service a new one, and asks for its name", async () => {
    const network = await deployedService("network");
    const plan = await planOf(network, { ...defaultServiceConfigs.network, cidrBlock: "10.1.0.0/16" });
    expect(plan).toMatchObject({
      replace: ["config.cidrBlock"],
      loses: ["its VPC and subnet ids"],
      summary: "Replaces the service, which gets new VPC and subnet ids",
      confirmationRequired: true,
    });
  });

  it("says that changing a deployed application's domain changes its address, and asks for its name", async () => {
    const application = await deployedService("application");
    const plan = await planOf(application, {
      ...applicationWithDomain,
      domain: { host: "", certificateId: "" },
    });
    expect(plan).toMatchObject({
      loses: ["its address"],
      summary: "Gives the service a new address",
      confirmationRequired: true,
    });
    expect(plan.changes).toContainEqual({
      path: "config.domain.host",
      before: "app.example.com",
      after: "",
    });
    // Without a domain, scaling it changes no address.
    const withoutDomain = { ...applicationWithDomain, domain: { host: "", certificateId: "" } };
    const scaled = await planOf(await deployedService("application", { config: withoutDomain }), {
      ...withoutDomain,
      scaling: { mode: "fixed", replicas: 3 },
    });
    expect(scaled.inPlace).toContain("config.scaling.replicas");
    expect(scaled).toMatchObject({
      loses: [],
      summary: "Updates the service in place",
      confirmationRequired: false,
    });
  });

  it("says that a queue's retention changes in place, losing nothing", async () => {
    const queue = await deployedService("queue");
    const plan = await planOf(queue, { ...defaultServiceConfigs.queue, messageRetentionDays: 7 });
    expect(plan).toEqual({
      inPlace: ["config.messageRetentionDays"],
      replace: [],
      other: [],
      changes: [{ path: "config.messageRetentionDays", before: 4, after: 7 }],
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

  it("so is a change of a deployed application's address", async () => {
    const application = await deployedService("application");
    const path = servicePaths.one(tenantId, application.environmentId, application.id);
    const change = {
      version: application.version,
      config: { ...applicationWithDomain, domain: { host: "", certificateId: "" } },
    };
    const refused = await call("PUT", path, change);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      fieldErrors: {
        confirmation: [`This change gives the service a new address: type ${application.name} to confirm`],
      },
    });
    expect((await call("PUT", path, { ...change, confirmation: application.name })).status).toBe(200);
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
