import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectionPaths,
  connectionResponseSchema,
  defaultNotificationRules,
  deliveryListSchema,
} from "#contract/connections";
import { apiErrorCodes } from "#contract/errors";
import { servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { auditEvents, connections, notificationDeliveries } from "../db/schema";
import { startSlackServer, type SlackServer } from "../testing/chat-servers";
import { insertConnection } from "../testing/notification-connections";
import { createDeliveryWorker } from "../notifications/worker";
import { fakeDriver } from "../testing/driver";
import { DELIVERY_LIST_LIMIT } from "./connection-notifications";
import { openTestApi, type TestMember } from "../testing/http-harness";

const api = await openTestApi({ appUrl: "https://console.acme.test" }, { driver: fakeDriver() });
let slack: SlackServer;
let admin: TestMember;
beforeAll(async () => {
  slack = await startSlackServer({ hooks: ["live-hook"] });
  admin = await api.createMember({ role: "admin" });
  await api.setFeatureFlag(admin.organization.tenantId, "notification-connections", true);
});
afterAll(async () => {
  await slack.close();
  await api.close();
});

const t = (member = admin) => member.organization.tenantId;
const call = (method: string, path: string, json?: unknown, member = admin) =>
  api.call(method, path, { token: member.user.token, json });

async function connectSlack(name: string, member = admin) {
  const response = await call(
    "POST",
    connectionPaths.list(t(member)),
    {
      kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
      name,
      method: "webhook",
      fields: { WEBHOOK_URL: slack.webhookUrl("live-hook") },
    },
    member,
  );
  expect(response.status).toBe(201);
  return connectionResponseSchema.parse(await response.json()).connection;
}

async function rulesStored(id: string) {
  const [row] = await api.db.select().from(connections).where(eq(connections.id, id));
  return row?.notifications;
}

describe("PUT connections/{id}/notifications", () => {
  it("sets which events a Slack connection posts for which environments", async () => {
    const connection = await connectSlack("Deployments");
    expect(connection.notifications).toEqual(defaultNotificationRules);
    const staging = await api.createEnvironment(t(), "staging");
    const response = await call("PUT", connectionPaths.notifications(t(), connection.id), {
      events: ["deployment.succeeded", "deployment.failed", "deployment.failed"],
      environmentIds: [staging.id],
    });
    expect(response.status).toBe(200);
    const { connection: saved } = connectionResponseSchema.parse(await response.json());
    expect(saved.notifications).toEqual({
      events: ["deployment.succeeded", "deployment.failed"],
      environmentIds: [staging.id],
    });
    expect(saved.secrets.WEBHOOK_URL).toEqual({ set: true, lastFour: "hook" });
    expect(await rulesStored(connection.id)).toEqual(saved.notifications);

    const everywhere = await call("PUT", connectionPaths.notifications(t(), connection.id), {
      events: [],
      environmentIds: null,
    });
    expect(everywhere.status).toBe(200);
    expect(await rulesStored(connection.id)).toEqual({ events: [], environmentIds: null });

    const audited = await api.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, admin.organization.organizationId),
          eq(auditEvents.action, "connections.notifications-update"),
        ),
      );
    expect(audited.map((event) => event.summary)).toEqual([
      { fields: ["environmentIds", "events"] },
      { fields: ["environmentIds", "events"] },
    ]);
  });

  it("answers 400 for another organization's environment, an unknown event or a connection that is not a chat", async () => {
    const connection = await connectSlack("Rules");
    const stranger = await api.createMember({ role: "admin" });
    const theirs = await api.createEnvironment(stranger.organization.tenantId, "theirs");
    const before = await rulesStored(connection.id);
    for (const [body, field] of [
      [{ events: ["deployment.failed"], environmentIds: [theirs.id] }, "environmentIds"],
      [{ events: ["deployment.exploded"], environmentIds: null }, "events.0"],
      [{ events: ["deployment.failed"], environmentIds: ["not-an-id"] }, "environmentIds.0"],
      [{ events: ["deployment.failed"] }, "environmentIds"],
    ] as const) {
      const response = await call("PUT", connectionPaths.notifications(t(), connection.id), body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { fieldErrors?: Record<string, string[]> };
      expect(Object.keys(answer.fieldErrors ?? {})).toEqual([field]);
    }
    expect(await rulesStored(connection.id)).toEqual(before);

    const datadog = await insertConnection(api.db, api.secrets, {
      organizationId: admin.organization.organizationId,
      kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
      method: "api-key",
      fields: { DD_URL: "https://api.datadoghq.com" },
      secretFields: { DD_API_KEY: "key" },
    });
    const notChat = await call("PUT", connectionPaths.notifications(t(), datadog.id), {
      events: ["deployment.failed"],
      environmentIds: null,
    });
    expect(notChat.status).toBe(400);
    expect(await notChat.json()).toEqual({
      message: "Only Slack and Teams connections post notifications.",
      code: apiErrorCodes.validationFailed,
    });
    expect(await rulesStored(datadog.id)).toBeNull();
  });

  it("answers 404 for another organization's connection and for developers 403, changing nothing", async () => {
    const connection = await connectSlack("Guarded");
    const stranger = await api.createMember({ role: "admin" });
    const body = { events: ["clone.finished"], environmentIds: null };
    const foreign = await api.call(
      "PUT",
      connectionPaths.notifications(stranger.organization.tenantId, connection.id),
      { token: stranger.user.token, json: body },
    );
    expect(foreign.status).toBe(404);
    const developer = { user: await api.createUser(), organization: admin.organization };
    await api.addMember(developer.user.id, admin.organization.organizationId, "developer");
    const refused = await call("PUT", connectionPaths.notifications(t(), connection.id), body, developer);
    expect(refused.status).toBe(403);
    expect(await rulesStored(connection.id)).toEqual(defaultNotificationRules);
  });
});

