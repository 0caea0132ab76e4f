import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_DELIVERY_ATTEMPTS } from "#contract/connections";
import type { OpenDatabase } from "../db/index";
import { connections, notificationDeliveries, organizations } from "../db/schema";
import { openTestDb } from "../testing/db";
import { ephemeralSecretCipher } from "../lib/cipher";
import type { NotificationMessage } from "../connections/chat-messages";
import {
  startSlackServer,
  startTeamsServer,
  type SlackServer,
  type TeamsServer,
} from "../testing/chat-servers";
import { insertConnection } from "../testing/notification-connections";
import { claimDueDelivery, createDeliveryWorker, DELIVERY_LEASE_MS, type Delivery } from "./worker";

let database: OpenDatabase;
let slack: SlackServer;
let teams: TeamsServer;
let organizationId: string;
const secrets = ephemeralSecretCipher();
beforeAll(async () => {
  database = await openTestDb();
  slack = await startSlackServer({ hooks: ["live-hook"] });
  teams = await startTeamsServer({ hooks: ["live-hook"] });
  const [organization] = await database.db
    .insert(organizations)
    .values({ id: `org_${randomUUID().slice(0, 12)}`, name: `org-${randomUUID()}`, displayName: "Acme" })
    .returning();
  if (!organization) throw new Error("no organization");
  organizationId = organization.id;
});
afterAll(async () => {
  await Promise.all([slack.close(), teams.close()]);
  await database.close();
});

let clock = new Date("2032-01-01T00:00:00.000Z");
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};
const worker = () =>
  createDeliveryWorker({
    db: database.db,
    secrets,
    settings: { timeScale: 1, pollIntervalMs: 10 },
    now: () => clock,
  });

const message = (title: string): NotificationMessage => ({
  title,
  text: `${title}: orders in production failed`,
  link: "https://console.acme.test/env/production/services/s1",
  facts: { Environment: "production" },
});

async function slackConnection(hook = "live-hook") {
  return insertConnection(database.db, secrets, {
    organizationId,
    kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
    method: "webhook",
    secretFields: { WEBHOOK_URL: slack.webhookUrl(hook) },
  });
}

async function pending(connectionId: string, title: string): Promise<Delivery> {
  const [row] = await database.db
    .insert(notificationDeliveries)
    .values({
      connectionId,
      event: "deployment.failed",
      message: message(title),
      nextAttemptAt: clock,
      createdAt: clock,
    })
    .returning();
  if (!row) throw new Error("no delivery");
  return row;
}

async function reload(id: string): Promise<Delivery | undefined> {
  const [row] = await database.db
    .select()
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.id, id));
  return row;
}
const titlesPosted = (server: { delivered: Record<string, unknown>[] }) =>
  server.delivered.map((body) => String(body.text ?? body.title).split(":")[0]);

