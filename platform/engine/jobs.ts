import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { Database } from "../db/index";
import { engineJobs } from "../db/schema";

/**
 * The engine's job runner. A job is a persisted state machine of one kind (clones, deployments): the runner claims
 * a due job (`status` queued, `run_at` passed, no live lease) with `FOR UPDATE SKIP LOCKED`, runs its kind's step
 * for the current state, and records the transition the step returns, all in one transaction. A crash or a stop
 * in the middle rolls the step back and the next runner (after a restart, or another instance on the same
 * PostgreSQL) runs it again, so jobs never get stuck and never run a step twice.
 *
 * A step's duration is the wait before it runs: a state is entered with `run_at = now + duration`. Steps are short
 * database work. A step that must wait on something outside the database (a cloud's API) returns `outside(work)`
 * instead of a transition: the runner then leases the job to itself (`lease_owner`, `leased_until`) and commits,
 * runs the work outside any transaction while a heartbeat extends the lease, and records the work's result in a
 * short transaction that first checks it still holds the lease (the notification worker's pattern). An instance
 * that dies mid-work stops extending its lease; once it runs out another instance claims the job and runs the step
 * again, so such steps must be idempotent. A result that comes back after its lease was taken over, or after an
 * API call moved the job (which ends any lease), is dropped.
 */

export const jobStatuses = ["queued", "waiting", "succeeded", "failed", "cancelled"] as const;
export type JobStatus = (typeof jobStatuses)[number];
/** A job in one of these states still has work ahead: the runner runs it, or an API call moves it on. */
export const unfinishedJobStatuses: JobStatus[] = ["queued", "waiting"];

export type Job = typeof engineJobs.$inferSelect;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Where a step (or an API call) moves a job. */
export type Transition =
  /** Run the new state's step after `delayMs`. */
  (
    | { state: string; status: "queued"; delayMs: number }
    /** Wait for an API call to move the job on. */
    | { state: string; status: "waiting" }
    | { state: string; status: "succeeded" }
    /** `details` is shown to the user. */
    | { state: string; status: "failed"; details: string }
    /** Stopped by the user; the state is kept as it was. */
    | { state: string; status: "cancelled" }
  ) & {
    /** Replaces the job's payload: what its later steps need to know (when the work began, what it waits for). */
    payload?: Record<string, unknown>;
  };

/** Records the result of work done outside the database, in the transaction that checked the lease. */
export type RecordWork = (tx: Transaction, now: Date) => Promise<Transition>;

/** Work a step does outside any transaction; `signal` aborts when the runner lost the job's lease. */
export type OutsideWork = { outside: (signal: AbortSignal) => Promise<RecordWork> };

/** A step's work that calls or waits on something outside the database, done under a lease. */
export function outside(work: OutsideWork["outside"]): OutsideWork {
  return { outside: work };
}

export type JobKind = {
  kind: string;
  /**
   * Does the work of the job's current state inside `tx` and names the next state, or returns `outside(work)`
   * for work outside any transaction (its writes in `tx` are committed with the lease first); throwing, here or
   * in the work, retries the step.
   */
  step: (job: Job, tx: Transaction, now: Date) => Promise<Transition | OutsideWork>;
  /** Where the job goes once a step has thrown `maxAttempts` times. */
  giveUp: (job: Job, error: string) => Transition & { status: "failed" };
  /**
   * What else happens exactly when a job of this kind ends (succeeded or failed), in the transaction that records
   * the end: the notifications of issue 13. `job` is as it ended.
   */
  ended?: (job: Job, tx: Transaction, now: Date) => Promise<void>;
};

export type NewJob = {
  kind: string;
  environmentId?: string | null;
  state: string;
  payload?: Record<string, unknown>;
  delayMs?: number;
};

