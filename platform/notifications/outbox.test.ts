import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NotificationRules } from "#contract/connections";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { MAX_RETRIES } from "#contract/service-catalogue";
import { resourceResponseSchema, serviceErrorMessages, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { openTestApi, uniqueName, type TestMember } from "../testing/http-harness";
import { notificationDeliveries } from "../db/schema";
import { fakeDriver } from "../testing/driver";
import { insertConnection } from "../testing/notification-connections";

/*
 * The engine's ends become deliveries in the transaction that records them: one per Slack or Teams connection
 * whose rules take the event and the environment. Failure injection is on in the test harness: a service named
 * `...fail-deploy...` fails every deployment.
 */

const api = await openTestApi({ appUrl: "https://console.acme.test" }, { driver: fakeDriver() });
afterAll(() => api.close());

let member: TestMember;
let tenantId: string;
let organizationId: string;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  ({ tenantId, organizationId } = member.organization);
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });
const run = () => api.engine.runner.runUntilIdle();

async function chat(
  organizationId: string,
  notifications: NotificationRules | null,
  kind:
    | "COMMUNICATION_PLATFORM_TYPE_SLACK"
    | "COMMUNICATION_PLATFORM_TYPE_TEAMS" = "COMMUNICATION_PLATFORM_TYPE_SLACK",
) {
  return insertConnection(api.db, api.secrets, {
    organizationId,
    kind,
    method: "webhook",
    secretFields: { WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/secret-hook" },
    notifications,
  });
}

async function deploy(environmentId: string, name: string) {
  const response = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "database",
    name,
    config: defaultServiceConfigs.database,
    launch: true,
  });
  expect(response.status).toBe(201);
  const { resource } = resourceResponseSchema.parse(await response.json());
  await run();
  return resource;
}

const deliveriesOf = (connectionId: string) =>
  api.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.connectionId, connectionId));

describe("a deployment's end", () => {
  it("posts a failure to the connections whose rules take it, naming everything and linking the service", async () => {
    const production = await api.createEnvironment(tenantId, "production");
    const staging = await api.createEnvironment(tenantId, "staging");
    const defaults = await chat(organizationId, null);
    const teams = await chat(
      organizationId,
      { events: ["deployment.failed"], environmentIds: [production.id] },
      "COMMUNICATION_PLATFORM_TYPE_TEAMS",
    );
    const onlyStaging = await chat(organizationId, {
      events: ["deployment.failed"],
      environmentIds: [staging.id],
    });
    const onlySuccesses = await chat(organizationId, {
      events: ["deployment.succeeded"],
      environmentIds: null,
    });
    const elsewhere = await chat((await api.createOrganization()).organizationId, null);

    const service = await deploy(production.id, "orders-fail-deploy");

    const [delivery] = await deliveriesOf(defaults.id);
    expect(delivery).toMatchObject({
      event: "deployment.failed",
      environmentId: production.id,
      status: "pending",
      attempts: [],
      leasedUntil: null,
    });
    const { message } = delivery ?? {};
    expect(message?.title).toBe("Deployment failed: orders-fail-deploy in production");
    expect(message?.text).toMatch(
      /^The deployment of orders-fail-deploy in production \(Organization org-[\w-]+\) failed: .*did not become ready/,
    );
    expect(message?.link).toBe(`https://console.acme.test/env/production/services/${service.id}`);
    expect(message?.facts).toMatchObject({
      Environment: "production",
      Service: "orders-fail-deploy",
      Type: "Database",
      Action: "Create",
      "Retries used": `0 of ${MAX_RETRIES}`,
    });
    expect(JSON.stringify(message)).not.toContain("secret-hook");
    expect(await deliveriesOf(teams.id)).toHaveLength(1);
    for (const silent of [onlyStaging, onlySuccesses, elsewhere])
      expect(await deliveriesOf(silent.id)).toEqual([]);

    // A success goes only where successes are asked for: the defaults ask for them (issue 25), Teams here does not.
    const healthy = await deploy(production.id, "orders");
    expect((await deliveriesOf(defaults.id)).map((row) => row.event).sort()).toEqual([
      "deployment.failed",
      "deployment.succeeded",
    ]);
    expect((await deliveriesOf(teams.id)).map((row) => row.event)).toEqual(["deployment.failed"]);
    const [success] = await deliveriesOf(onlySuccesses.id);
    expect(success?.message).toMatchObject({
      title: "Deployment succeeded: orders in production",
      link: `https://console.acme.test/env/production/services/${healthy.id}`,
    });
  });

  it("posts the retry limit once, with SPEC's message, also where only failures are asked for", async () => {
    const environment = await api.createEnvironment(tenantId, uniqueName("env"));
    const onlyFailures = await chat(organizationId, {
      events: ["deployment.failed"],
      environmentIds: [environment.id],
    });
    const service = await deploy(environment.id, "cache-fail-deploy");
    for (let retry = 1; retry <= MAX_RETRIES; retry += 1) {
      expect((await call("POST", servicePaths.retry(tenantId, environment.id, service.id))).status).toBe(200);
      await run();
    }
    const deliveries = await deliveriesOf(onlyFailures.id);
    expect(deliveries.map((row) => row.event)).toEqual([
      ...Array<string>(MAX_RETRIES).fill("deployment.failed"),
      "deployment.retry-limit",
    ]);
    const last = deliveries.at(-1)?.message;
    expect(last?.title).toBe(`Retry limit reached: cache-fail-deploy in ${environment.name}`);
    expect(last?.text).toContain(serviceErrorMessages.retryLimit);
    expect(last?.facts["Retries used"]).toBe(`${MAX_RETRIES} of ${MAX_RETRIES}`);
  });
});

describe("a clone's end", () => {
  it("posts that the clone finished, or where it failed, linking the environment", async () => {
    const owner = await api.createMember({ role: "admin" });
    const ownerTenant = owner.organization.tenantId;
    const send = (method: string, path: string, json?: unknown) =>
      api.call(method, path, { token: owner.user.token, json });
    const clones = await chat(owner.organization.organizationId, {
      events: ["clone.finished"],
      environmentIds: null,
    });
    const source = await api.createEnvironment(ownerTenant, "source");

    const cloneOf = async (name: string) => {
      const response = await send("POST", environmentPaths.clone(ownerTenant, source.id), { name });
      expect(response.status).toBe(201);
      return environmentResponseSchema.parse(await response.json()).environment;
    };
    const finished = await cloneOf("copy");
    await run();
    expect((await send("POST", environmentPaths.cloneLaunchResources(ownerTenant, finished.id))).status).toBe(
      200,
    );
    await run();
    const failed = await cloneOf("copy-fail-launch-resources");
    await run();
    expect((await send("POST", environmentPaths.cloneLaunchResources(ownerTenant, failed.id))).status).toBe(
      200,
    );
    await run();

    const messages = (await deliveriesOf(clones.id)).map((row) => ({
      event: row.event,
      environmentId: row.environmentId,
      ...row.message,
    }));
    expect(messages).toEqual([
      expect.objectContaining({
        event: "clone.finished",
        environmentId: finished.id,
        title: "Clone finished: copy",
        link: "https://console.acme.test/env/copy",
        facts: expect.objectContaining({ "Cloned from": "source", Environment: "copy" }),
      }),
      expect.objectContaining({
        event: "clone.finished",
        environmentId: failed.id,
        title: "Clone failed: copy-fail-launch-resources",
        text: expect.stringContaining("Failure injected at LAUNCH_RESOURCES"),
        link: "https://console.acme.test/env/copy-fail-launch-resources",
      }),
    ]);
  });
});