describe("the delivery worker", () => {
  it("posts a due delivery through its connection and records the attempt", async () => {
    const connection = await slackConnection();
    const delivery = await pending(connection.id, "First");
    const teamsConnection = await insertConnection(database.db, secrets, {
      organizationId,
      kind: "COMMUNICATION_PLATFORM_TYPE_TEAMS",
      method: "webhook",
      secretFields: { WEBHOOK_URL: teams.webhookUrl("live-hook") },
    });
    const toTeams = await pending(teamsConnection.id, "To Teams");

    expect(await worker().runDue()).toBe(2);
    expect(await reload(delivery.id)).toMatchObject({
      status: "delivered",
      leasedUntil: null,
      attempts: [{ at: clock.toISOString(), ok: true, message: "Slack accepted the message." }],
    });
    expect(titlesPosted(slack)).toEqual(["First"]);
    expect((await reload(toTeams.id))?.status).toBe("delivered");
    expect(teams.delivered).toEqual([expect.objectContaining({ title: "To Teams" })]);
    expect(await worker().runDue()).toBe(0);
  });

  it("retries a failed post after 30 s, then twice as long each time, until it goes through", async () => {
    const connection = await slackConnection();
    const delivery = await pending(connection.id, "Retried");
    const start = clock.getTime();
    slack.failNext(3, { status: 503, body: "Service Unavailable" });
    const runner = worker();
    const at = (seconds: number) => new Date(start + seconds * 1000);

    expect(await runner.runDue()).toBe(1);
    expect(await reload(delivery.id)).toMatchObject({ status: "pending", nextAttemptAt: at(30) });
    advance(29);
    expect(await runner.runDue()).toBe(0);
    advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(await reload(delivery.id)).toMatchObject({ status: "pending", nextAttemptAt: at(90) });
    advance(60);
    expect(await runner.runDue()).toBe(1);
    expect(await reload(delivery.id)).toMatchObject({ status: "pending", nextAttemptAt: at(210) });
    advance(120);
    expect(await runner.runDue()).toBe(1);

    const done = await reload(delivery.id);
    expect(done?.status).toBe("delivered");
    expect(done?.attempts.map((attempt) => [attempt.at, attempt.ok, attempt.message])).toEqual([
      [at(0).toISOString(), false, "Slack answered 503: Service Unavailable"],
      [at(30).toISOString(), false, "Slack answered 503: Service Unavailable"],
      [at(90).toISOString(), false, "Slack answered 503: Service Unavailable"],
      [at(210).toISOString(), true, "Slack accepted the message."],
    ]);
    expect(titlesPosted(slack).filter((title) => title === "Retried")).toHaveLength(1);
  });

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} attempts and says why each one failed`, async () => {
    const connection = await slackConnection("removed-hook");
    const delivery = await pending(connection.id, "Lost");
    const runner = worker();
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt += 1) {
      expect(await runner.runDue()).toBe(1);
      advance(30 * 2 ** (attempt - 1));
    }
    expect(warnings).toHaveBeenCalledTimes(1);
    warnings.mockRestore();
    const failed = await reload(delivery.id);
    expect(failed?.status).toBe("failed");
    expect(failed?.attempts).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(failed?.attempts.every((attempt) => !attempt.ok && attempt.message.includes("(no_service)"))).toBe(
      true,
    );
    advance(3600);
    expect(await runner.runDue()).toBe(0);
  });

  it("says so when the connection's secrets do not open", async () => {
    const connection = await insertConnection(database.db, ephemeralSecretCipher(), {
      organizationId,
      kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
      method: "webhook",
      secretFields: { WEBHOOK_URL: slack.webhookUrl("live-hook") },
    });
    const delivery = await pending(connection.id, "Sealed with another key");
    await worker().runDue();
    expect((await reload(delivery.id))?.attempts).toEqual([
      {
        at: clock.toISOString(),
        ok: false,
        message:
          "The connection's secrets could not be opened: The secret was encrypted with a key that is not configured.",
      },
    ]);
    // Its retries would run into the next tests.
    await database.db.delete(connections).where(eq(connections.id, connection.id));
  });

  it("leaves a leased delivery alone until its lease runs out, then delivers it", async () => {
    const connection = await slackConnection();
    const delivery = await pending(connection.id, "Leased");
    // Another platform claimed it and died before recording anything.
    expect((await claimDueDelivery(database.db, clock))?.id).toBe(delivery.id);
    expect(await worker().runDue()).toBe(0);
    advance(DELIVERY_LEASE_MS / 1000);
    expect(await worker().runDue()).toBe(1);
    expect(await reload(delivery.id)).toMatchObject({ status: "delivered", leasedUntil: null });
  });

  it("never posts a delivery twice when two workers share the database", async () => {
    const connection = await slackConnection();
    const titles = Array.from({ length: 8 }, (_, index) => `Shared ${index}`);
    for (const title of titles) await pending(connection.id, title);
    const before = slack.delivered.length;
    const attempted = await Promise.all([worker().runDue(), worker().runDue()]);
    expect(attempted[0] + attempted[1]).toBe(titles.length);
    expect(titlesPosted({ delivered: slack.delivered.slice(before) }).sort()).toEqual(titles.sort());
  });

  it("polls once started and stops", async () => {
    const connection = await slackConnection();
    const delivery = await pending(connection.id, "Polled");
    const polling = worker();
    polling.start();
    await vi.waitFor(async () => expect((await reload(delivery.id))?.status).toBe("delivered"), {
      timeout: 5000,
    });
    await polling.stop();
    expect(polling.isRunning).toBe(false);
  });
});