/** Inserts a queued job in the caller's transaction, so it exists exactly when the caller's writes do. */
export async function enqueueJob(tx: Database, job: NewJob, now: Date): Promise<Job> {
  const [created] = await tx
    .insert(engineJobs)
    .values({
      kind: job.kind,
      environmentId: job.environmentId ?? null,
      state: job.state,
      status: "queued",
      payload: job.payload ?? {},
      history: [{ state: job.state, at: now.toISOString() }],
      runAt: new Date(now.getTime() + (job.delayMs ?? 0)),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!created) throw new Error("the job was not created");
  return created;
}

/**
 * Records a transition of a job the caller holds locked (`FOR UPDATE`) in `tx`, ending any lease on it: the work
 * of a runner that leased the job is then dropped (an API call moved the job on, or the work was recorded).
 */
export async function moveJob(tx: Database, job: Job, transition: Transition, now: Date): Promise<Job> {
  const entered = transition.state !== job.state;
  const [moved] = await tx
    .update(engineJobs)
    .set({
      state: transition.state,
      status: transition.status,
      history: entered ? [...job.history, { state: transition.state, at: now.toISOString() }] : job.history,
      details: transition.status === "failed" ? transition.details : null,
      runAt: new Date(now.getTime() + (transition.status === "queued" ? transition.delayMs : 0)),
      attempts: 0,
      lastError: null,
      leaseOwner: null,
      leasedUntil: null,
      ...(transition.payload ? { payload: transition.payload } : {}),
      updatedAt: now,
    })
    .where(eq(engineJobs.id, job.id))
    .returning();
  if (!moved) throw new Error(`job ${job.id} disappeared while it was locked`);
  return moved;
}

export type JobRunnerOptions = {
  db: Database;
  kinds: JobKind[];
  pollIntervalMs: number;
  now?: () => Date;
  maxAttempts?: number;
  /** Wait before retrying a step that threw for the `attempt`-th time. */
  retryDelayMs?: (attempt: number) => number;
  /** Names this runner in the leases it takes; unique per instance (and per runner in tests). */
  instanceId?: string;
  /** How long a lease lasts without a heartbeat: how soon another instance takes over a dead one's job. */
  leaseMs?: number;
  /** How often the heartbeat extends the lease of the work in progress (real time). */
  heartbeatMs?: number;
  /** How many steps' work outside the database run at once. */
  maxConcurrentWork?: number;
};

const RUN_UNTIL_IDLE_LIMIT = 10_000;
/** A lease outlives a few missed heartbeats (a busy database), and a dead instance's job waits half a minute. */
export const JOB_LEASE_MS = 30_000;
export const JOB_HEARTBEAT_MS = 5_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createJobRunner({
  db,
  kinds,
  pollIntervalMs,
  now = () => new Date(),
  maxAttempts = 5,
  retryDelayMs = (attempt) => Math.min(1000 * 2 ** (attempt - 1), 60_000),
  instanceId = randomUUID(),
  leaseMs = JOB_LEASE_MS,
  heartbeatMs = JOB_HEARTBEAT_MS,
  maxConcurrentWork = 4,
}: JobRunnerOptions) {
  const kindsByName = new Map(kinds.map((kind) => [kind.kind, kind]));
  const kindNames = [...kindsByName.keys()];
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> | undefined;
  let wokenDuringTick = false;

  function kindOf(job: Job): JobKind {
    const kind = kindsByName.get(job.kind);
    if (!kind) throw new Error(`no handler for job kind ${job.kind}`);
    return kind;
  }

  /** Records `transition` of the locked `job`, then what its kind does at the end of a job. */
  async function finish(tx: Transaction, job: Job, transition: Transition, at: Date) {
    const kind = kindOf(job);
    const moved = await moveJob(tx, job, transition, at);
    if (kind.ended && (moved.status === "succeeded" || moved.status === "failed")) {
      const ended = kind.ended;
      try {
        // A savepoint: a fault here must not keep the job from ending (it would run its last step forever).
        await tx.transaction((hook) => ended(moved, hook, at));
      } catch (error) {
        console.error(`engine: what follows the end of job ${job.id} (${job.kind}) failed`, error);
      }
    }
  }

  /** A step of the locked `job` threw: it runs again after a backoff, or its kind gives up after the last attempt. */
  async function recordFailure(tx: Transaction, job: Job, error: unknown, at: Date) {
    const attempts = job.attempts + 1;
    if (attempts < maxAttempts) {
      await tx
        .update(engineJobs)
        .set({
          attempts,
          lastError: messageOf(error),
          runAt: new Date(at.getTime() + retryDelayMs(attempts)),
          leaseOwner: null,
          leasedUntil: null,
          updatedAt: at,
        })
        .where(eq(engineJobs.id, job.id));
      return;
    }
    console.error(
      `engine: job ${job.id} (${job.kind}) failed in ${job.state} after ${attempts} attempts`,
      error,
    );
    await finish(tx, job, kindOf(job).giveUp(job, messageOf(error)), at);
  }

  /** The job locked in `tx` if this runner still holds its lease; undefined when it was taken over or moved. */
  async function heldLease(tx: Transaction, job: Job): Promise<Job | undefined> {
    const [held] = await tx
      .select()
      .from(engineJobs)
      .where(and(eq(engineJobs.id, job.id), eq(engineJobs.leaseOwner, instanceId)))
      .for("update");
    return held;
  }

  /** Extends the lease every `heartbeatMs` until stopped; aborts the work once the lease is lost. */
  function heartbeat(job: Job, controller: AbortController) {
    const interval = setInterval(() => {
      void db
        .update(engineJobs)
        .set({ leasedUntil: new Date(now().getTime() + leaseMs) })
        .where(and(eq(engineJobs.id, job.id), eq(engineJobs.leaseOwner, instanceId)))
        .returning({ id: engineJobs.id })
        .then(
          (extended) => {
            if (!extended.length) controller.abort(new Error(`the lease of job ${job.id} was lost`));
          },
          (error: unknown) => console.error(`engine: extending the lease of job ${job.id} failed`, error),
        );
    }, heartbeatMs);
    return () => clearInterval(interval);
  }

  /** Runs `work` of the leased `job` outside any transaction, then records its result if the lease still holds. */
  async function runOutside(job: Job, work: OutsideWork) {
    const controller = new AbortController();
    const stopHeartbeat = heartbeat(job, controller);
    let record: RecordWork | undefined;
    let failure: unknown;
    try {
      record = await work.outside(controller.signal);
    } catch (error) {
      failure = error;
    } finally {
      stopHeartbeat();
    }
    const at = now();
    await db.transaction(async (tx) => {
      const held = await heldLease(tx, job);
      if (!held) {
        console.warn(
          `engine: job ${job.id} (${job.kind}) was taken over or moved; its step's result is dropped`,
        );
        return;
      }
      if (!record) return recordFailure(tx, held, failure, at);
      let transition: Transition;
      try {
        const recording = record;
        transition = await tx.transaction((step) => recording(step, at));
      } catch (error) {
        return recordFailure(tx, held, error, at);
      }
      await finish(tx, held, transition, at);
    });
  }

  /**
   * Claims one due job and runs its step; a step's work outside the database is returned to run beside others.
   * Undefined when none is due.
   */
  async function claimNext(): Promise<{ job: Job; work?: OutsideWork } | undefined> {
    const at = now();
    return db.transaction(async (tx) => {
      const [job] = await tx
        .select()
        .from(engineJobs)
        .where(
          and(
            eq(engineJobs.status, "queued"),
            lte(engineJobs.runAt, at),
            inArray(engineJobs.kind, kindNames),
            or(isNull(engineJobs.leasedUntil), lte(engineJobs.leasedUntil, at)),
          ),
        )
        .orderBy(asc(engineJobs.runAt))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!job) return undefined;
      const kind = kindOf(job);

      let outcome: Transition | OutsideWork;
      try {
        // A savepoint: a failed step leaves nothing behind, and the job stays locked while its failure is noted.
        outcome = await tx.transaction((step) => kind.step(job, step, at));
      } catch (error) {
        await recordFailure(tx, job, error, at);
        return { job };
      }
      if ("outside" in outcome) {
        const [leased] = await tx
          .update(engineJobs)
          .set({ leaseOwner: instanceId, leasedUntil: new Date(at.getTime() + leaseMs), updatedAt: at })
          .where(eq(engineJobs.id, job.id))
          .returning();
        if (!leased) throw new Error(`job ${job.id} disappeared while it was locked`);
        return { job: leased, work: outcome };
      }
      await finish(tx, job, outcome, at);
      return { job };
    });
  }

  /**
   * Runs steps of due jobs until none is due (counting jobs the work of a step made due again); returns how many
   * steps ran. Work outside the database runs beside the next claims, up to `maxConcurrentWork` at once, so one
   * slow cloud call does not hold up every other job of this instance.
   */
  async function runDue(): Promise<number> {
    let steps = 0;
    const working = new Set<Promise<void>>();
    // A record that could not be written (the database went away) ends the run, once the other work is done.
    let lost: { error: unknown } | undefined;
    for (;;) {
      const claimed = !lost && working.size < maxConcurrentWork ? await claimNext() : undefined;
      if (claimed) {
        steps += 1;
        if (claimed.work) {
          const work: Promise<void> = runOutside(claimed.job, claimed.work)
            .catch((error: unknown) => {
              lost ??= { error };
            })
            .finally(() => working.delete(work));
          working.add(work);
        }
        continue;
      }
      if (working.size) {
        await Promise.race(working);
        continue;
      }
      if (lost) throw lost.error;
      return steps;
    }
  }

  function schedule(delayMs: number) {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void poll(), delayMs);
  }

  async function poll() {
    if (tick) {
      wokenDuringTick = true;
      return;
    }
    tick = runDue().then(
      () => undefined,
      (error: unknown) => console.error("engine: polling for due jobs failed", error),
    );
    await tick;
    tick = undefined;
    schedule(wokenDuringTick ? 0 : pollIntervalMs);
    wokenDuringTick = false;
  }

  return {
    runDue,

    /**
     * Runs due jobs until none is left, for tests with ENGINE_TIME_SCALE=0 (where every step is due at once);
     * jobs waiting for an API call stay as they are.
     */
    async runUntilIdle(): Promise<number> {
      let total = 0;
      for (;;) {
        const steps = await runDue();
        if (steps === 0) return total;
        total += steps;
        if (total > RUN_UNTIL_IDLE_LIMIT) throw new Error("jobs kept being due: a step loops");
      }
    },

    /** Polls for due jobs every `pollIntervalMs` until stopped. */
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },

    /** Polls right away, after a job was created or moved by an API call. */
    wake() {
      if (running) schedule(0);
    },

    /**
     * Stops polling and waits for the step in progress, which commits or rolls back as a whole (a step's work
     * outside the database is waited for and recorded).
     */
    async stop() {
      running = false;
      clearTimeout(timer);
      await tick;
    },

    get isRunning() {
      return running;
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
