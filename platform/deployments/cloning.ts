import { and, count, desc, eq, ne } from "drizzle-orm";
import * as z from "zod";
import { cloningStateSchema, type CloningState } from "#contract/cloning";
import type { CloneState } from "#contract/environments";
import type { Stage } from "#contract/stages";
import type { EngineConfig } from "../lib/config";
import type { Database } from "../db/index";
import { engineJobs, environments, resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import { copyVariables } from "../environments/variables";
import type { Notify } from "../notifications/outbox";
import { SecretDecryptionError, type SecretCipher } from "../lib/cipher";
import { copyServices } from "../services/copy";
import { PLATFORM_ACTOR } from "../services/history";
import { environmentStageOf } from "../environments/stages";
import type { Deploys } from "./deploys";
import { enqueueJob, moveJob, type Job, type JobKind, type Transition } from "../engine/jobs";

/**
 * Cloning an environment (SPEC §4): a job of kind `environment-clone` on the new environment that passes the
 * cloning states in order. Each state lasts its duration (scaled by ENGINE_TIME_SCALE), then its work runs:
 *
 * CREATING_DRAFT_RESOURCES             copies config, add-ons and variables (secrets sealed again) from the source
 * WAITING_FOR_LAUNCH_RESOURCES_EVENT   waits for POST .../clone/launch/resources
 * QUEUE_RESOURCES_FOR_LAUNCH           queues the drafted resources for launch
 * LAUNCH_RESOURCES                     launches them → LAUNCH_RESOURCES_SUCCEEDED
 * CREATING_DRAFT_APPLICATIONS          drafts the source's applications → CREATING_DRAFT_APPLICATIONS_SUCCEEDED
 * REVIEW_AND_DEPLOY_APPLICATIONS       the end: the user reviews and deploys, then leaves with PUT .../clone/exit
 *
 * Services are copied as drafts (their configuration and settings; secrets and archives are the clone's own:
 * passwords are made by its first deployment, a function's archive is copied): resources by
 * CREATING_DRAFT_RESOURCES, launched by LAUNCH_RESOURCES (Provision), applications by CREATING_DRAFT_APPLICATIONS for
 * the user to review and deploy. A step fails into its `_FAILED` state (a
 * `_SUCCEEDED` hand-off into the next step's), which ends the job; the environment stays STAGE_IN_PROGRESS until
 * the user exits the clone.
 */

export const CLONE_JOB_KIND = "environment-clone";

/** How long each state lasts at ENGINE_TIME_SCALE=1, in seconds; the waiting and final states have none. */
export const cloneStepSeconds = {
  CREATING_DRAFT_RESOURCES: 3,
  QUEUE_RESOURCES_FOR_LAUNCH: 2,
  LAUNCH_RESOURCES: 4,
  LAUNCH_RESOURCES_SUCCEEDED: 1,
  CREATING_DRAFT_APPLICATIONS: 3,
  CREATING_DRAFT_APPLICATIONS_SUCCEEDED: 1,
} as const satisfies Partial<Record<CloningState, number>>;

type TimedState = keyof typeof cloneStepSeconds;

/** The steps that can fail, and the state each failure (or a hand-off's failure) ends in. */
const failureStateOf: Record<TimedState, CloningState> = {
  CREATING_DRAFT_RESOURCES: "CREATING_DRAFT_RESOURCES_FAILED",
  QUEUE_RESOURCES_FOR_LAUNCH: "QUEUE_RESOURCES_FOR_LAUNCH_FAILED",
  LAUNCH_RESOURCES: "LAUNCH_RESOURCES_FAILED",
  LAUNCH_RESOURCES_SUCCEEDED: "CREATING_DRAFT_APPLICATIONS_FAILED",
  CREATING_DRAFT_APPLICATIONS: "CREATING_DRAFT_APPLICATIONS_FAILED",
  CREATING_DRAFT_APPLICATIONS_SUCCEEDED: "CREATING_DRAFT_APPLICATIONS_FAILED",
};

/** The steps ENGINE_FAILURE_INJECTION can make fail. */
export const injectableCloneSteps = [
  "CREATING_DRAFT_RESOURCES",
  "QUEUE_RESOURCES_FOR_LAUNCH",
  "LAUNCH_RESOURCES",
  "CREATING_DRAFT_APPLICATIONS",
] as const satisfies TimedState[];

/** `fail-launch-resources` for LAUNCH_RESOURCES: the marker a clone's name carries to fail at that step. */
export function failureMarkerOf(step: (typeof injectableCloneSteps)[number]): string {
  return `fail-${step.toLowerCase().replaceAll("_", "-")}`;
}

/** The step a clone named `name` fails at under ENGINE_FAILURE_INJECTION, or null. */
export function injectedFailureFor(name: string): (typeof injectableCloneSteps)[number] | null {
  return injectableCloneSteps.find((step) => name.includes(failureMarkerOf(step))) ?? null;
}

const clonePayloadSchema = z.object({
  sourceEnvironmentId: z.string(),
  sourceEnvironmentName: z.string(),
  failAt: cloningStateSchema.nullable(),
  /** A clone nobody reviews (a pull request's preview): its resources launch without waiting for the event. */
  unattended: z.boolean().default(false),
});
type ClonePayload = z.infer<typeof clonePayloadSchema>;

export function delayOf(state: TimedState, timeScale: number): number {
  return Math.round(cloneStepSeconds[state] * 1000 * timeScale);
}

export function createCloning({
  secrets,
  settings,
  deploys,
  notify,
}: {
  secrets: SecretCipher;
  settings: Pick<EngineConfig, "timeScale" | "failureInjection">;
  deploys: Deploys;
  /** Where a clone's end is announced (Slack, Teams). */
  notify?: Notify;
}) {
  const next = (state: TimedState): Transition => ({
    state,
    status: "queued",
    delayMs: delayOf(state, settings.timeScale),
  });
  const failed = (state: TimedState, details: string): Transition => ({
    state: failureStateOf[state],
    status: "failed",
    details,
  });

  /** CREATING_DRAFT_RESOURCES: the source's settings become the clone's, in the step's transaction. */
  async function createDraftResources(job: Job, payload: ClonePayload, tx: Database, now: Date) {
    const targetId = job.environmentId;
    if (!targetId) throw new Error(`clone job ${job.id} has no environment`);
    // Shared: the source cannot be deleted while this reads it (DELETE takes it FOR UPDATE).
    const [source] = await tx
      .select()
      .from(environments)
      .where(eq(environments.id, payload.sourceEnvironmentId))
      .for("share");
    if (!source) {
      return failed(
        "CREATING_DRAFT_RESOURCES",
        `The source environment ${payload.sourceEnvironmentName} no longer exists.`,
      );
    }
    await tx
      .update(environments)
      .set({ config: source.config, enabledAddons: source.enabledAddons })
      .where(eq(environments.id, targetId));
    try {
      await copyVariables(tx, secrets, { fromEnvironmentId: source.id, toEnvironmentId: targetId, now });
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return failed(
        "CREATING_DRAFT_RESOURCES",
        `The variables of ${source.name} could not be copied: ${error.message}.`,
      );
    }
    await copyServices(tx, { from: source.id, to: targetId, applications: false }, now);
    if (payload.unattended) return next("QUEUE_RESOURCES_FOR_LAUNCH");
    return { state: "WAITING_FOR_LAUNCH_RESOURCES_EVENT", status: "waiting" } satisfies Transition;
  }

  /** LAUNCH_RESOURCES: every drafted resource of the clone is deployed (Provision), in the step's transaction. */
  async function launchDraftResources(job: Job, tx: Database, now: Date) {
    const environment = await targetOf(job, tx);
    const drafts = await tx
      .select()
      .from(resources)
      .where(
        and(
          eq(resources.environmentId, environment.id),
          eq(resources.stage, "STAGE_DRAFT"),
          ne(resources.serviceType, "application"),
        ),
      )
      .for("update");
    for (const resource of drafts) {
      await deploys.launch(
        tx,
        { resource, environment, action: "Provision", actor: PLATFORM_ACTOR, diff: [] },
        now,
      );
    }
    return next("LAUNCH_RESOURCES_SUCCEEDED");
  }

  async function targetOf(job: Job, tx: Database): Promise<EnvironmentRow> {
    if (!job.environmentId) throw new Error(`clone job ${job.id} has no environment`);
    const [environment] = await tx.select().from(environments).where(eq(environments.id, job.environmentId));
    if (!environment) throw new Error(`the clone job ${job.id}'s environment is gone`);
    return environment;
  }

  const kind: JobKind = {
    kind: CLONE_JOB_KIND,
    async step(job, tx, now) {
      const payload = clonePayloadSchema.parse(job.payload);
      const state = job.state as CloningState;
      if (payload.failAt === state) {
        return failed(
          state as TimedState,
          `Failure injected at ${state}: ENGINE_FAILURE_INJECTION is on and the environment's name contains ` +
            `"${failureMarkerOf(state as (typeof injectableCloneSteps)[number])}".`,
        );
      }
      switch (state) {
        case "CREATING_DRAFT_RESOURCES":
          return createDraftResources(job, payload, tx, now);
        case "QUEUE_RESOURCES_FOR_LAUNCH":
          return next("LAUNCH_RESOURCES");
        case "LAUNCH_RESOURCES":
          return launchDraftResources(job, tx, now);
        case "LAUNCH_RESOURCES_SUCCEEDED":
          return next("CREATING_DRAFT_APPLICATIONS");
        case "CREATING_DRAFT_APPLICATIONS": {
          const target = await targetOf(job, tx);
          await copyServices(
            tx,
            { from: payload.sourceEnvironmentId, to: target.id, applications: true },
            now,
          );
          return next("CREATING_DRAFT_APPLICATIONS_SUCCEEDED");
        }
        case "CREATING_DRAFT_APPLICATIONS_SUCCEEDED":
          return { state: "REVIEW_AND_DEPLOY_APPLICATIONS", status: "succeeded" };
        default:
          throw new Error(`a clone job has no step in state ${state}`);
      }
    },
    giveUp(job, error) {
      const state = job.state in failureStateOf ? (job.state as TimedState) : "CREATING_DRAFT_RESOURCES";
      return {
        state: failureStateOf[state],
        status: "failed",
        details: `The step ${job.state} failed repeatedly: ${error}`,
      };
    },
    /** Announces that the clone reached its end, or where it failed. */
    async ended(job, tx, now) {
      if (!notify || !job.environmentId) return;
      const payload = clonePayloadSchema.parse(job.payload);
      const [environment] = await tx
        .select()
        .from(environments)
        .where(eq(environments.id, job.environmentId));
      if (!environment) return;
      await notify(
        tx,
        {
          event: "clone.finished",
          environment,
          sourceEnvironmentName: payload.sourceEnvironmentName,
          failure: job.status === "failed" ? (job.details ?? `The clone failed at ${job.state}.`) : null,
        },
        now,
      );
    },
  };

  return {
    kind,

    /** Queues the clone of `source` into the just-created `targetId` (in the caller's transaction). */
    async enqueue(
      tx: Database,
      {
        source,
        target,
        unattended = false,
      }: { source: { id: string; name: string }; target: { id: string; name: string }; unattended?: boolean },
      now: Date,
    ): Promise<Job> {
      const payload: ClonePayload = {
        sourceEnvironmentId: source.id,
        sourceEnvironmentName: source.name,
        failAt: settings.failureInjection ? injectedFailureFor(target.name) : null,
        unattended,
      };
      return enqueueJob(
        tx,
        {
          kind: CLONE_JOB_KIND,
          environmentId: target.id,
          state: "CREATING_DRAFT_RESOURCES",
          payload,
          delayMs: delayOf("CREATING_DRAFT_RESOURCES", settings.timeScale),
        },
        now,
      );
    },

    /** WAITING_FOR_LAUNCH_RESOURCES_EVENT → QUEUE_RESOURCES_FOR_LAUNCH; null when the job is not waiting. */
    async launchResources(tx: Database, job: Job, now: Date): Promise<Job | null> {
      if (job.status !== "waiting" || job.state !== "WAITING_FOR_LAUNCH_RESOURCES_EVENT") return null;
      return moveJob(tx, job, next("QUEUE_RESOURCES_FOR_LAUNCH"), now);
    },

    /**
     * Leaves the clone flow: the stage the environment ends in, cancelling the job if it has work ahead. At the
     * end the clone is complete; after a failure the environment failed; before either the clone is cancelled.
     */
    async exit(tx: Database, job: Job, now: Date): Promise<Stage> {
      if (job.status === "succeeded") return "STAGE_COMPLETED";
      if (job.status === "failed") return "STAGE_FAILED";
      if (job.status !== "cancelled") await moveJob(tx, job, { state: job.state, status: "cancelled" }, now);
      return "STAGE_CANCELED";
    },
  };
}

export type Cloning = ReturnType<typeof createCloning>;

/** The environment's latest clone job, locked FOR UPDATE when `lock` (jobs are always locked before rows). */
export async function cloneJobOf(
  db: Database,
  environmentId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<Job | undefined> {
  const query = db
    .select()
    .from(engineJobs)
    .where(and(eq(engineJobs.environmentId, environmentId), eq(engineJobs.kind, CLONE_JOB_KIND)))
    .orderBy(desc(engineJobs.createdAt))
    .limit(1);
  const [job] = lock ? await query.for("update") : await query;
  return job;
}

/** The contract's clone state; an environment that was never cloned is UNSPECIFIED. */
export function cloneStateOf(job: Job | undefined, resources: CloneState["resources"]): CloneState {
  if (!job) return { infraState: "UNSPECIFIED", history: [], details: null, resources };
  return {
    infraState: cloningStateSchema.parse(job.state),
    history: job.history.map(({ state, at }) => ({ state: cloningStateSchema.parse(state), at })),
    details: job.details,
    resources,
  };
}

/**
 * Where the environment's resources stand: the launch only queues their deployments, so at the clone's last
 * step they may still be deploying (or have failed).
 */
export async function cloneResourcesOf(
  db: Database,
  environmentId: string,
): Promise<CloneState["resources"]> {
  const rows = await db
    .select({ stage: resources.stage, count: count() })
    .from(resources)
    .where(and(eq(resources.environmentId, environmentId), ne(resources.serviceType, "application")))
    .groupBy(resources.stage);
  const stages = rows.map((row) => row.stage as Stage);
  return {
    total: rows.reduce((sum, row) => sum + row.count, 0),
    running: rows.find((row) => row.stage === "STAGE_COMPLETED")?.count ?? 0,
    // The contract's stage of no resources at all (an environment of none is a draft).
    stage: stages.length ? environmentStageOf("STAGE_UNSPECIFIED", stages) : "STAGE_UNSPECIFIED",
  };
}
