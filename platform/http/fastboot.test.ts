import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import {
  fastbootPaths,
  fastbootResponseSchema,
  fastbootStackListSchema,
  type Fastboot,
} from "#contract/fastboot";
import { servicePaths } from "#contract/services";
import { auditEvents, connections, customRoles, engineJobs, resourceHistory, resources } from "../db/schema";
import type { CloudDriver } from "../cloud/driver";
import { FASTBOOT_JOB_KIND } from "../deployments/fastboots";
import { fakeDriver } from "../testing/driver";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";

/** The clock moves a second at every look, so each step of the engine has its own time. */
let clock = Date.parse("2031-03-01T00:00:00.000Z");
const now = () => new Date((clock += 1000));

/** The fake cloud, whose databases fail to deploy while `failDatabases` is on. */
let failDatabases = false;
const base = fakeDriver();
const driver: CloudDriver = {
  ...base,
  deployLogs: (resource, podNames, phase, startedAt) => {
    if (failDatabases && resource.serviceType === "database") {
      throw new Error("InsufficientDBInstanceCapacity: no db.t4g.micro capacity in the zone");
    }
    return base.deployLogs(resource, podNames, phase, startedAt);
  },
};

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi({}, { driver, now });
});
afterAll(() => api.close());

const send = (member: TestMember, method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

async function fastboot(member: TestMember, body: Record<string, unknown>): Promise<Fastboot> {
  const response = await send(member, "POST", fastbootPaths.create(member.organization.tenantId), body);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return fastbootResponseSchema.parse(await response.json()).fastboot;
}

async function progressOf(member: TestMember, id: string): Promise<Fastboot> {
  const response = await send(member, "GET", fastbootPaths.one(member.organization.tenantId, id));
  expect(response.status).toBe(200);
  return fastbootResponseSchema.parse(await response.json()).fastboot;
}

/** When each service's Provision was recorded and when its deployment finished. */
async function timelineOf(environmentId: string) {
  const rows = await api.db
    .select({
      name: resources.name,
      deployedAt: resources.deployedAt,
      action: resourceHistory.action,
      at: resourceHistory.at,
    })
    .from(resources)
    .innerJoin(resourceHistory, eq(resourceHistory.resourceId, resources.id))
    .where(and(eq(resources.environmentId, environmentId), eq(resourceHistory.action, "Provision")))
    .orderBy(asc(resourceHistory.at));
  return new Map(rows.map((row) => [row.name, { launched: row.at, deployed: row.deployedAt }]));
}

describe("the starter stacks", () => {
  it("lists each stack with what it creates and its monthly estimate in the region", async () => {
    const member = await api.createMember({ role: "read-only" });
    const response = await send(
      member,
      "GET",
      fastbootPaths.stacks(member.organization.tenantId, { cloudProvider: "AWS", region: "eu-west-1" }),
    );
    expect(response.status).toBe(200);
    const { stacks } = fastbootStackListSchema.parse(await response.json());
    const web = stacks.find((stack) => stack.id === "web-postgres");
    expect(web?.creates.map((service) => `${service.serviceType} ${service.name}`)).toEqual([
      "network network",
      "database postgres",
      "application web",
    ]);
    // The fake cloud prices a network at 32.85 and anything else at 12.50 a month.
    expect(web?.estimate.monthlyCost).toBe(57.85);
    expect(web?.estimate.breakdown.map((line) => line.item)).toEqual([
      "network: network (eu-west-1)",
      "postgres: database (eu-west-1)",
      "web: application (eu-west-1)",
    ]);
  });

  it("refuses a region of another provider", async () => {
    const member = await api.createMember({ role: "read-only" });
    const response = await send(
      member,
      "GET",
      fastbootPaths.stacks(member.organization.tenantId, { cloudProvider: "AWS", region: "europe-west1" }),
    );
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toEqual({
      region: ["Region must be one of the AWS regions"],
    });
  });
});

describe("POST fastboot", () => {
  it("creates the environment and the stack's services as drafts, then launches them in order", async () => {
    const member = await api.createMember({ role: "developer" });
    const created = await fastboot(member, { stack: "web-postgres", name: "demo", region: "eu-west-1" });
    expect(created).toMatchObject({ stack: "web-postgres", status: "deploying", application: { url: null } });
    expect(created.resources.map((row) => [row.name, row.stage, row.dependsOn])).toEqual([
      ["network", "STAGE_DRAFT", []],
      ["postgres", "STAGE_DRAFT", ["network"]],
      ["web", "STAGE_DRAFT", ["network", "postgres"]],
    ]);
    const [environment] = await api.environmentsOf(member.organization.tenantId);
    expect(environment).toMatchObject({ name: "demo", cloudProvider: "AWS", region: "eu-west-1" });
    expect(environment?.cloudConnectionId).toBeNull();

    await api.engine.runner.runUntilIdle();

    const done = await progressOf(member, created.id);
    expect(done.status).toBe("completed");
    expect(done.resources.map((row) => row.stage)).toEqual([
      "STAGE_COMPLETED",
      "STAGE_COMPLETED",
      "STAGE_COMPLETED",
    ]);
    const web = done.resources.find((row) => row.name === "web");
    expect(done.application).toEqual({ id: web?.id, name: "web", url: web?.endpoint });
    expect(done.application?.url).toBeTruthy();

    // The network first, the database once it is deployed, the application once the database is.
    const timeline = await timelineOf(created.environment.id);
    const at = (name: string, what: "launched" | "deployed") => timeline.get(name)?.[what]?.getTime() ?? NaN;
    expect(at("postgres", "launched")).toBeGreaterThan(at("network", "deployed"));
    expect(at("web", "launched")).toBeGreaterThan(at("postgres", "deployed"));

    // The application reads the database's connection string through a variable reference.
    const [application] = await api.db
      .select()
      .from(resources)
      .where(eq(resources.id, web?.id ?? ""));
    expect(application?.config).toMatchObject({
      envvars: [
        { kind: "attribute", name: "DATABASE_URL", service: "postgres", attribute: "connectionString" },
      ],
    });

    const [event] = await api.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "environments.fastboot"))
      .orderBy(asc(auditEvents.at));
    expect(event).toMatchObject({ status: 201 });
    expect(event?.summary).toMatchObject({ name: "demo", stack: "web-postgres" });
  });

  it("creates the environment on a container host when one is chosen (issue 26)", async () => {
    const member = await api.createMember({ role: "developer" });
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
    const created = await fastboot(member, {
      stack: "web-postgres",
      name: "local",
      region: "local",
      cloudConnectionId: host?.id,
    });
    expect(await api.environmentsOf(member.organization.tenantId)).toMatchObject([
      { name: "local", cloudProvider: "CONTAINERS", region: "local", cloudConnectionId: host?.id },
    ]);
    // A network has no container form: the stack runs without it, and nothing waits for it.
    expect(created.resources.map((row) => [row.name, row.stage, row.dependsOn])).toEqual([
      ["postgres", "STAGE_DRAFT", []],
      ["web", "STAGE_DRAFT", ["postgres"]],
    ]);
    const listed = await send(
      member,
      "GET",
      fastbootPaths.stacks(member.organization.tenantId, { cloudProvider: "CONTAINERS", region: "local" }),
    );
    const { stacks } = fastbootStackListSchema.parse(await listed.json());
    const web = stacks.find((stack) => stack.id === "web-postgres");
    expect(web?.creates.map((service) => service.name)).toEqual(["postgres", "web"]);
    expect(web?.estimate.breakdown.map((line) => line.item)).toEqual([
      "postgres: database (local)",
      "web: application (local)",
    ]);
  });

  it("waits at a failed service and goes on once it is retried", async () => {
    const member = await api.createMember({ role: "developer" });
    const { tenantId } = member.organization;
    failDatabases = true;
    let created: Fastboot;
    try {
      created = await fastboot(member, { stack: "web-postgres", name: "failing", region: "us-east-1" });
      await api.engine.runner.runUntilIdle();
    } finally {
      failDatabases = false;
    }
    const failed = await progressOf(member, created.id);
    expect(failed.status).toBe("failed");
    expect(failed.resources.map((row) => [row.name, row.stage])).toEqual([
      ["network", "STAGE_COMPLETED"],
      ["postgres", "STAGE_FAILED"],
      ["web", "STAGE_DRAFT"],
    ]);
    expect(failed.resources[1]?.message).toContain("InsufficientDBInstanceCapacity");
    expect(failed.application?.url).toBeNull();
    // What failed no longer holds the environment: it can be deleted, or its service retried.
    const [job] = await api.db.select().from(engineJobs).where(eq(engineJobs.id, created.id));
    expect(job?.status).toBe("failed");

    const database = failed.resources[1];
    const retried = await send(
      member,
      "POST",
      servicePaths.retry(tenantId, created.environment.id, database?.id ?? ""),
    );
    expect(retried.status).toBe(200);
    expect((await progressOf(member, created.id)).status).toBe("deploying");
    await api.engine.runner.runUntilIdle();

    const done = await progressOf(member, created.id);
    expect(done.status).toBe("completed");
    expect(done.application?.url).toBeTruthy();
  });

  it("stops at a canceled deployment, and the environment can then be deleted", async () => {
    // Steps take their time here, on a clock the test moves, so the deployment can be canceled before it runs.
    let fixed = Date.parse("2031-04-01T00:00:00.000Z");
    const timed = await openTestApi(
      { engine: { timeScale: 1, pollIntervalMs: 10, failureInjection: false } },
      { driver: fakeDriver(), now: () => new Date(fixed) },
    );
    try {
      const member = await timed.createMember({ role: "admin" });
      const { tenantId } = member.organization;
      const call = (method: string, path: string) => timed.call(method, path, { token: member.user.token });
      const progress = async (id: string) =>
        fastbootResponseSchema.parse(await (await call("GET", fastbootPaths.one(tenantId, id))).json())
          .fastboot;
      const response = await timed.call("POST", fastbootPaths.create(tenantId), {
        token: member.user.token,
        json: { stack: "api-redis-queue", name: "canceled", region: "us-east-1" },
      });
      expect(response.status).toBe(201);
      const created = fastbootResponseSchema.parse(await response.json()).fastboot;
      // The first step launches the network; its deployment waits a second in the queue.
      await timed.engine.runner.runDue();
      const network = (await progress(created.id)).resources[0];
      expect(network?.stage).toBe("STAGE_QUEUED");
      const canceled = await call(
        "POST",
        servicePaths.cancel(tenantId, created.environment.id, network?.id ?? ""),
      );
      expect(canceled.status).toBe(200);
      fixed += 60_000;
      await timed.engine.runner.runUntilIdle();

      const stopped = await progress(created.id);
      expect(stopped.status).toBe("failed");
      expect(stopped.resources.map((row) => row.stage)).toEqual([
        "STAGE_CANCELED",
        "STAGE_DRAFT",
        "STAGE_DRAFT",
        "STAGE_DRAFT",
      ]);
      const [job] = await timed.db.select().from(engineJobs).where(eq(engineJobs.id, created.id));
      expect(job?.status).toBe("failed");
      const deleted = await call(
        "DELETE",
        `/v2/organizations/${tenantId}/environments/${created.environment.id}`,
      );
      expect(deleted.status).toBe(204);
      expect((await call("GET", fastbootPaths.one(tenantId, created.id))).status).toBe(404);
    } finally {
      await timed.close();
    }
  });

  it("explains every field it refuses and writes nothing", async () => {
    const member = await api.createMember({ role: "admin" });
    const response = await send(member, "POST", fastbootPaths.create(member.organization.tenantId), {
      stack: "lamp",
      name: "Demo!",
    });
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toEqual({
      stack: ["Choose a starter stack"],
      name: [
        "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
      ],
      region: ["Region is a required field"],
    });

    const wrongRegion = await send(member, "POST", fastbootPaths.create(member.organization.tenantId), {
      stack: "api-redis-queue",
      name: "api",
      region: "westeurope",
    });
    expect(wrongRegion.status).toBe(400);
    expect(apiErrorSchema.parse(await wrongRegion.json()).fieldErrors).toEqual({
      region: ["Region must be one of the AWS regions"],
    });

    // Another organization's connection is no account of this one.
    const neighbour = await api.createOrganization();
    const [connection] = await api.db
      .insert(connections)
      .values({
        organizationId: neighbour.organizationId,
        kind: "AWS",
        name: uniqueName("account"),
        method: "keys",
        status: "UNVERIFIED",
      })
      .returning();
    const before = await api.countRows();
    const foreign = await send(member, "POST", fastbootPaths.create(member.organization.tenantId), {
      stack: "kubernetes-app",
      name: "k8s",
      region: "us-east-1",
      cloudConnectionId: connection?.id,
    });
    expect(foreign.status).toBe(400);
    expect(apiErrorSchema.parse(await foreign.json()).fieldErrors).toEqual({
      cloudConnectionId: ["Choose a cloud account of this organization."],
    });
    expect(await api.countRows()).toEqual(before);
    expect(await api.environmentsOf(member.organization.tenantId)).toEqual([]);
  });

  it("refuses a name the organization already uses, on the name field", async () => {
    const member = await api.createMember({ role: "admin" });
    await api.createEnvironment(member.organization.tenantId, "production");
    const response = await send(member, "POST", fastbootPaths.create(member.organization.tenantId), {
      stack: "web-postgres",
      name: "production",
      region: "us-east-1",
    });
    expect(response.status).toBe(409);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toEqual({
      name: [apiErrorMessages.environmentNameTaken],
    });
    expect(await api.environmentsOf(member.organization.tenantId)).toHaveLength(1);
  });

  it("asks for creating environments, and for creating and launching services", async () => {
    const reader = await api.createMember({ role: "read-only" });
    const body = { stack: "web-postgres", name: "demo", region: "us-east-1" };
    const refused = await send(reader, "POST", fastbootPaths.create(reader.organization.tenantId), body);
    expect(refused.status).toBe(403);
    expect(apiErrorSchema.parse(await refused.json())).toMatchObject({
      code: apiErrorCodes.permissionDenied,
      permission: "environments.create",
    });

    // A role that may create environments but not deploy into them.
    const organization = await api.createOrganization();
    const [role] = await api.db
      .insert(customRoles)
      .values({
        organizationId: organization.organizationId,
        name: uniqueName("creators"),
        permissions: ["organization.view", "environments.create"],
      })
      .returning();
    const user = await api.createUser();
    await api.addMember(user.id, organization.organizationId, [
      { customRoleId: role?.id, environmentIds: null },
    ]);
    const creator: TestMember = { user, organization };
    const partial = await send(creator, "POST", fastbootPaths.create(creator.organization.tenantId), body);
    expect(partial.status).toBe(403);
    expect(apiErrorSchema.parse(await partial.json())).toMatchObject({ permission: "services.configure" });
    expect(await api.environmentsOf(creator.organization.tenantId)).toEqual([]);
  });
});

