import { eq } from "drizzle-orm";
import * as z from "zod";
import { endUsage } from "../cost/usage";
import type { Database } from "../db/index";
import { environments, resourceLogs, resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import type { ResourceRow } from "../services/records";
import {
  deployContextOf,
  failureOf,
  progressSinceOf,
  timedOut,
  timeoutMessage,
  writeLines,
} from "./cloud-steps";
import type { Deploys } from "./deploys";
import { CloudStepError, type DeployDriver, type TeardownStep } from "../cloud/driver";
import { wakeEnvironmentTeardown } from "./environment-teardowns";
import {
  enqueueJob,
  outside,
  type Job,
  type JobKind,
  type OutsideWork,
  type Transition,
} from "../engine/jobs";

/**
 * Deleting a service whose cloud keeps what it created (AWS): a job of kind `service-teardown` runs the driver's
 * destroy steps, outside any transaction under the job's lease like a deployment's, until it says done; then the
 * service's row goes. Meanwhile the service is STAGE_IN_PROGRESS, its message saying what the teardown waits for.
 *
 * TEARING_DOWN  → each step tears down a little more, recording what is left as the service's cloud state
 * DELETED       the row is gone (the job succeeded)
 * FAILED        the cloud refused, or the teardown timed out: STAGE_FAILED with the cloud's words; DELETE again
 *               resumes it
 *
 * A service of the simulated cloud, or a draft never launched, is deleted at once (`remove`).
 */

export const TEARDOWN_JOB_KIND = "service-teardown";

const teardownPayloadSchema = z.object({
  resourceId: z.string(),
  /** The name the teardown's log lines carry: the service's first pod. */
  podName: z.string(),
  steps: z.number().int(),
  startedAt: z.string().nullable(),
  progress: z.string().nullable(),
  /** When the steps began saying `progress`: "since when" (progress.ts). */
  progressSince: z.string().nullable().default(null),
});
type TeardownPayload = z.infer<typeof teardownPayloadSchema>;

const deletingMessage = (progress: string | null) =>
  `Deleting: ${progress ?? "tearing down what the service created in its cloud"}.`;

export function createTeardowns({ deploys, db }: { deploys: Deploys; db?: Database }) {
  const { driverOf } = deploys;

  async function lockResource(tx: Database, resourceId: string) {
    const [row] = await tx.select().from(resources).where(eq(resources.id, resourceId)).for("update");
    return row;
  }

  async function environmentOf(tx: Database, resource: ResourceRow): Promise<EnvironmentRow> {
    const [environment] = await tx
      .select()
      .from(environments)
      .where(eq(environments.id, resource.environmentId));
    if (!environment) throw new Error(`service ${resource.id} has no environment`);
    return environment;
  }

  /** The row goes with its history and logs; deployments waiting for a deleted network are queued again. */
  async function deleteRow(tx: Database, resource: ResourceRow, now: Date) {
    // Its cost stops accruing now; what it accrued stays in the usage history (decision 035).
    await endUsage(tx, resource.id, now);
    await tx.delete(resources).where(eq(resources.id, resource.id));
    if (resource.serviceType === "network") await deploys.releaseWaiting(tx, resource.environmentId, now);
  }

  /** The teardown failed: the service stays, failed, with the reason in its message and logs. */
  async function fail(
    tx: Database,
    resource: ResourceRow,
    payload: TeardownPayload,
    reason: string,
    now: Date,
  ) {
    await tx
      .update(resources)
      .set({ stage: "STAGE_FAILED", message: reason, updatedAt: now })
      .where(eq(resources.id, resource.id));
    await tx.insert(resourceLogs).values({
      resourceId: resource.id,
      at: now,
      podName: payload.podName,
      level: "error",
      message: reason,
    });
    return { state: "FAILED", status: "failed", details: reason } satisfies Transition;
  }

  async function record(
    tx: Database,
    payload: TeardownPayload,
    cloud: DeployDriver,
    result: TeardownStep,
    now: Date,
  ): Promise<Transition> {
    const resource = await lockResource(tx, payload.resourceId);
    if (!resource) return { state: "DELETED", status: "succeeded" };
    if (result.done) {
      await deleteRow(tx, resource, now);
      return { state: "DELETED", status: "succeeded" };
    }
    await writeLines(tx, resource.id, result.lines);
    await tx
      .update(resources)
      .set({ cloudState: result.state, message: deletingMessage(result.progress), updatedAt: now })
      .where(eq(resources.id, resource.id));
    const minutes = timedOut(cloud, resource, payload.startedAt, now);
    if (minutes !== null) return fail(tx, resource, payload, timeoutMessage(minutes, result.progress), now);
    return {
      state: "TEARING_DOWN",
      status: "queued",
      delayMs: result.waitMs,
      payload: {
        ...payload,
        steps: payload.steps + 1,
        progress: result.progress,
        progressSince: progressSinceOf(payload, result.progress, now),
      },
    };
  }

  async function step(job: Job, tx: Database, now: Date): Promise<Transition | OutsideWork> {
    const payload = teardownPayloadSchema.parse(job.payload);
    const resource = await lockResource(tx, payload.resourceId);
    if (!resource) return { state: "DELETED", status: "succeeded" };
    const environment = await environmentOf(tx, resource);
    const cloud = await driverOf(tx, environment);
    const destroy = cloud.destroy?.bind(cloud);
    if (!destroy) {
      // The environment left its cloud since (its connection changed): nothing of this cloud to tear down.
      await deleteRow(tx, resource, now);
      return { state: "DELETED", status: "succeeded" };
    }
    const context = await deployContextOf(
      tx,
      db,
      {
        resource,
        environment,
        step: payload.steps,
        progress: payload.progress,
        change: "deploy",
        podNames: [payload.podName],
      },
      now,
    );
    const started = { ...payload, startedAt: payload.startedAt ?? now.toISOString() };
    return outside(async () => {
      let result: TeardownStep;
      try {
        result = await destroy(context);
      } catch (error) {
        return async (tx, at) => {
          const reason = failureOf(error, {
            attempts: job.attempts,
            timeoutMinutes: timedOut(cloud, resource, started.startedAt, at),
            progress: payload.progress,
            work: "teardown",
          });
          if (reason === null) throw error;
          const locked = await lockResource(tx, payload.resourceId);
          if (!locked) return { state: "DELETED", status: "succeeded" };
          if (error instanceof CloudStepError) await writeLines(tx, locked.id, error.lines);
          return fail(tx, locked, started, reason, at);
        };
      }
      return (tx, at) => record(tx, started, cloud, result, at);
    });
  }

  const kind: JobKind = {
    kind: TEARDOWN_JOB_KIND,
    step,
    giveUp: (_job, error) => ({
      state: "FAILED",
      status: "failed",
      details: `The teardown stopped unexpectedly: ${error}`,
    }),
    /** The environment's deletion, if one waits for its teardowns, moves on. */
    async ended(job, tx, now) {
      if (job.environmentId) await wakeEnvironmentTeardown(tx, job.environmentId, now);
    },
  };

  /**
   * DELETE of a service (locked, with no deployment at work): a cloud that keeps what it created (AWS) tears it
   * down in a teardown job, once the service was launched (`teardown`); otherwise the row goes at once
   * (`deleted`). The caller has abandoned a deployment waiting for the network.
   */
  async function remove(
    tx: Database,
    { resource, environment }: { resource: ResourceRow; environment: EnvironmentRow },
    now: Date,
  ): Promise<"deleted" | "teardown"> {
    const cloud = await driverOf(tx, environment);
    // A launched service may have left something even if no step recorded it (a step that failed after a create):
    // the driver's teardown finds it by its tags.
    const launched = resource.cloudState !== null || resource.stage !== "STAGE_DRAFT";
    if (!cloud.destroy || !launched) {
      await deleteRow(tx, resource, now);
      return "deleted";
    }
    const payload: TeardownPayload = {
      resourceId: resource.id,
      podName: resource.pods[0]?.name ?? resource.name,
      steps: 0,
      startedAt: null,
      progress: null,
      progressSince: null,
    };
    await enqueueJob(
      tx,
      { kind: TEARDOWN_JOB_KIND, environmentId: environment.id, state: "TEARING_DOWN", payload },
      now,
    );
    await tx
      .update(resources)
      .set({ stage: "STAGE_IN_PROGRESS", message: deletingMessage(null), driftedAt: null, updatedAt: now })
      .where(eq(resources.id, resource.id));
    return "teardown";
  }

  return { kind, remove };
}

export type Teardowns = ReturnType<typeof createTeardowns>;