describe("a new Slack connection", () => {
  it("posts the first successful deployment: 'Deployment succeeded' is on by default, for every environment", async () => {
    // An organization of its own: the connections of the other tests would post this deployment too.
    const owner = await api.createMember({ role: "admin" });
    const connection = await connectSlack("First deploy", owner);
    const production = await api.createEnvironment(t(owner), "production");
    const created = await call(
      "POST",
      servicePaths.list(t(owner), production.id),
      { serviceType: "database", name: "orders", config: defaultServiceConfigs.database, launch: true },
      owner,
    );
    expect(created.status).toBe(201);
    await api.engine.runner.runUntilIdle();
    const before = slack.delivered.length;
    await createDeliveryWorker({
      db: api.db,
      secrets: api.secrets,
      settings: { timeScale: 1, pollIntervalMs: 10 },
    }).runDue();
    expect(JSON.stringify(slack.delivered.slice(before))).toContain(
      "Deployment succeeded: orders in production",
    );
    expect(connection.notifications?.environmentIds).toBeNull();
  });

  it("says what it is used by: the rules' environments, every one when they cover all", async () => {
    const owner = await api.createMember({ role: "admin" });
    const connection = await connectSlack("Used", owner);
    expect(connection.usage).toEqual([
      {
        type: "notifications",
        id: connection.id,
        name: "Notifications of every environment",
        environmentName: null,
      },
    ]);
    const staging = await api.createEnvironment(t(owner), "staging");
    const chosen = await call(
      "PUT",
      connectionPaths.notifications(t(owner), connection.id),
      { events: ["deployment.failed"], environmentIds: [staging.id] },
      owner,
    );
    const { connection: saved } = connectionResponseSchema.parse(await chosen.json());
    expect(saved.usage).toEqual([
      { type: "notifications", id: staging.id, name: "Notifications of staging", environmentName: "staging" },
    ]);
    const silent = await call(
      "PUT",
      connectionPaths.notifications(t(owner), connection.id),
      { events: [], environmentIds: null },
      owner,
    );
    expect(connectionResponseSchema.parse(await silent.json()).connection.usage).toEqual([]);
    // Its own rules do not stop it from being deleted.
    await call(
      "PUT",
      connectionPaths.notifications(t(owner), connection.id),
      { events: ["deployment.failed"], environmentIds: null },
      owner,
    );
    expect(
      (await call("DELETE", connectionPaths.one(t(owner), connection.id), undefined, owner)).status,
    ).toBe(204);
  });
});

