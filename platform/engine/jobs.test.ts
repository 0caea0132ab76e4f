import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { OpenDatabase } from "../db/index";
import { engineJobs, featureFlags } from "../db/schema";
import { openTestDb } from "../testing/db";
import { createJobRunner, enqueueJob, moveJob, outside, type Job, type JobKind } from "./jobs";

let database: OpenDatabase;
beforeAll(async () => {
  database = await openTestDb();
});
afterAll(() => database.close());

const at = (iso: string) => new Date(iso);

async function jobById(id: string): Promise<Job> {
  const [job] = await database.db.select().from(engineJobs).where(eq(engineJobs.id, id));
  if (!job) throw new Error(`job ${id} is missing`);
  return job;
}

/** A two-step kind: `first` waits `delayMs`, then `second` finishes. */
function twoStepKind(kind: string, delayMs: number, seen: string[] = []): JobKind {
  return {
    kind,
    async step(job) {
      seen.push(`${job.id}:${job.state}`);
      if (job.state === "first") return { state: "second", status: "queued", delayMs };
      return { state: "done", status: "succeeded" };
    },
    giveUp: (_job, error) => ({ state: "broken", status: "failed", details: error }),
  };
}

describe("the job runner", () => {
  it("runs a step only once its time has come, and records each state with the time it was entered", async () => {
    let clock = at("2030-01-01T00:00:00.000Z");
    const runner = createJobRunner({
      db: database.db,
      kinds: [twoStepKind("timed", 5000)],
      pollIntervalMs: 1000,
      now: () => clock,
    });
    const job = await enqueueJob(database.db, { kind: "timed", state: "first", delayMs: 2000 }, clock);

    expect(await runner.runDue()).toBe(0);
    clock = at("2030-01-01T00:00:02.000Z");
    expect(await runner.runDue()).toBe(1);
    expect(await jobById(job.id)).toMatchObject({
      state: "second",
      status: "queued",
      runAt: at("2030-01-01T00:00:07.000Z"),
    });
    clock = at("2030-01-01T00:00:07.000Z");
    expect(await runner.runDue()).toBe(1);
    expect(await jobById(job.id)).toMatchObject({
      state: "done",
      status: "succeeded",
      history: [
        { state: "first", at: "2030-01-01T00:00:00.000Z" },
        { state: "second", at: "2030-01-01T00:00:02.000Z" },
        { state: "done", at: "2030-01-01T00:00:07.000Z" },
      ],
    });
    expect(await runner.runDue()).toBe(0);
  });

  it("rolls back a step that throws, retries it later, and gives up after the last attempt", async () => {
    let clock = at("2030-02-01T00:00:00.000Z");
    const flaky: JobKind = {
      kind: "flaky",
      async step(_job, tx) {
        // A write the failure must undo.
        await tx
          .insert(featureFlags)
          .values({ tenantId: null, name: "written-by-a-failed-step", enabled: true });
        throw new Error("the provider is down");
      },
      giveUp: (_job, error) => ({ state: "first_FAILED", status: "failed", details: `gave up: ${error}` }),
    };
    const runner = createJobRunner({
      db: database.db,
      kinds: [flaky],
      pollIntervalMs: 1000,
      now: () => clock,
      maxAttempts: 3,
      retryDelayMs: (attempt) => attempt * 1000,
    });
    const job = await enqueueJob(database.db, { kind: "flaky", state: "first" }, clock);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);

    expect(await runner.runDue()).toBe(1);
    expect(await jobById(job.id)).toMatchObject({
      state: "first",
      status: "queued",
      attempts: 1,
      lastError: "the provider is down",
      runAt: at("2030-02-01T00:00:01.000Z"),
    });
    expect(
      await database.db.select().from(featureFlags).where(eq(featureFlags.name, "written-by-a-failed-step")),
    ).toEqual([]);
    expect(await runner.runDue()).toBe(0);
    clock = at("2030-02-01T00:00:01.000Z");
    await runner.runDue();
    expect(await jobById(job.id)).toMatchObject({ attempts: 2, runAt: at("2030-02-01T00:00:03.000Z") });
    clock = at("2030-02-01T00:00:03.000Z");
    await runner.runDue();
    expect(await jobById(job.id)).toMatchObject({
      state: "first_FAILED",
      status: "failed",
      details: "gave up: the provider is down",
      attempts: 0,
    });
    expect(errors).toHaveBeenCalledTimes(1);
    errors.mockRestore();
  });

  it("runs the kind's end hook in the transaction of the end, and a fault in it does not keep the job from ending", async () => {
    const clock = at("2030-02-15T00:00:00.000Z");
    const ends: string[] = [];
    const announced: JobKind = {
      ...twoStepKind("announced", 0),
      async ended(job, tx) {
        ends.push(`${job.state}:${job.status}`);
        await tx.insert(featureFlags).values({ tenantId: null, name: `ended-${job.id}`, enabled: true });
        if (job.payload.broken) throw new Error("the outbox is broken");
      },
    };
    const runner = createJobRunner({
      db: database.db,
      kinds: [announced],
      pollIntervalMs: 1000,
      now: () => clock,
    });
    const fine = await enqueueJob(database.db, { kind: "announced", state: "first" }, clock);
    const broken = await enqueueJob(
      database.db,
      { kind: "announced", state: "first", payload: { broken: true } },
      clock,
    );
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await runner.runUntilIdle()).toBe(4);
    expect(errors).toHaveBeenCalledTimes(1);
    errors.mockRestore();

    expect(ends).toEqual(["done:succeeded", "done:succeeded"]);
    for (const job of [fine, broken]) expect((await jobById(job.id)).status).toBe("succeeded");
    const written = async (id: string) =>
      database.db
        .select()
        .from(featureFlags)
        .where(eq(featureFlags.name, `ended-${id}`));
    expect(await written(fine.id)).toHaveLength(1);
    // The hook's own writes are undone with its fault; the job's end stays.
    expect(await written(broken.id)).toEqual([]);
  });

  it("never runs a step twice when two runners poll the same database", async () => {
    const clock = at("2030-03-01T00:00:00.000Z");
    const seen: string[] = [];
    const kind = twoStepKind("shared", 0, seen);
    const runners = [1, 2].map(() =>
      createJobRunner({ db: database.db, kinds: [kind], pollIntervalMs: 1000, now: () => clock }),
    );
    const jobs = await Promise.all(
      Array.from({ length: 12 }, () => enqueueJob(database.db, { kind: "shared", state: "first" }, clock)),
    );
    await Promise.all(runners.map((runner) => runner.runUntilIdle()));
    expect(seen).toHaveLength(24);
    expect(new Set(seen).size).toBe(24);
    for (const job of jobs) expect((await jobById(job.id)).status).toBe("succeeded");
  });

  it("leaves jobs of kinds it does not know, and waiting jobs, alone", async () => {
    const clock = at("2030-04-01T00:00:00.000Z");
    const runner = createJobRunner({
      db: database.db,
      kinds: [twoStepKind("known", 0)],
      pollIntervalMs: 1000,
      now: () => clock,
    });
    const unknown = await enqueueJob(database.db, { kind: "unknown", state: "first" }, clock);
    const waiting = await enqueueJob(database.db, { kind: "known", state: "first" }, clock);
    await database.db.update(engineJobs).set({ status: "waiting" }).where(eq(engineJobs.id, waiting.id));
    expect(await runner.runUntilIdle()).toBe(0);
    expect((await jobById(unknown.id)).status).toBe("queued");
    expect((await jobById(waiting.id)).state).toBe("first");
  });

  it("does a leased step's work outside any transaction under a lease, then records it and ends the lease", async () => {
    const clock = at("2030-05-01T00:00:00.000Z");
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let working: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (working = resolve));
    const cloudCall: JobKind = {
      kind: "cloud-call",
      async step(job) {
        if (job.state === "done") throw new Error("no step after done");
        return outside(async () => {
          working();
          await released;
          return async (tx) => {
            await tx
              .insert(featureFlags)
              .values({ tenantId: null, name: `recorded-${job.id}`, enabled: true });
            return { state: "done", status: "succeeded", payload: { answer: 42 } };
          };
        });
      },
      giveUp: (_job, error) => ({ state: "broken", status: "failed", details: error }),
    };
    const runner = createJobRunner({
      db: database.db,
      kinds: [cloudCall],
      pollIntervalMs: 1000,
      now: () => clock,
      instanceId: "instance-a",
      leaseMs: 30_000,
    });
    const job = await enqueueJob(database.db, { kind: "cloud-call", state: "calling" }, clock);
    const running = runner.runDue();
    await started;

    // Leased, and no transaction holds the job: another statement may lock it without waiting.
    expect(await jobById(job.id)).toMatchObject({
      state: "calling",
      status: "queued",
      leaseOwner: "instance-a",
      leasedUntil: at("2030-05-01T00:00:30.000Z"),
    });
    await database.db.transaction(async (tx) => {
      await tx.select().from(engineJobs).where(eq(engineJobs.id, job.id)).for("update", { noWait: true });
    });
    // A second runner leaves a job whose lease is live alone.
    const other = createJobRunner({
      db: database.db,
      kinds: [cloudCall],
      pollIntervalMs: 1000,
      now: () => clock,
    });
    expect(await other.runDue()).toBe(0);

    release();
    expect(await running).toBe(1);
    expect(await jobById(job.id)).toMatchObject({
      state: "done",
      status: "succeeded",
      payload: { answer: 42 },
      leaseOwner: null,
      leasedUntil: null,
    });
    expect(
      await database.db
        .select()
        .from(featureFlags)
        .where(eq(featureFlags.name, `recorded-${job.id}`)),
    ).toHaveLength(1);
  });

  it("extends the lease with heartbeats while the work runs", async () => {
    let clock = at("2030-05-02T00:00:00.000Z");
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow: JobKind = {
      kind: "slow-call",
      step: async () =>
        outside(async () => {
          await released;
          return async () => ({ state: "done", status: "succeeded" });
        }),
      giveUp: (_job, error) => ({ state: "broken", status: "failed", details: error }),
    };
    const runner = createJobRunner({
      db: database.db,
      kinds: [slow],
      pollIntervalMs: 1000,
      now: () => clock,
      leaseMs: 30_000,
      heartbeatMs: 20,
    });
    const job = await enqueueJob(database.db, { kind: "slow-call", state: "calling" }, clock);
    const running = runner.runDue();
    await vi.waitFor(async () => expect((await jobById(job.id)).leaseOwner).not.toBeNull());

    clock = at("2030-05-02T00:10:00.000Z");
    await vi.waitFor(async () =>
      expect((await jobById(job.id)).leasedUntil).toEqual(at("2030-05-02T00:10:30.000Z")),
    );
    // Ten minutes on, the lease is still live: nobody else takes the job.
    const other = createJobRunner({ db: database.db, kinds: [slow], pollIntervalMs: 1000, now: () => clock });
    expect(await other.runDue()).toBe(0);
    release();
    await running;
    expect((await jobById(job.id)).status).toBe("succeeded");
  });

  it("lets another instance take over a job whose instance died mid-work, and drops the dead one's result", async () => {
    let clock = at("2030-05-03T00:00:00.000Z");
    const calls: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const firstReleased = new Promise<void>((resolve) => (releaseFirst = resolve));
    const idempotent: JobKind = {
      kind: "idempotent-call",
      step: async (job) =>
        outside(async () => {
          const call = calls.length;
          calls.push(`${job.state}#${call}`);
          // The first instance hangs, as one whose process died would never answer.
          if (call === 0) await firstReleased;
          return async () => ({
            state: "done",
            status: "succeeded",
            payload: { recordedBy: call === 0 ? "first" : "second" },
          });
        }),
      giveUp: (_job, error) => ({ state: "broken", status: "failed", details: error }),
    };
    // The first instance sends no heartbeat within the test: it is as good as dead once it has claimed the job.
    const first = createJobRunner({
      db: database.db,
      kinds: [idempotent],
      pollIntervalMs: 1000,
      now: () => clock,
      instanceId: "first",
      leaseMs: 30_000,
      heartbeatMs: 3_600_000,
    });
    const second = createJobRunner({
      db: database.db,
      kinds: [idempotent],
      pollIntervalMs: 1000,
      now: () => clock,
      instanceId: "second",
      leaseMs: 30_000,
    });
    const job = await enqueueJob(database.db, { kind: "idempotent-call", state: "calling" }, clock);
    const dying = first.runDue();
    await vi.waitFor(() => expect(calls).toEqual(["calling#0"]));

    clock = at("2030-05-03T00:00:29.999Z");
    expect(await second.runDue()).toBe(0);
    clock = at("2030-05-03T00:00:30.000Z");
    expect(await second.runDue()).toBe(1);
    expect(calls).toEqual(["calling#0", "calling#1"]);
    expect(await jobById(job.id)).toMatchObject({
      state: "done",
      status: "succeeded",
      payload: { recordedBy: "second" },
      leaseOwner: null,
    });

    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    releaseFirst();
    expect(await dying).toBe(1);
    expect(warnings).toHaveBeenCalledTimes(1);
    warnings.mockRestore();
    expect(await jobById(job.id)).toMatchObject({
      payload: { recordedBy: "second" },
      history: [
        { state: "calling", at: "2030-05-03T00:00:00.000Z" },
        { state: "done", at: "2030-05-03T00:00:30.000Z" },
      ],
    });
  });

  it("drops the result of work whose job an API call moved meanwhile, and retries work that threw", async () => {
    let clock = at("2030-05-04T00:00:00.000Z");
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let failures = 0;
    const kind: JobKind = {
      kind: "moved-call",
      step: async (job) =>
        outside(async () => {
          if (job.payload.flaky && failures++ === 0) throw new Error("the cloud is throttling");
          if (!job.payload.flaky) await released;
          return async () => ({ state: "done", status: "succeeded" });
        }),
      giveUp: (_job, error) => ({ state: "broken", status: "failed", details: error }),
    };
    const runner = createJobRunner({
      db: database.db,
      kinds: [kind],
      pollIntervalMs: 1000,
      now: () => clock,
      retryDelayMs: () => 5000,
    });
    const moved = await enqueueJob(database.db, { kind: "moved-call", state: "calling" }, clock);
    const running = runner.runDue();
    await vi.waitFor(async () => expect((await jobById(moved.id)).leaseOwner).not.toBeNull());
    await database.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(engineJobs).where(eq(engineJobs.id, moved.id)).for("update");
      if (!locked) throw new Error("no job");
      await moveJob(tx, locked, { state: "cancelling", status: "cancelled" }, clock);
    });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    release();
    await running;
    warnings.mockRestore();
    expect(await jobById(moved.id)).toMatchObject({
      state: "cancelling",
      status: "cancelled",
      leaseOwner: null,
    });

    const flaky = await enqueueJob(
      database.db,
      { kind: "moved-call", state: "calling", payload: { flaky: true } },
      clock,
    );
    expect(await runner.runDue()).toBe(1);
    expect(await jobById(flaky.id)).toMatchObject({
      state: "calling",
      status: "queued",
      attempts: 1,
      lastError: "the cloud is throttling",
      leaseOwner: null,
      runAt: at("2030-05-04T00:00:05.000Z"),
    });
    clock = at("2030-05-04T00:00:05.000Z");
    expect(await runner.runDue()).toBe(1);
    expect(await jobById(flaky.id)).toMatchObject({ state: "done", status: "succeeded", attempts: 0 });
  });

  it("runs other jobs while a step's work outside the database is slow", async () => {
    const clock = at("2030-05-05T00:00:00.000Z");
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow: JobKind = {
      kind: "slow-cloud",
      step: async () =>
        outside(async () => {
          await released;
          return async () => ({ state: "done", status: "succeeded" });
        }),
      giveUp: (_job, error) => ({ state: "broken", status: "failed", details: error }),
    };
    const runner = createJobRunner({
      db: database.db,
      kinds: [slow, twoStepKind("quick", 0)],
      pollIntervalMs: 1000,
      now: () => clock,
    });
    const waiting = await enqueueJob(database.db, { kind: "slow-cloud", state: "calling" }, clock);
    const quick = await enqueueJob(database.db, { kind: "quick", state: "first", delayMs: 1 }, clock);
    const running = runner.runDue();
    clock.setTime(clock.getTime() + 1);
    await vi.waitFor(async () => expect((await jobById(quick.id)).status).toBe("succeeded"));
    expect((await jobById(waiting.id)).status).toBe("queued");
    release();
    expect(await running).toBe(3);
    expect((await jobById(waiting.id)).status).toBe("succeeded");
  });

  it("polls once started, is woken by a new job, and stops", async () => {
    const runner = createJobRunner({
      db: database.db,
      kinds: [twoStepKind("polled", 0)],
      pollIntervalMs: 20,
    });
    runner.start();
    expect(runner.isRunning).toBe(true);
    const job = await enqueueJob(database.db, { kind: "polled", state: "first" }, new Date());
    runner.wake();
    await vi.waitFor(async () => expect((await jobById(job.id)).status).toBe("succeeded"), { timeout: 5000 });
    await runner.stop();
    expect(runner.isRunning).toBe(false);
  });
});
