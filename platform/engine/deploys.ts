import { and, eq, inArray, ne, sql } from "drizzle-orm";
import * as z from "zod";
import {
  MAX_RETRIES,
  resourceActions,
  serviceErrorMessages,
  type ConfigDiff,
  type ServiceType,
} from "#contract/services";
import type { Stage } from "#contract/stages";
import type { EngineConfig } from "../config";
import type { Database } from "../db/index";
import { engineJobs, environments, resourceLogs, resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import type { Notify } from "../notifications/outbox";
import type { SecretCipher } from "../secrets/cipher";
import { deployNumberOf, finishAction, recordAction } from "../services/history";
import { attributesContextOf, centsOf, driverResourceOf, type ResourceRow } from "../services/records";
import type { CloudDriver, DeployPhase } from "./driver";
import { enqueueJob, moveJob, unfinishedJobStatuses, type Job, type JobKind, type Transition } from "./jobs";

/**
 * Deploying a service (SPEC §4): a job of kind `service-deploy` per deployment, carrying the service's
 * environment so the environment cannot be deleted under it. The service's `stage` mirrors the job:
 *
 * QUEUED                    → STAGE_QUEUED; its step checks the environment's network, then starts the first phase
 * INFRASTRUCTURE_NOT_READY  → STAGE_INFRASTRUCTURE_NOT_READY (job `waiting`): the environment has a network service
 *                             that is not deployed; the network's successful deployment queues it again
 * PHASE_<n>                 → STAGE_IN_PROGRESS: the driver's n-th deploy phase runs (its log lines are written as it
 *                             starts); its step ends it and starts the next, or completes the deployment
 * SYNCING                   → STAGE_SYNCING: a settings-only change of a deployed service
 * CANCELING                 → STAGE_CANCELING: POST cancel; its step ends in CANCELED
 * COMPLETED | FAILED | CANCELED  the job's end, with STAGE_COMPLETED, STAGE_FAILED or STAGE_CANCELED
 *
 * Under ENGINE_FAILURE_INJECTION a service whose name contains `fail-deploy` fails every deployment at its last phase.
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
  phases: z.array(z.object({ name: z.string(), seconds: z.number() })),
  podNames: z.array(z.string()),
  /** The pods that ran before this deployment; they stay when it fails or is canceled. */
  previousPods: z.array(podSchema),
  failInjected: z.boolean(),
});
export type DeployPayload = z.infer<typeof deployPayloadSchema>;

/** Where the engine's steps leave a service, by job state. */
const phaseState = (index: number) => `PHASE_${index}`;
const phaseIndexOf = (state: string) => {
  const match = /^PHASE_(\d+)$/.exec(state);
  return match ? Number(match[1]) : null;
};