describe("GET connections/{id}/deliveries", () => {
  it("lists a failed deployment's message with each attempt, newest first, to any member", async () => {
    // An organization of its own: the connections of the other tests would post this failure too.
    const owner = await api.createMember({ role: "admin" });
    await api.setFeatureFlag(t(owner), "notification-connections", true);
    const connection = await connectSlack("Delivered", owner);
    const production = await api.createEnvironment(t(owner), "production");
    const created = await call(
      "POST",
      servicePaths.list(t(owner), production.id),
      {
        serviceType: "database",
        name: "orders-fail-deploy",
        config: defaultServiceConfigs.database,
        launch: true,
      },
      owner,
    );
    expect(created.status).toBe(201);
    await api.engine.runner.runUntilIdle();

    const worker = createDeliveryWorker({
      db: api.db,
      secrets: api.secrets,
      settings: { timeScale: 1, pollIntervalMs: 10 },
    });
    slack.failNext(1, { status: 500, body: "rollup_error" });
    await worker.runDue();

    const readOnly = { user: await api.createUser(), organization: owner.organization };
    await api.addMember(readOnly.user.id, owner.organization.organizationId, "read-only");
    const response = await call(
      "GET",
      connectionPaths.deliveries(t(owner), connection.id),
      undefined,
      readOnly,
    );
    expect(response.status).toBe(200);
    const { deliveries } = deliveryListSchema.parse(await response.json());
    expect(deliveries).toEqual([
      {
        id: expect.any(String),
        event: "deployment.failed",
        summary: "Deployment failed: orders-fail-deploy in production",
        environmentId: production.id,
        status: "pending",
        attempts: [{ at: expect.any(String), ok: false, message: "Slack answered 500: rollup_error" }],
        nextAttemptAt: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(deliveries)).not.toContain("live-hook");
  });

  it(`keeps to the newest ${DELIVERY_LIST_LIMIT}, and answers 404 for another organization's connection`, async () => {
    const connection = await connectSlack("Busy");
    const start = Date.parse("2031-05-01T00:00:00.000Z");
    await api.db.insert(notificationDeliveries).values(
      Array.from({ length: DELIVERY_LIST_LIMIT + 5 }, (_, index) => ({
        connectionId: connection.id,
        event: "deployment.succeeded",
        message: { title: `Deployment ${index}`, text: "", link: "https://console.acme.test", facts: {} },
        status: "delivered",
        attempts: [{ at: new Date(start + index * 1000).toISOString(), ok: true, message: "ok" }],
        createdAt: new Date(start + index * 1000),
      })),
    );
    const { deliveries } = deliveryListSchema.parse(
      await (await call("GET", connectionPaths.deliveries(t(), connection.id))).json(),
    );
    expect(deliveries).toHaveLength(DELIVERY_LIST_LIMIT);
    expect(deliveries[0]).toMatchObject({
      summary: `Deployment ${DELIVERY_LIST_LIMIT + 4}`,
      nextAttemptAt: null,
    });
    expect(deliveries.at(-1)?.summary).toBe("Deployment 5");

    const stranger = await api.createMember({ role: "admin" });
    const foreign = await api.call(
      "GET",
      connectionPaths.deliveries(stranger.organization.tenantId, connection.id),
      {
        token: stranger.user.token,
      },
    );
    expect(foreign.status).toBe(404);
  });
});
