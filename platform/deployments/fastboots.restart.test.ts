import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { EngineConfig } from "../lib/config";
import type { OpenDatabase } from "../db/index";
import { engineJobs, environments, organizations, resourceHistory, resources } from "../db/schema";
import { openReopenableTestDb } from "../testing/db";
import { secretCipherFor } from "../lib/cipher";
import { fakeDriver } from "../testing/driver";
import { createOperations, type Operations } from "../operations/operations";
import { FASTBOOT_JOB_KIND } from "./fastboots";

/*
 * A restart in the middle of a fastboot: the network is deploying when the engine stops and the connection closes;
 * a new engine on a new connection finishes the network and launches the rest in order. The clock is the test's and
 * steps take their real (fake driver's) durations, so the test moves time and runs what is due.
 */

let store: Awaited<ReturnType<typeof openReopenableTestDb>>;
let dataDir: string;
beforeAll(async () => {
  store = await openReopenableTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), "fastboot-restart-"));
});
afterAll(async () => {
  await store.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

const settings: EngineConfig = { timeScale: 1, pollIntervalMs: 5, failureInjection: false };
let clock = new Date("2031-02-01T00:00:00.000Z");
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

function engineOn(database: OpenDatabase): Operations {
  return createOperations({
    db: database.db,
    config: { engine: settings, appUrl: "http://localhost:3000" },
    secrets: secretCipherFor({ dataDir }),
    now: () => clock,
    driver: fakeDriver(),
  });
}

async function stagesOf(database: OpenDatabase, environmentId: string) {
  const rows = await database.db.select().from(resources).where(eq(resources.environmentId, environmentId));
  return Object.fromEntries(rows.map((row) => [row.name, row.stage]));
}

it("resumes a fastboot after a restart and launches the rest in order", { timeout: 120_000 }, async () => {
  let database = await store.open();
  const [organization] = await database.db
    .insert(organizations)
    .values({ id: `org_${randomUUID().slice(0, 12)}`, name: `org-${randomUUID()}`, displayName: "Restart" })
    .returning();
  if (!organization) throw new Error("no organization");
  const [environment] = await database.db
    .insert(environments)
    .values({ tenantId: organization.tenantId, name: "demo", cloudProvider: "AWS", region: "us-east-1" })
    .returning();
  if (!environment) throw new Error("no environment");

  let engine = engineOn(database);
  const job = await database.db.transaction((tx) =>
    engine.fastboots.create(tx, { environment, stack: "web-postgres", actor: "Ada Lovelace" }, clock),
  );
  await engine.runner.runDue();
  advance(1);
  await engine.runner.runDue();
  expect(await stagesOf(database, environment.id)).toEqual({
    network: "STAGE_IN_PROGRESS",
    postgres: "STAGE_DRAFT",
    web: "STAGE_DRAFT",
  });

  // The restart: the runner stops, the connection closes, nothing is kept in memory.
  await engine.runner.stop();
  await database.close();
  advance(60);
  database = await store.open();
  engine = engineOn(database);

  const statusOf = async () => {
    const [row] = await database.db.select().from(engineJobs).where(eq(engineJobs.id, job.id));
    return row;
  };
  for (let round = 0; round < 200 && (await statusOf())?.status !== "succeeded"; round += 1) {
    await engine.runner.runDue();
    advance(20);
  }
  await engine.runner.stop();

  const ended = await statusOf();
  expect(ended).toMatchObject({ kind: FASTBOOT_JOB_KIND, status: "succeeded", state: "COMPLETED" });
  expect(await stagesOf(database, environment.id)).toEqual({
    network: "STAGE_COMPLETED",
    postgres: "STAGE_COMPLETED",
    web: "STAGE_COMPLETED",
  });
  // It launched each service once, after what it waits for: a launch after each wait for a deployment.
  expect(ended?.history.map((entry) => entry.state)).toEqual([
    "LAUNCHING",
    "DEPLOYING",
    "LAUNCHING",
    "DEPLOYING",
    "LAUNCHING",
    "DEPLOYING",
    "LAUNCHING",
    "COMPLETED",
  ]);
  const provisions = await database.db
    .select({ name: resources.name, at: resourceHistory.at })
    .from(resourceHistory)
    .innerJoin(resources, eq(resources.id, resourceHistory.resourceId))
    .where(and(eq(resources.environmentId, environment.id), eq(resourceHistory.action, "Provision")));
  expect(provisions.map((entry) => entry.name).sort()).toEqual(["network", "postgres", "web"]);
  await database.close();
});
