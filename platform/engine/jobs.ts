import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Database } from "../db/index";
import { engineJobs } from "../db/schema";

/**
 * The engine's job runner. A job is a persisted state machine of one kind (a clone today, deploys later): the
 * runner claims a due job (`status` queued, `run_at` passed) with `FOR UPDATE SKIP LOCKED`, runs its kind's step
 * for the current state, and records the transition the step returns, all in one transaction. A crash or a stop
 * in the middle rolls the step back and the next runner (after a restart, or another instance on the same
 * PostgreSQL) runs it again, so jobs never get stuck and never run a step twice.
 *
 * A step's duration is the wait before it runs: a state is entered with `run_at = now + duration`. Steps are short
 * database work; they must not wait on anything outside the transaction.
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
  | { state: string; status: "queued"; delayMs: number }
  /** Wait for an API call to move the job on. */
  | { state: string; status: "waiting" }
  | { state: string; status: "succeeded" }
  /** `details` is shown to the user. */
  | { state: string; status: "failed"; details: string }
  /** Stopped by the user; the state is kept as it was. */
  | { state: string; status: "cancelled" };

export type JobKind = {
  kind: string;
  /** Does the work of the job's current state inside `tx` and names the next state; throwing retries it. */
  step: (job: Job, tx: Transaction, now: Date) => Promise<Transition>;
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

/** Records a transition of a job the caller holds locked (`FOR UPDATE`) in `tx`. */
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
};

const RUN_UNTIL_IDLE_LIMIT = 10_000;

export function createJobRunner({
  db,
  kinds,
  pollIntervalMs,
  now = () => new Date(),
  maxAttempts = 5,
  retryDelayMs = (attempt) => Math.min(1000 * 2 ** (attempt - 1), 60_000),
}: JobRunnerOptions) {
  const kindsByName = new Map(kinds.map((kind) => [kind.kind, kind]));
  const kindNames = [...kindsByName.keys()];
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> | undefined;
  let wokenDuringTick = false;

  /** Claims and runs one due job; false when none is due. */
  async function runNext(): Promise<boolean> {
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
          ),
        )
        .orderBy(asc(engineJobs.runAt))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!job) return false;
      const kind = kindsByName.get(job.kind);
      if (!kind) throw new Error(`no handler for job kind ${job.kind}`);

      let transition: Transition;
      try {
        // A savepoint: a failed step leaves nothing behind, and the job stays locked while its failure is noted.
        transition = await tx.transaction((step) => kind.step(job, step, at));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const attempts = job.attempts + 1;
        if (attempts < maxAttempts) {
          await tx
            .update(engineJobs)
            .set({
              attempts,
              lastError: message,
              runAt: new Date(at.getTime() + retryDelayMs(attempts)),
              updatedAt: at,
            })
            .where(eq(engineJobs.id, job.id));
          return true;
        }
        console.error(
          `engine: job ${job.id} (${job.kind}) failed in ${job.state} after ${attempts} attempts`,
          error,
        );
        transition = kind.giveUp(job, message);
      }
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
      return true;
    });
  }

  /** Runs steps of due jobs until none is due; returns how many steps ran. */
  async function runDue(): Promise<number> {
    let steps = 0;
    while (await runNext()) steps += 1;
    return steps;
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

    /** Stops polling and waits for the step in progress, which commits or rolls back as a whole. */
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
