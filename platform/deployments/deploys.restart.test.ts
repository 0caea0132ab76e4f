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
import { engineJobs, environments, organizations, resourceLogs, resources } from "../db/schema";
import { openReopenableTestDb } from "../testing/db";
import { secretCipherFor } from "../lib/cipher";
import { createService } from "../services/services";
import { fakeDriver } from "../testing/driver";
import { DEPLOY_JOB_KIND } from "./deploys";
import { createOperations, type Operations } from "../operations/operations";

/*
 * A restart in the middle of a deployment: the engine stops between two phases, the connection closes, and a new
 * engine on a new connection finishes the deployment. The clock is the test's, so each phase ends exactly when the
 * test moves time past it (the fake driver's phases last 2, 5 and 3 seconds).
 */

let store: Awaited<ReturnType<typeof openReopenableTestDb>>;
let dataDir: string;
beforeAll(async () => {
  store = await openReopenableTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), "deploy-restart-"));
});
afterAll(async () => {
  await store.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

const settings: EngineConfig = { timeScale: 1, pollIntervalMs: 5, failureInjection: false };
let clock = new Date("2031-01-01T00:00:00.000Z");
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

function startEngine(database: OpenDatabase): Operations {
  const secrets = secretCipherFor({ dataDir });
  const engine = createOperations({
    db: database.db,
    config: { engine: settings, appUrl: "http://localhost:3000" },
    secrets,
    now: () => clock,
    driver: fakeDriver(),
  });
  engine.runner.start();
  return engine;
}

async function observe(database: OpenDatabase, resourceId: string) {
  const [row] = await database.db.select().from(resources).where(eq(resources.id, resourceId));
  const [job] = await database.db.select().from(engineJobs).where(eq(engineJobs.kind, DEPLOY_JOB_KIND));
  return { stage: row?.stage, state: job?.state };
}

async function reach(
  engine: Operations,
  database: OpenDatabase,
  resourceId: string,
  seconds: number,
  expected: { stage: string; state: string },
) {
  advance(seconds);
  engine.runner.wake();
  await vi.waitFor(async () => expect(await observe(database, resourceId)).toEqual(expected), {
    timeout: 10_000,
  });
}

it("resumes a deployment after a restart and finishes it", { timeout: 120_000 }, async () => {
  let database = await store.open();
  const [organization] = await database.db
    .insert(organizations)
    .values({ id: `org_${randomUUID().slice(0, 12)}`, name: `org-${randomUUID()}`, displayName: "Restart" })
    .returning();
  if (!organization) throw new Error("no organization");
  const [environment] = await database.db
    .insert(environments)
    .values({
      tenantId: organization.tenantId,
      name: "production",
      cloudProvider: "AWS",
      region: "us-east-1",
    })
    .returning();
  if (!environment) throw new Error("no environment");

  let engine = startEngine(database);
  const resourceId = await database.db.transaction(async (tx) => {
    const created = await createService(
      tx,
      {
        environment,
        serviceType: "database",
        name: "orders-db",
        config: defaultServiceConfigs.database,
        settings: defaultServiceSettings,
        launch: true,
        actor: "Ada Lovelace",
      },
      clock,
    );
    if (!created) throw new Error("no service");
    await engine.deploys.enqueue(
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
  expect(await observe(database, resourceId)).toEqual({ stage: "STAGE_QUEUED", state: "QUEUED" });

  await reach(engine, database, resourceId, 1, { stage: "STAGE_IN_PROGRESS", state: "PHASE_0" });
  await reach(engine, database, resourceId, 2, { stage: "STAGE_IN_PROGRESS", state: "PHASE_1" });

  // The restart: the runner stops, the connection closes, nothing is kept in memory.
  await engine.runner.stop();
  await database.close();
  advance(60);
  database = await store.open();
  expect(await observe(database, resourceId)).toEqual({ stage: "STAGE_IN_PROGRESS", state: "PHASE_1" });
  engine = startEngine(database);

  // Overdue after the downtime, the phase ends at once; the last one when its time comes.
  await vi.waitFor(
    async () =>
      expect(await observe(database, resourceId)).toEqual({ stage: "STAGE_IN_PROGRESS", state: "PHASE_2" }),
    { timeout: 10_000 },
  );
  await reach(engine, database, resourceId, 3, { stage: "STAGE_COMPLETED", state: "COMPLETED" });
  await engine.runner.stop();

  const [job] = await database.db.select().from(engineJobs).where(eq(engineJobs.kind, DEPLOY_JOB_KIND));
  expect(job?.status).toBe("succeeded");
  expect(job?.history.map((entry) => entry.state)).toEqual([
    "QUEUED",
    "PHASE_0",
    "PHASE_1",
    "PHASE_2",
    "COMPLETED",
  ]);
  const [row] = await database.db.select().from(resources).where(eq(resources.id, resourceId));
  expect(row?.pods).toEqual([
    { name: "orders-db-1-a", status: "Running" },
    { name: "orders-db-1-b", status: "Running" },
  ]);
  // Each phase wrote its lines once, across the restart.
  const logs = await database.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, resourceId));
  expect(logs).toHaveLength(6);
  // The secrets sealed by the new engine open with the key kept in the data dir.
  expect(
    row?.sealedAttributes &&
      secretCipherFor({ dataDir }).decrypt(row.sealedAttributes, `resource-attributes:${resourceId}`),
  ).toContain("password");
  await database.close();
});
