import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { CloningState } from "#contract/cloning";
import type { EngineConfig } from "../lib/config";
import type { OpenDatabase } from "../db/index";
import { engineJobs, environments, environmentVariables, organizations } from "../db/schema";
import { openReopenableTestDb } from "../testing/db";
import { plaintextOf, storedValue } from "../environments/variables";
import { secretCipherFor } from "../lib/cipher";
import { cloneJobOf } from "./cloning";
import { createOperations, type Operations } from "../operations/operations";

/*
 * A restart in the middle of a clone: the engine stops, the database connection closes, and a new engine on a new
 * connection (the same key file in the data dir) carries the clone on to review-and-deploy. The clock is the
 * test's, so each step runs exactly when the test moves time past it.
 */

let store: Awaited<ReturnType<typeof openReopenableTestDb>>;
let dataDir: string;
beforeAll(async () => {
  store = await openReopenableTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), "engine-restart-"));
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
  // Each start reads the key from the data dir, as the platform does.
  const secrets = secretCipherFor({ dataDir });
  const engine = createOperations({
    db: database.db,
    config: { engine: settings, appUrl: "http://localhost:3000" },
    secrets,
    now: () => clock,
  });
  engine.runner.start();
  return engine;
}

async function stateOf(database: OpenDatabase, environmentId: string): Promise<CloningState | undefined> {
  return (await cloneJobOf(database.db, environmentId))?.state as CloningState | undefined;
}

/** Moves time past the current step and waits until the polling runner has taken the clone to `state`. */
async function reach(
  engine: Operations,
  database: OpenDatabase,
  environmentId: string,
  seconds: number,
  state: CloningState,
) {
  advance(seconds);
  engine.runner.wake();
  await vi.waitFor(async () => expect(await stateOf(database, environmentId)).toBe(state), {
    timeout: 10_000,
  });
}

// Opening a file-backed database twice (migrations included) is slow on a busy machine.
it("resumes a clone after a restart and finishes it", { timeout: 120_000 }, async () => {
  let database = await store.open();
  const [organization] = await database.db
    .insert(organizations)
    .values({ id: `org_${randomUUID().slice(0, 12)}`, name: `org-${randomUUID()}`, displayName: "Restart" })
    .returning();
  if (!organization) throw new Error("no organization");
  const [source] = await database.db
    .insert(environments)
    .values({ tenantId: organization.tenantId, name: "source", cloudProvider: "AWS", region: "eu-west-1" })
    .returning();
  if (!source) throw new Error("no source");
  const variableId = randomUUID();
  await database.db.insert(environmentVariables).values({
    id: variableId,
    environmentId: source.id,
    name: "API_KEY",
    secret: true,
    ...storedValue(secretCipherFor({ dataDir }), {
      environmentId: source.id,
      variableId,
      value: "k-123",
      secret: true,
    }),
  });

  let engine = startEngine(database);
  const target = await database.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(environments)
      .values({
        tenantId: organization.tenantId,
        name: "target",
        cloningStage: "STAGE_IN_PROGRESS",
        clonedFromId: source.id,
        clonedFromName: source.name,
      })
      .returning();
    if (!created) throw new Error("no target");
    await engine.cloning.enqueue(tx, { source, target: created }, clock);
    return created;
  });

  await reach(engine, database, target.id, 3, "WAITING_FOR_LAUNCH_RESOURCES_EVENT");
  await database.db.transaction(async (tx) => {
    const job = await cloneJobOf(tx, target.id, { lock: true });
    if (!job || !(await engine.cloning.launchResources(tx, job, clock))) throw new Error("not launched");
  });
  await reach(engine, database, target.id, 2, "LAUNCH_RESOURCES");

  // The restart: the runner stops, the connection closes, nothing is kept in memory.
  await engine.runner.stop();
  await database.close();
  advance(60);
  database = await store.open();
  expect(await stateOf(database, target.id)).toBe("LAUNCH_RESOURCES");
  engine = startEngine(database);

  // Overdue after the downtime, the step runs at once; the next ones when their time comes.
  await vi.waitFor(
    async () => expect(await stateOf(database, target.id)).toBe("LAUNCH_RESOURCES_SUCCEEDED"),
    {
      timeout: 10_000,
    },
  );
  await reach(engine, database, target.id, 1, "CREATING_DRAFT_APPLICATIONS");
  await reach(engine, database, target.id, 3, "CREATING_DRAFT_APPLICATIONS_SUCCEEDED");
  await reach(engine, database, target.id, 1, "REVIEW_AND_DEPLOY_APPLICATIONS");
  await engine.runner.stop();

  const [job] = await database.db.select().from(engineJobs).where(eq(engineJobs.environmentId, target.id));
  expect(job?.status).toBe("succeeded");
  expect(job?.history.map((entry) => entry.state)).toEqual([
    "CREATING_DRAFT_RESOURCES",
    "WAITING_FOR_LAUNCH_RESOURCES_EVENT",
    "QUEUE_RESOURCES_FOR_LAUNCH",
    "LAUNCH_RESOURCES",
    "LAUNCH_RESOURCES_SUCCEEDED",
    "CREATING_DRAFT_APPLICATIONS",
    "CREATING_DRAFT_APPLICATIONS_SUCCEEDED",
    "REVIEW_AND_DEPLOY_APPLICATIONS",
  ]);
  // The secret copied before the restart still opens with the key kept in the data dir.
  const [copied] = await database.db
    .select()
    .from(environmentVariables)
    .where(eq(environmentVariables.environmentId, target.id));
  expect(copied && plaintextOf(secretCipherFor({ dataDir }), copied)).toBe("k-123");
  await database.close();
});
