import { and, eq, inArray, ne, sql } from "drizzle-orm";
import * as z from "zod";
import { MAX_RETRIES, resourceActions, type ServiceType } from "#contract/service-catalogue";
import { serviceErrorMessages, type ConfigDiff } from "#contract/services";
import { changeLabel } from "#contract/change-words";
import type { Stage } from "#contract/stages";
import type { EngineConfig } from "../lib/config";
import { pushedCommitOf } from "./pushed-commits";
import type { Database } from "../db/index";
import { engineJobs, environments, resourceLogs, resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import type { Notify } from "../notifications/outbox";
import { recordUsage } from "../cost/usage";
import type { SecretCipher } from "../lib/cipher";
import { deployNumberOf, finishAction, recordAction } from "../services/history";
import { attributesContextOf, centsOf, driverResourceOf, type ResourceRow } from "../services/records";
import { applicationVariables } from "../applications/variables";
import type { AwsConnections } from "../connections/aws-accounts";
import type { ContainerHosts } from "./container-hosts";
import type { ChangePlan } from "../cloud/driver";
import {
  deployContextOf,
  deployDriverOf,
  failureOf,
  progressSinceOf,
  STEP_ATTEMPTS,
  timedOut,
  timeoutMessage,
  writeLines,
} from "./cloud-steps";
import {
  CloudStepError,
  RolloutFailedError,
  type CloudDriver,
  type DeployContext,
  type DeployDriver,
  type DeployStep,
} from "../cloud/driver";
import {
  enqueueJob,
  moveJob,
  outside,
  unfinishedJobStatuses,
  type Job,
  type JobKind,
  type OutsideWork,
  type Transition,
} from "../engine/jobs";
import { phasedDeployDriver } from "../cloud/simulated/phased-driver";
import { applicationDeployDriver } from "../cloud/simulated/application-deploy";
import {
  applicationSourcesOf,
  completeRelease,
  recordRelease,
  restoreRunningVersion,
} from "../applications/versions";

/**
 * Deploying a service (SPEC §4): a job of kind `service-deploy` per deployment, carrying the service's
 * environment so the environment cannot be deleted under it. The service's `stage` mirrors the job:
 *
 * QUEUED                    → STAGE_QUEUED; its step checks the environment's network, then runs the driver's first
 *                             step
 * INFRASTRUCTURE_NOT_READY  → STAGE_INFRASTRUCTURE_NOT_READY (job `waiting`): the environment has a network service
 *                             that is not deployed; the network's successful deployment queues it again
 * PHASE_<n>                 → STAGE_IN_PROGRESS: the driver's n-th step ran (its log lines written, what it recorded
 *                             persisted as the service's cloud state) and the job waits as long as the step asked;
 *                             its step runs the driver's next one, until the driver says done
 * SYNCING                   → STAGE_SYNCING: a settings-only change of a deployed service, through the same steps
 * CANCELING                 → STAGE_CANCELING: POST cancel; its step ends in CANCELED
 * COMPLETED | FAILED | CANCELED  the job's end, with STAGE_COMPLETED, STAGE_FAILED or STAGE_CANCELED
 *
 * The driver's steps run outside any transaction under the job's lease (platform/engine/jobs.ts): the simulated cloud's steps are
 * its phases, the AWS driver's call AWS. A step the cloud refuses fails the deployment with the cloud's words (a
 * transient refusal after the runner's retries); a deployment past its type's time-out fails saying what it waited
 * for. Under ENGINE_FAILURE_INJECTION a service whose name contains `fail-deploy` fails every deployment at its last
 * phase.
 */

export const DEPLOY_JOB_KIND = "service-deploy";
/** The marker a service's name carries to fail its deployments under ENGINE_FAILURE_INJECTION. */
export const DEPLOY_FAILURE_MARKER = "fail-deploy";

/** Seconds (times ENGINE_TIME_SCALE) a deployment waits in the queue, a settings sync and a cancel take. */
export const deployWaitSeconds = { queued: 1, syncing: 3, canceling: 2 } as const;

const podSchema = z.object({ name: z.string(), status: z.enum(["Pending", "Running", "Terminated"]) });
const deployPayloadSchema = z.object({
  resourceId: z.string(),
  historyId: z.string(),
  action: z.enum(resourceActions),
  podNames: z.array(z.string()),
  /** The pods that ran before this deployment; they stay when it fails or is canceled. */
  previousPods: z.array(podSchema),
  failInjected: z.boolean(),
  /** The driver's steps this deployment ran so far (jobs from before steps were counted: see stepIndexOf). */
  steps: z.number().int().optional(),
  /** When its first step ran, for the time-out. */
  startedAt: z.string().nullable().default(null),
  /** What the driver's last step said it waits for. */
  progress: z.string().nullable().default(null),
  /** When the driver's steps began saying `progress` (the same wait asked again keeps it): "since when". */
  progressSince: z.string().nullable().default(null),
  /** A preview's seed command, given to its first deployment of its first chosen application (decision 073). */
  seedCommand: z.string().optional(),
});
export type DeployPayload = z.infer<typeof deployPayloadSchema>;

/** Where the engine's steps leave a service, by job state. */
const phaseState = (index: number) => `PHASE_${index}`;
const phaseIndexOf = (state: string) => {
  const match = /^PHASE_(\d+)$/.exec(state);
  return match ? Number(match[1]) : null;
};

/** The number of the driver step the job runs next: after PHASE_<n>, the (n+1)-th. */
function stepIndexOf(job: Job, payload: DeployPayload): number {
  return payload.steps ?? (phaseIndexOf(job.state) ?? -1) + 1;
}

/** Whether `resource` may deploy now: anything but a network waits for the environment's networks to be deployed. */
export async function infrastructureReady(
  tx: Database,
  resource: Pick<ResourceRow, "id" | "environmentId" | "serviceType">,
): Promise<boolean> {
  if (resource.serviceType === "network") return true;
  const [pending] = await tx
    .select({ id: resources.id })
    .from(resources)
    .where(
      and(
        eq(resources.environmentId, resource.environmentId),
        eq(resources.serviceType, "network"),
        ne(resources.stage, "STAGE_COMPLETED"),
        ne(resources.id, resource.id),
      ),
    )
    .limit(1);
  return !pending;
}

/** The service's deployment with work ahead, locked FOR UPDATE when `lock` (jobs are locked before resources). */
export async function activeDeployOf(
  tx: Database,
  resourceId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<Job | undefined> {
  const query = tx
    .select()
    .from(engineJobs)
    .where(
      and(
        eq(engineJobs.kind, DEPLOY_JOB_KIND),
        inArray(engineJobs.status, unfinishedJobStatuses),
        sql`${engineJobs.payload}->>'resourceId' = ${resourceId}`,
      ),
    )
    .limit(1);
  const [job] = lock ? await query.for("update") : await query;
  return job;
}

export function createDeploys({
  driver,
  secrets,
  settings,
  notify,
  aws,
  containers,
  db,
  engineContext = {},
}: {
  /** Where the providers an application's source uses reach AWS (moto in tests) and the app. */
  engineContext?: { awsEndpoint?: string; appUrl?: string };
  /** The simulated cloud, whose phases deploy the services of environments without a real cloud. */
  driver: CloudDriver;
  secrets: SecretCipher;
  settings: Pick<EngineConfig, "timeScale" | "failureInjection">;
  /** Where a deployment's end is announced (Slack, Teams); the seed, which runs no jobs, has none. */
  notify?: Notify;
  /** Deploys the services of environments in an AWS connection; without it they deploy simulated. */
  aws?: AwsConnections;
  /** Deploys the services of environments on a container host; without it their steps fail (never simulated). */
  containers?: ContainerHosts;
  /** Where steps read what they need outside a transaction (a function's archive). */
  db?: Database;
}) {
  const scaled = (seconds: number) => Math.round(seconds * 1000 * settings.timeScale);
  const phased = phasedDeployDriver(driver, settings.timeScale);
  const applications = applicationDeployDriver(driver, settings.timeScale);
  // Applications deploy from their source with a rolling update; the other types wait out their phases.
  const simulated: DeployDriver = {
    apply: (context) =>
      context.resource.serviceType === "application" ? applications.apply(context) : phased.apply(context),
    secretAttributeNames: phased.secretAttributeNames,
    timeoutMinutes: () => null,
  };
  const driverOf = (tx: Database, environment: EnvironmentRow) =>
    deployDriverOf(tx, environment, { simulated, aws, containers });

  async function environmentOf(tx: Database, resource: ResourceRow): Promise<EnvironmentRow> {
    const [environment] = await tx
      .select()
      .from(environments)
      .where(eq(environments.id, resource.environmentId));
    if (!environment) throw new Error(`service ${resource.id} has no environment`);
    return environment;
  }

  async function lockResource(tx: Database, resourceId: string): Promise<ResourceRow | undefined> {
    const [row] = await tx.select().from(resources).where(eq(resources.id, resourceId)).for("update");
    return row;
  }

  async function setResource(tx: Database, id: string, values: Partial<ResourceRow>, now: Date) {
    await tx
      .update(resources)
      .set({ ...values, updatedAt: now })
      .where(eq(resources.id, id));
  }

  /** QUEUED: the service is in progress, the new pods pending beside the old ones, and the first step runs. */
  async function start(tx: Database, resource: ResourceRow, payload: DeployPayload, now: Date) {
    await setResource(
      tx,
      resource.id,
      {
        stage: "STAGE_IN_PROGRESS",
        message: null,
        pods: [
          ...payload.previousPods,
          ...payload.podNames.map((name) => ({ name, status: "Pending" as const })),
        ],
      },
      now,
    );
  }

  /**
   * The deployment succeeded: the service runs its new pods, priced, at the endpoint the driver answered, with the
   * secrets it answered sealed (a driver answers none when they are unchanged) and its outputs kept for the
   * environment's other services.
   */
  async function complete(
    tx: Database,
    resource: ResourceRow,
    environment: EnvironmentRow,
    payload: DeployPayload,
    result: Extract<DeployStep, { done: true }>,
    now: Date,
  ): Promise<Transition> {
    const described = driverResourceOf(resource, environment);
    await setResource(
      tx,
      resource.id,
      {
        stage: "STAGE_COMPLETED",
        endpoint: result.endpoint,
        pods: payload.podNames.map((name) => ({ name, status: "Running" as const })),
        deployedAt: now,
        retries: 0,
        message: result.detail ?? null,
        sealedAttributes: sealedAttributesOf(resource, result.secrets),
        cloudOutputs: result.outputs,
        monthlyCost: centsOf(driver.price(described).monthlyCost),
      },
      now,
    );
    // From now on it accrues at what this deployment runs (decision 035).
    await recordUsage(tx, driver, { resource: described, environment }, now);
    await finishAction(tx, payload.historyId, "STAGE_COMPLETED", payload.podNames, now);
    if (resource.serviceType === "application") await completeRelease(tx, payload.historyId, result.state);
    if (resource.serviceType === "network") await releaseWaiting(tx, resource.environmentId, now);
    return { state: "COMPLETED", status: "succeeded" };
  }

  /** A settings change landed: the service is deployed again, priced for its new settings. */
  async function completeSync(
    tx: Database,
    resource: ResourceRow,
    environment: EnvironmentRow,
    payload: DeployPayload,
    result: Extract<DeployStep, { done: true }>,
    now: Date,
  ): Promise<Transition> {
    const described = driverResourceOf(resource, environment);
    await setResource(
      tx,
      resource.id,
      {
        stage: "STAGE_COMPLETED",
        message: result.detail ?? null,
        endpoint: result.endpoint,
        sealedAttributes: sealedAttributesOf(resource, result.secrets),
        cloudOutputs: result.outputs,
        monthlyCost: centsOf(driver.price(described).monthlyCost),
      },
      now,
    );
    // Scaled or resized: from now on it accrues at its new size (decision 035).
    await recordUsage(tx, driver, { resource: described, environment }, now);
    await finishAction(tx, payload.historyId, "STAGE_COMPLETED", payload.podNames, now);
    return { state: "COMPLETED", status: "succeeded" };
  }

  function sealedAttributesOf(resource: ResourceRow, answered: Record<string, string>): string | null {
    if (!Object.keys(answered).length) return resource.sealedAttributes;
    return secrets.encrypt(JSON.stringify(answered), attributesContextOf(resource.id));
  }

  /** The deployment failed: the old pods keep running; the message says why, or that no retry is left. */
  async function fail(
    tx: Database,
    resource: ResourceRow,
    payload: DeployPayload,
    reason: string,
    now: Date,
  ): Promise<Transition> {
    await setResource(
      tx,
      resource.id,
      {
        stage: "STAGE_FAILED",
        message: resource.retries >= MAX_RETRIES ? serviceErrorMessages.retryLimit : reason,
        pods: payload.previousPods,
      },
      now,
    );
    const [podName] = payload.podNames;
    if (podName) {
      await tx
        .insert(resourceLogs)
        .values({ resourceId: resource.id, at: now, podName, level: "error", message: reason });
    }
    await finishAction(tx, payload.historyId, "STAGE_FAILED", payload.podNames, now);
    return { state: "FAILED", status: "failed", details: reason };
  }

  function injectedFailureOf(resource: ResourceRow, payload: DeployPayload, phase: string): string {
    const pods = payload.podNames.length;
    return (
      `${phase} failed: ${pods} of ${pods} ${pods === 1 ? "pod" : "pods"} of ${resource.name} did not become ` +
      `ready within 300 seconds (readiness probe failed: connection refused). Failure injected: ` +
      `ENGINE_FAILURE_INJECTION is on and the service's name contains "${DEPLOY_FAILURE_MARKER}".`
    );
  }

  /**
   * Runs `work` in a savepoint; at the step's last attempt a fault fails the deployment instead of the job alone
   * (the service would otherwise stay in progress), without the work's half-done writes.
   */
  async function guarded<Result>(
    job: Job,
    payload: DeployPayload,
    tx: Database,
    now: Date,
    work: (tx: Database) => Promise<Result>,
  ): Promise<Result | Transition> {
    try {
      return await tx.transaction(work);
    } catch (error) {
      if (job.attempts + 1 < STEP_ATTEMPTS) throw error;
      const resource = await lockResource(tx, payload.resourceId);
      if (!resource) throw error;
      const message = error instanceof Error ? error.message : String(error);
      console.error(`engine: deployment ${job.id} of ${resource.name} failed in ${job.state}`, error);
      return fail(tx, resource, payload, `The deployment stopped unexpectedly: ${message}`, now);
    }
  }

  /** The driver's next step, outside any transaction under the job's lease, then recorded by `recordStep`. */
  async function driverStep(
    job: Job,
    payload: DeployPayload,
    tx: Database,
    resource: ResourceRow,
    environment: EnvironmentRow,
    now: Date,
  ): Promise<OutsideWork> {
    const cloud = await driverOf(tx, environment);
    const context = await deployContextOf(
      tx,
      db,
      {
        resource,
        environment,
        step: stepIndexOf(job, payload),
        progress: payload.progress,
        change: job.state === "SYNCING" ? "settings" : "deploy",
        podNames: payload.podNames,
      },
      now,
    );
    const sealed = resource.sealedAttributes;
    if (sealed) {
      context.sealedSecrets = () =>
        JSON.parse(secrets.decrypt(sealed, attributesContextOf(resource.id))) as Record<string, string>;
    }
    if (resource.serviceType === "application") {
      context.previousPodNames = payload.previousPods.map((pod) => pod.name);
      if (db) context.sources = await applicationSourcesOf(tx, db, secrets, environment, engineContext);
      if (db) {
        context.variables = applicationVariables(
          db,
          secrets,
          environment.id,
          context.resource.settings.envvars,
        );
      }
      if (payload.seedCommand) context.seedCommand = payload.seedCommand;
      const push = await pushedCommitOf(tx, payload.historyId);
      if (push) context.pushedCommit = { sha: push.sha, message: push.message };
      // A build's output shows while it runs, each batch in a transaction of its own (never the step's).
      if (db)
        context.writeLines = (lines) => db.transaction((write) => writeLines(write, resource.id, lines));
    }
    const startedAt = payload.startedAt ?? now.toISOString();
    // A step waiting on something it started (a one-off command's container) stops it before the time-out fails
    // the deployment, which calls the driver no more.
    const minutes = cloud.timeoutMinutes(resource.serviceType as ServiceType);
    if (minutes !== null) context.deadline = new Date(new Date(startedAt).getTime() + minutes * 60_000);
    return outside(async () => {
      let result: DeployStep;
      try {
        result = await cloud.apply(context);
      } catch (error) {
        return async (record, at) => {
          const reason = failureOf(error, {
            attempts: job.attempts,
            timeoutMinutes: timedOut(cloud, resource, startedAt, at),
            progress: payload.progress,
            work: "deployment",
          });
          // Thrown back to the runner, which tries the step again after a backoff.
          if (reason === null) throw error;
          if (error instanceof CloudStepError) await writeLines(record, resource.id, error.lines);
          // The new pods never became healthy: the version that ran before is put back (decision 033).
          if (error instanceof RolloutFailedError) await restoreRunningVersion(record, resource.id, at);
          return failNow(record, payload, reason, at);
        };
      }
      return (record, at) =>
        guarded(job, payload, record, at, (work) =>
          recordStep(work, job, { ...payload, startedAt }, cloud, context, result, at),
        );
    });
  }

  /** Fails the deployment of the service (if it is still there) with `reason`. */
  async function failNow(
    tx: Database,
    payload: DeployPayload,
    reason: string,
    now: Date,
  ): Promise<Transition> {
    const resource = await lockResource(tx, payload.resourceId);
    if (!resource) return { state: "CANCELED", status: "cancelled" };
    return fail(tx, resource, payload, reason, now);
  }

  /** Keeps what the driver's step answered: its lines and state, then the wait for the next step or the end. */
  async function recordStep(
    tx: Database,
    job: Job,
    payload: DeployPayload,
    cloud: DeployDriver,
    context: DeployContext,
    result: DeployStep,
    now: Date,
  ): Promise<Transition> {
    const resource = await lockResource(tx, payload.resourceId);
    if (!resource) return { state: "CANCELED", status: "cancelled" };
    const environment = await environmentOf(tx, resource);
    await writeLines(tx, resource.id, result.lines);
    await setResource(tx, resource.id, { cloudState: result.state }, now);
    if (!result.done) {
      const minutes = timedOut(cloud, resource, payload.startedAt, now);
      if (minutes !== null) return fail(tx, resource, payload, timeoutMessage(minutes, result.progress), now);
      const steps = context.step + 1;
      return {
        state: job.state === "SYNCING" ? "SYNCING" : phaseState(steps - 1),
        status: "queued",
        delayMs: result.waitMs,
        payload: {
          ...payload,
          steps,
          progress: result.progress,
          progressSince: progressSinceOf(payload, result.progress, now),
        },
      };
    }
    if (job.state === "SYNCING") return completeSync(tx, resource, environment, payload, result, now);
    if (payload.failInjected && payload.progress) {
      return fail(tx, resource, payload, injectedFailureOf(resource, payload, payload.progress), now);
    }
    return complete(tx, resource, environment, payload, result, now);
  }

  async function stepOf(
    job: Job,
    payload: DeployPayload,
    tx: Database,
    now: Date,
  ): Promise<Transition | OutsideWork> {
    const resource = await lockResource(tx, payload.resourceId);
    // Deleted under a waiting job (DELETE cancels its job, so this is only a safety net).
    if (!resource) return { state: "CANCELED", status: "cancelled" };
    const environment = await environmentOf(tx, resource);

    if (job.state === "QUEUED") {
      if (!(await infrastructureReady(tx, resource))) {
        await setResource(tx, resource.id, { stage: "STAGE_INFRASTRUCTURE_NOT_READY" }, now);
        return { state: "INFRASTRUCTURE_NOT_READY", status: "waiting" };
      }
      await start(tx, resource, payload, now);
      return driverStep(job, payload, tx, resource, environment, now);
    }
    if (job.state === "CANCELING") {
      await setResource(tx, resource.id, { stage: "STAGE_CANCELED", pods: payload.previousPods }, now);
      await finishAction(tx, payload.historyId, "STAGE_CANCELED", payload.podNames, now);
      return { state: "CANCELED", status: "cancelled" };
    }
    if (job.state !== "SYNCING" && phaseIndexOf(job.state) === null) {
      throw new Error(`a deploy job has no step in state ${job.state}`);
    }
    return driverStep(job, payload, tx, resource, environment, now);
  }

  const kind: JobKind = {
    kind: DEPLOY_JOB_KIND,
    async step(job, tx, now) {
      const payload = deployPayloadSchema.parse(job.payload);
      return guarded(job, payload, tx, now, (work) => stepOf(job, payload, work, now));
    },
    giveUp(_job, error) {
      return { state: "FAILED", status: "failed", details: `The deployment stopped unexpectedly: ${error}` };
    },
    /** Announces the deployment's success or failure; a settings sync is not a deployment. */
    async ended(job, tx, now) {
      const payload = deployPayloadSchema.parse(job.payload);
      if (!notify || job.history[0]?.state === "SYNCING") return;
      const [resource] = await tx.select().from(resources).where(eq(resources.id, payload.resourceId));
      if (!resource) return;
      const environment = await environmentOf(tx, resource);
      const service = {
        id: resource.id,
        name: resource.name,
        serviceType: resource.serviceType as ServiceType,
      };
      if (job.status === "succeeded") {
        await notify(
          tx,
          { event: "deployment.succeeded", environment, service, action: payload.action },
          now,
        );
        return;
      }
      await notify(
        tx,
        {
          event: resource.retries >= MAX_RETRIES ? "deployment.retry-limit" : "deployment.failed",
          environment,
          service,
          action: payload.action,
          reason: job.details ?? resource.message ?? "The deployment failed.",
          retries: resource.retries,
        },
        now,
      );
    },
  };

  /**
   * Moves the environment's deployments that wait for its network back to the queue (their step checks again),
   * after a network deployed or was deleted.
   */
  async function releaseWaiting(tx: Database, environmentId: string, now: Date) {
    const waiting = await tx
      .select()
      .from(engineJobs)
      .where(
        and(
          eq(engineJobs.environmentId, environmentId),
          eq(engineJobs.kind, DEPLOY_JOB_KIND),
          eq(engineJobs.status, "waiting"),
          eq(engineJobs.state, "INFRASTRUCTURE_NOT_READY"),
        ),
      )
      .for("update");
    for (const job of waiting) {
      const { resourceId } = deployPayloadSchema.parse(job.payload);
      await moveJob(
        tx,
        job,
        { state: "QUEUED", status: "queued", delayMs: scaled(deployWaitSeconds.queued) },
        now,
      );
      await setResource(tx, resourceId, { stage: "STAGE_QUEUED" }, now);
    }
    return waiting.length;
  }

  /**
   * Queues a deployment of `resource` as it is stored (in the caller's transaction, after its writes), or a settings
   * sync (`sync`). `deployNumber` numbers the rollout (its pods' names). Returns the stage the service is now in.
   */
  async function enqueue(
    tx: Database,
    {
      resource,
      environment,
      historyId,
      action,
      deployNumber,
      sync = false,
      seedCommand,
    }: {
      resource: ResourceRow;
      environment: EnvironmentRow;
      historyId: string;
      action: DeployPayload["action"];
      deployNumber: number;
      sync?: boolean;
      seedCommand?: string;
    },
    now: Date,
  ): Promise<{ job: Job; stage: Stage }> {
    const described = driverResourceOf(resource, environment);
    const runningPods = resource.pods
      .filter((pod) => pod.status === "Running")
      .map((pod) => ({ name: pod.name, status: "Running" as const }));
    const payload: DeployPayload = {
      resourceId: resource.id,
      historyId,
      action,
      podNames: sync ? runningPods.map((pod) => pod.name) : driver.podNames(described, deployNumber),
      previousPods: runningPods,
      failInjected: !sync && settings.failureInjection && resource.name.includes(DEPLOY_FAILURE_MARKER),
      startedAt: null,
      progress: null,
      progressSince: null,
      ...(seedCommand ? { seedCommand } : {}),
    };
    if (!sync && resource.serviceType === "application") await recordRelease(tx, historyId, resource);
    let stage: Stage;
    let job: Job;
    if (sync) {
      stage = "STAGE_SYNCING";
      job = await enqueueJob(
        tx,
        {
          kind: DEPLOY_JOB_KIND,
          environmentId: resource.environmentId,
          state: "SYNCING",
          payload,
          delayMs: scaled(deployWaitSeconds.syncing),
        },
        now,
      );
    } else {
      job = await enqueueJob(
        tx,
        {
          kind: DEPLOY_JOB_KIND,
          environmentId: resource.environmentId,
          state: "QUEUED",
          payload,
          delayMs: scaled(deployWaitSeconds.queued),
        },
        now,
      );
      stage = "STAGE_QUEUED";
      if (!(await infrastructureReady(tx, resource))) {
        job = await moveJob(tx, job, { state: "INFRASTRUCTURE_NOT_READY", status: "waiting" }, now);
        stage = "STAGE_INFRASTRUCTURE_NOT_READY";
      }
    }
    // A deployment ends any drift the check found: its outcome, not the check, says how the service is.
    await setResource(tx, resource.id, { stage, message: null, driftedAt: null }, now);
    return { job, stage };
  }

  /**
   * Records `action` and queues the deployment (or settings sync) of the service as it is now stored. Given what it
   * was before (`previous`), a cloud that can tell says which changes land in place and which replace the service,
   * in the history entry's message and the deployment's logs.
   */
  async function launch(
    tx: Database,
    {
      resource,
      environment,
      action,
      actor,
      diff,
      previous,
      sync = false,
      seedCommand,
    }: {
      resource: ResourceRow;
      environment: EnvironmentRow;
      action: DeployPayload["action"];
      actor: string;
      diff: ConfigDiff;
      previous?: Pick<ResourceRow, "config" | "settings">;
      sync?: boolean;
      /** Run once by this deployment before the new version starts (a preview's first: decision 073). */
      seedCommand?: string;
    },
    now: Date,
  ) {
    const cloud = await driverOf(tx, environment);
    const message =
      previous && diff.length && cloud.plan
        ? changePlanMessage(
            cloud.plan(
              driverResourceOf({ ...resource, ...previous }, environment),
              driverResourceOf(resource, environment),
            ),
            resource.serviceType as ServiceType,
          )
        : null;
    const history = await recordAction(tx, { resourceId: resource.id, action, actor, diff, message }, now);
    const deployNumber = await deployNumberOf(tx, resource.id);
    const queued = await enqueue(
      tx,
      { resource, environment, historyId: history.id, action, deployNumber, sync, seedCommand },
      now,
    );
    const [podName] = deployPayloadSchema.parse(queued.job.payload).podNames;
    if (message) {
      await writeLines(tx, resource.id, [
        { at: now, podName: podName ?? resource.name, level: "info", message },
      ]);
    }
    return queued;
  }

  /** POST cancel: the deployment `job` (locked) stops; the service is canceling until the job's step ends it. */
  async function cancel(tx: Database, job: Job, now: Date) {
    const { resourceId } = deployPayloadSchema.parse(job.payload);
    await moveJob(
      tx,
      job,
      { state: "CANCELING", status: "queued", delayMs: scaled(deployWaitSeconds.canceling) },
      now,
    );
    await setResource(tx, resourceId, { stage: "STAGE_CANCELING" }, now);
  }

  /** Ends a job whose service is going away (DELETE of a service waiting for its network). */
  async function abandon(tx: Database, job: Job, now: Date) {
    await moveJob(tx, job, { state: "CANCELED", status: "cancelled" }, now);
  }

  /**
   * Runs a whole deployment at once from `startedAt`, phase after phase as the engine would, for seeding: the log
   * lines and the history carry the times the phases would have had.
   */
  async function deployAtOnce(
    tx: Database,
    {
      resource,
      environment,
      historyId,
      action,
      deployNumber,
    }: {
      resource: ResourceRow;
      environment: EnvironmentRow;
      historyId: string;
      action: DeployPayload["action"];
      deployNumber: number;
    },
    startedAt: Date,
  ): Promise<Stage> {
    const payload: DeployPayload = {
      resourceId: resource.id,
      historyId,
      action,
      podNames: driver.podNames(driverResourceOf(resource, environment), deployNumber),
      previousPods: [],
      failInjected: false,
      startedAt: null,
      progress: null,
      progressSince: null,
    };
    if (resource.serviceType === "application") await recordRelease(tx, historyId, resource);
    let at = startedAt;
    for (let step = 0; ; step += 1) {
      const context = await deployContextOf(
        tx,
        db,
        { resource, environment, step, progress: null, change: "deploy", podNames: payload.podNames },
        at,
      );
      const result = await simulated.apply(context);
      await writeLines(tx, resource.id, result.lines);
      if (result.done) {
        await complete(tx, resource, environment, payload, result, at);
        return "STAGE_COMPLETED";
      }
      at = new Date(at.getTime() + result.waitMs);
    }
  }

  return { kind, driverOf, enqueue, launch, cancel, abandon, releaseWaiting, deployAtOnce };
}

export type Deploys = ReturnType<typeof createDeploys>;

/**
 * How a configuration change lands, in the words of the history entry and the deployment's logs: the settings in
 * the words of the form that changed them ("Storage (GB)"), as the plan before saving says them.
 */
export function changePlanMessage({ inPlace, replace }: ChangePlan, serviceType: ServiceType): string | null {
  const words = (paths: string[]) => paths.map((path) => changeLabel(serviceType, path)).join(", ");
  const parts = [
    inPlace.length ? `Updates in place: ${words(inPlace)}.` : "",
    replace.length ? `Replaces the service: ${words(replace)}.` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" ") : null;
}
