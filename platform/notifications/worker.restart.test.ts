import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { defaultServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import type { EngineConfig } from "../lib/config";
import type { OpenDatabase } from "../db/index";
import { environments, notificationDeliveries, organizations, resources } from "../db/schema";
import { openReopenableTestDb } from "../testing/db";
import { createOperations, type Operations } from "../operations/operations";
import { secretCipherFor } from "../lib/cipher";
import { createService } from "../services/services";
import { fakeDriver } from "../testing/driver";
import { startSlackServer, type SlackServer } from "../testing/chat-servers";
import { insertConnection } from "../testing/notification-connections";
import { createDeliveryWorker, type DeliveryWorker } from "./worker";

/*
 * A restart between a failed deployment and its notification: Slack is down when the deployment fails, the platform
 * stops (worker, engine, connection), and a new one on the same database posts the message once Slack is back.
 * The clock is the test's.
 */

let store: Awaited<ReturnType<typeof openReopenableTestDb>>;
let dataDir: string;
let slack: SlackServer;
beforeAll(async () => {
  store = await openReopenableTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), "delivery-restart-"));
  slack = await startSlackServer({ hooks: ["live-hook"] });
});
afterAll(async () => {
  await slack.close();
  await store.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

const settings: EngineConfig = { timeScale: 1, pollIntervalMs: 5, failureInjection: true };
let clock = new Date("2033-01-01T00:00:00.000Z");
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

function startPlatform(database: OpenDatabase): { engine: Operations; worker: DeliveryWorker } {
  const secrets = secretCipherFor({ dataDir });
  const engine = createOperations({
    db: database.db,
    config: { engine: settings, appUrl: "https://console.acme.test" },
    secrets,
    now: () => clock,
    driver: fakeDriver(),
  });
  const worker = createDeliveryWorker({ db: database.db, secrets, settings, now: () => clock });
  engine.runner.start();
  worker.start();
  return { engine, worker };
}

const deliveriesIn = (database: OpenDatabase) => database.db.select().from(notificationDeliveries);

it("delivers a failed deployment's message after a restart", { timeout: 120_000 }, async () => {
  let database = await store.open();
  const [organization] = await database.db
    .insert(organizations)
    .values({
      id: `org_${randomUUID().slice(0, 12)}`,
      name: `org-${randomUUID()}`,
      displayName: "Acme Robotics",
    })
    .returning();
  if (!organization) throw new Error("no organization");
  const [environment] = await database.db
    .insert(environments)
    .values({ tenantId: organization.tenantId, name: "production" })
    .returning();
  if (!environment) throw new Error("no environment");
  await insertConnection(database.db, secretCipherFor({ dataDir }), {
    organizationId: organization.id,
    kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
    method: "webhook",
    secretFields: { WEBHOOK_URL: slack.webhookUrl("live-hook") },
  });

  let platform = startPlatform(database);
  const serviceId = await database.db.transaction(async (tx) => {
    const created = await createService(
      tx,
      {
        environment,
        serviceType: "database",
        name: "orders-fail-deploy",
        config: defaultServiceConfigs.database,
        settings: defaultServiceSettings,
        launch: true,
        actor: "Ada Lovelace",
      },
      clock,
    );
    if (!created) throw new Error("no service");
    await platform.engine.deploys.enqueue(
      tx,
      {
        resource: created.resource,
        environment,
        historyId: created.history.id,
        action: "Create",
        deployNumber: 1,
      },
      clock,
    );
    return created.resource.id;
  });

  // Slack is down when the deployment fails: the first attempt fails and the next one waits 30 s.
  slack.failNext(1, { status: 503, body: "Service Unavailable" });
  await vi.waitFor(
    async () => {
      advance(2);
      platform.engine.runner.wake();
      const [service] = await database.db.select().from(resources).where(eq(resources.id, serviceId));
      expect(service?.stage).toBe("STAGE_FAILED");
    },
    { timeout: 20_000, interval: 50 },
  );
  await vi.waitFor(async () => expect((await deliveriesIn(database))[0]?.attempts).toHaveLength(1), {
    timeout: 10_000,
  });
  const [waiting] = await deliveriesIn(database);
  expect(waiting).toMatchObject({ status: "pending", attempts: [{ ok: false }] });
  expect(slack.delivered).toEqual([]);

  // The restart: everything stops, the connection closes, nothing is kept in memory.
  await platform.worker.stop();
  await platform.engine.runner.stop();
  await database.close();
  advance(60);
  database = await store.open();
  platform = startPlatform(database);

  await vi.waitFor(async () => expect((await deliveriesIn(database))[0]?.status).toBe("delivered"), {
    timeout: 10_000,
  });
  await platform.worker.stop();
  await platform.engine.runner.stop();

  const [delivered] = await deliveriesIn(database);
  expect(delivered?.attempts.map((attempt) => attempt.ok)).toEqual([false, true]);
  expect(slack.delivered).toHaveLength(1);
  const [posted] = slack.delivered;
  expect(posted?.text).toMatch(/^Deployment failed: orders-fail-deploy in production: The deployment of/);
  expect(JSON.stringify(posted?.blocks)).toContain(
    `<https://console.acme.test/env/production/services/${serviceId}|Open in Cloud Console>`,
  );
  await database.close();
});