describe("GET fastboot/{id}", () => {
  it("answers only the organization that made it", async () => {
    const owner = await api.createMember({ role: "developer" });
    const created = await fastboot(owner, { stack: "kubernetes-app", name: "k8s", region: "us-east-1" });
    const stranger = await api.createMember({ role: "admin" });
    const asStranger = await send(
      stranger,
      "GET",
      fastbootPaths.one(stranger.organization.tenantId, created.id),
    );
    expect(asStranger.status).toBe(404);
    const wrongTenant = await send(
      stranger,
      "GET",
      fastbootPaths.one(owner.organization.tenantId, created.id),
    );
    expect(wrongTenant.status).toBe(403);
    const notAnId = await send(owner, "GET", fastbootPaths.one(owner.organization.tenantId, "nope"));
    expect(notAnId.status).toBe(404);
    // Another kind of job is no fastboot.
    const [otherJob] = await api.db
      .select()
      .from(engineJobs)
      .where(eq(engineJobs.kind, "service-deploy"))
      .limit(1);
    if (otherJob) {
      const other = await send(owner, "GET", fastbootPaths.one(owner.organization.tenantId, otherJob.id));
      expect(other.status).toBe(404);
    }
    const [job] = await api.db.select().from(engineJobs).where(eq(engineJobs.id, created.id));
    expect(job?.kind).toBe(FASTBOOT_JOB_KIND);
  });
});