/** The maximum attempts the runner gives a step (its default); the last one fails the deployment instead. */
const STEP_ATTEMPTS = 5;

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
}: {
  driver: CloudDriver;
  secrets: SecretCipher;
  settings: Pick<EngineConfig, "timeScale" | "failureInjection">;
  /** Where a deployment's end is announced (Slack, Teams); the seed, which runs no jobs, has none. */
  notify?: Notify;
}) {
  const scaled = (seconds: number) => Math.round(seconds * 1000 * settings.timeScale);

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

  async function writePhaseLogs(
    tx: Database,
    resource: ResourceRow,
    environment: EnvironmentRow,
    payload: DeployPayload,
    phase: DeployPhase,
    startedAt: Date,
  ) {
    const lines = driver.deployLogs(
      driverResourceOf(resource, environment),
      payload.podNames,
      phase,
      startedAt,
    );
    if (lines.length) {
      await tx.insert(resourceLogs).values(lines.map((line) => ({ resourceId: resource.id, ...line })));
    }
  }

  /** QUEUED → the first phase: the service is in progress, the new pods pending beside the old ones. */
  async function start(
    tx: Database,
    resource: ResourceRow,
    environment: EnvironmentRow,
    payload: DeployPayload,
    now: Date,
  ): Promise<Transition> {
    const [first] = payload.phases;
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
    if (!first) return complete(tx, resource, environment, payload, now);
    await writePhaseLogs(tx, resource, environment, payload, first, now);
    return { state: phaseState(0), status: "queued", delayMs: scaled(first.seconds) };
  }

  /** The deployment succeeded: the service runs its new pods, priced, and has its secrets from the first time. */
  async function complete(
    tx: Database,
    resource: ResourceRow,
    environment: EnvironmentRow,
    payload: DeployPayload,
    now: Date,
  ): Promise<Transition> {
    const described = driverResourceOf(resource, environment);
    const endpoint = driver.endpoint(described);
    const sealedAttributes =
      resource.sealedAttributes ??
      secrets.encrypt(
        JSON.stringify(driver.createSecretAttributes(described, endpoint)),
        attributesContextOf(resource.id),
      );
    await setResource(
      tx,
      resource.id,
      {
        stage: "STAGE_COMPLETED",
        endpoint,
        pods: payload.podNames.map((name) => ({ name, status: "Running" as const })),
        deployedAt: now,
        retries: 0,
        message: null,
        sealedAttributes,
        monthlyCost: centsOf(driver.price(described).monthlyCost),
      },
      now,
    );
    await finishAction(tx, payload.historyId, "STAGE_COMPLETED", payload.podNames, now);
    if (resource.serviceType === "network") await releaseWaiting(tx, resource.environmentId, now);
    return { state: "COMPLETED", status: "succeeded" };
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

  function injectedFailureOf(resource: ResourceRow, payload: DeployPayload, phase: DeployPhase): string {
    const pods = payload.podNames.length;
    return (
      `${phase.name} failed: ${pods} of ${pods} ${pods === 1 ? "pod" : "pods"} of ${resource.name} did not become ` +
      `ready within 300 seconds (readiness probe failed: connection refused). Failure injected: ` +
      `ENGINE_FAILURE_INJECTION is on and the service's name contains "${DEPLOY_FAILURE_MARKER}".`
    );
  }

  async function stepOf(job: Job, payload: DeployPayload, tx: Database, now: Date): Promise<Transition> {
    const resource = await lockResource(tx, payload.resourceId);
    // Deleted under a waiting job (DELETE cancels its job, so this is only a safety net).
    if (!resource) return { state: "CANCELED", status: "cancelled" };
    const environment = await environmentOf(tx, resource);

    if (job.state === "QUEUED") {
      if (!(await infrastructureReady(tx, resource))) {
        await setResource(tx, resource.id, { stage: "STAGE_INFRASTRUCTURE_NOT_READY" }, now);
        return { state: "INFRASTRUCTURE_NOT_READY", status: "waiting" };
      }
      return start(tx, resource, environment, payload, now);
    }
    if (job.state === "SYNCING") {
      await setResource(
        tx,
        resource.id,
        {
          stage: "STAGE_COMPLETED",
          message: null,
          monthlyCost: centsOf(driver.price(driverResourceOf(resource, environment)).monthlyCost),
        },
        now,
      );
      await finishAction(tx, payload.historyId, "STAGE_COMPLETED", payload.podNames, now);
      return { state: "COMPLETED", status: "succeeded" };
    }
    if (job.state === "CANCELING") {
      await setResource(tx, resource.id, { stage: "STAGE_CANCELED", pods: payload.previousPods }, now);
      await finishAction(tx, payload.historyId, "STAGE_CANCELED", payload.podNames, now);
      return { state: "CANCELED", status: "cancelled" };
    }
    const index = phaseIndexOf(job.state);
    const phase = index === null ? undefined : payload.phases[index];
    if (index === null || !phase) throw new Error(`a deploy job has no step in state ${job.state}`);
    const nextPhase = payload.phases[index + 1];
    if (nextPhase) {
      await writePhaseLogs(tx, resource, environment, payload, nextPhase, now);
      return { state: phaseState(index + 1), status: "queued", delayMs: scaled(nextPhase.seconds) };
    }
    if (payload.failInjected)
      return fail(tx, resource, payload, injectedFailureOf(resource, payload, phase), now);
    return complete(tx, resource, environment, payload, now);
  }

  const kind: JobKind = {
    kind: DEPLOY_JOB_KIND,
    async step(job, tx, now) {
      const payload = deployPayloadSchema.parse(job.payload);
      try {
        // A savepoint, so the last attempt can record the failure without the step's half-done writes.
        return await tx.transaction((work) => stepOf(job, payload, work, now));
      } catch (error) {
        if (job.attempts + 1 < STEP_ATTEMPTS) throw error;
        const resource = await lockResource(tx, payload.resourceId);
        if (!resource) throw error;
        const message = error instanceof Error ? error.message : String(error);
        console.error(`engine: deployment ${job.id} of ${resource.name} failed in ${job.state}`, error);
        return fail(tx, resource, payload, `The deployment stopped unexpectedly: ${message}`, now);
      }
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
    }: {
      resource: ResourceRow;
      environment: EnvironmentRow;
      historyId: string;
      action: DeployPayload["action"];
      deployNumber: number;
      sync?: boolean;
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
      phases: sync ? [] : driver.deployPlan(described),
      podNames: sync ? runningPods.map((pod) => pod.name) : driver.podNames(described, deployNumber),
      previousPods: runningPods,
      failInjected: !sync && settings.failureInjection && resource.name.includes(DEPLOY_FAILURE_MARKER),
    };
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
    await setResource(tx, resource.id, { stage, message: null }, now);
    return { job, stage };
  }

  /** Records `action` and queues the deployment (or settings sync) of the service as it is now stored. */
  async function launch(
    tx: Database,
    {
      resource,
      environment,
      action,
      actor,
      diff,
      sync = false,
    }: {
      resource: ResourceRow;
      environment: EnvironmentRow;
      action: DeployPayload["action"];
      actor: string;
      diff: ConfigDiff;
      sync?: boolean;
    },
    now: Date,
  ) {
    const history = await recordAction(tx, { resourceId: resource.id, action, actor, diff }, now);
    const deployNumber = await deployNumberOf(tx, resource.id);
    return enqueue(tx, { resource, environment, historyId: history.id, action, deployNumber, sync }, now);
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
    const described = driverResourceOf(resource, environment);
    const payload: DeployPayload = {
      resourceId: resource.id,
      historyId,
      action,
      phases: driver.deployPlan(described),
      podNames: driver.podNames(described, deployNumber),
      previousPods: [],
      failInjected: false,
    };
    let at = startedAt;
    for (const phase of payload.phases) {
      await writePhaseLogs(tx, resource, environment, payload, phase, at);
      at = new Date(at.getTime() + phase.seconds * 1000);
    }
    await complete(tx, resource, environment, payload, at);
    return "STAGE_COMPLETED";
  }

  return { kind, enqueue, launch, cancel, abandon, releaseWaiting, deployAtOnce };
}

export type Deploys = ReturnType<typeof createDeploys>;
