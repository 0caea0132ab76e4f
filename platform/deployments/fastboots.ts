import { and, asc, eq, inArray } from "drizzle-orm";
import * as z from "zod";
import {
  fastbootStackIdSchema,
  fastbootStacks,
  type Fastboot,
  type FastbootService,
  type FastbootStackId,
  type FastbootStatus,
} from "#contract/fastboot";
import { busyStages, noContainerFormMessage } from "#contract/service-catalogue";
import { defaultServiceSettings, type ServiceSettings } from "#contract/services";
import type { Stage } from "#contract/stages";
import type { CloudProvider } from "#contract/cloud-providers";
import type { CostEstimate } from "#contract/environments";
import { applicationSettingsOf } from "../services/application-config";
import type { Database } from "../db/index";
import { engineJobs, environments, resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import { createService } from "../services/services";
import type { ResourceRow } from "../services/records";
import type { Deploys } from "./deploys";
import type { CloudDriver } from "../cloud/driver";
import { enqueueJob, moveJob, type Job, type JobKind, type Transition } from "../engine/jobs";

/**
 * Fastboot (issue 17, decision 038): a starter stack (contract/fastboot.ts) becomes an environment's services. POST
 * fastboot creates the environment and every service as a draft in one transaction with a job of kind
 * `environment-fastboot`, which launches the drafts in dependency order:
 *
 * LAUNCHING   launches (Provision) every draft whose dependencies are deployed, then:
 *             → COMPLETED (succeeded) once every service of the stack is deployed;
 *             → DEPLOYING (waiting) while a deployment runs: the end of any deployment in the environment moves the
 *               job back to LAUNCHING (`deploymentEnded`, called by the deploy jobs' end);
 *             → FAILED (failed) when a service failed or was canceled and nothing moves any more: retrying it
 *               (POST retry, or a launch) ends in another deployment end, which moves the job back to LAUNCHING.
 *               A canceled deployment moves it back too (the deploy jobs' step that ends in CANCELED).
 *
 * Everything is in the database (the drafts, the deployments' jobs, this job), so a platform restarted in the middle
 * goes on where it stopped. The step reads the services FOR SHARE: a deployment ending at the same moment commits
 * first (it holds its service), so the step never decides to wait on a deployment that already ended.
 */

export const FASTBOOT_JOB_KIND = "environment-fastboot";

const fastbootPayloadSchema = z.object({
  stack: fastbootStackIdSchema,
  /** Who asked: the services' history names them for the launches. */
  actor: z.string(),
});
type FastbootPayload = z.infer<typeof fastbootPayloadSchema>;

const launching: Transition = { state: "LAUNCHING", status: "queued", delayMs: 0 };

/** The settings a stack's service is created with: an application's follow from its configuration. */
function settingsOf(service: FastbootService): ServiceSettings {
  return service.serviceType === "application"
    ? applicationSettingsOf(service.config, defaultServiceSettings)
    : defaultServiceSettings;
}

/**
 * The services a stack creates on `cloudProvider`. On a container host those with no container form (the
 * network) are left out rather than failing there, and nothing waits for them: the engine's own network stands
 * in (issue 26); a service's `onContainers` description and configuration replace its own there.
 */
export function stackServicesOn(stackId: FastbootStackId, cloudProvider: string): FastbootService[] {
  const services = fastbootStacks[stackId].services;
  if (cloudProvider !== "CONTAINERS") return services;
  const kept = services.filter((service) => noContainerFormMessage(service.serviceType) === null);
  const names = new Set(kept.map((service) => service.name));
  return kept.map(({ onContainers, ...service }) => ({
    ...service,
    ...onContainers,
    dependsOn: service.dependsOn.filter((name) => names.has(name)),
  })) as FastbootService[];
}

/** The stack's monthly estimate where it would run: each service's catalogue price, line by line. */
export function estimateStack(
  driver: Pick<CloudDriver, "price">,
  stackId: FastbootStackId,
  placement: { cloudProvider: CloudProvider; region: string },
): CostEstimate {
  const breakdown = stackServicesOn(stackId, placement.cloudProvider).flatMap((service) =>
    driver
      .price({
        serviceType: service.serviceType,
        config: service.config as Record<string, unknown>,
        settings: settingsOf(service),
        ...placement,
      })
      .breakdown.map((line) => ({ item: `${service.name}: ${line.item}`, monthlyCost: line.monthlyCost })),
  );
  const total = breakdown.reduce((sum, line) => sum + line.monthlyCost, 0);
  return { currency: "USD", monthlyCost: Math.round(total * 100) / 100, breakdown };
}

const isDeployed = (row: ResourceRow | undefined) => row?.stage === "STAGE_COMPLETED";

export function createFastboots({ deploys }: { deploys: Deploys }) {
  async function environmentOf(tx: Database, job: Job): Promise<EnvironmentRow | undefined> {
    if (!job.environmentId) return undefined;
    const [environment] = await tx.select().from(environments).where(eq(environments.id, job.environmentId));
    return environment;
  }

  /** LAUNCHING: launches what may go now and says what the job waits for. */
  async function launchReady(
    job: Job,
    payload: FastbootPayload,
    tx: Database,
    now: Date,
  ): Promise<Transition> {
    const environment = await environmentOf(tx, job);
    if (!environment) return { state: "CANCELED", status: "cancelled" };
    const services = stackServicesOn(payload.stack, environment.cloudProvider);
    const rows = await tx
      .select()
      .from(resources)
      .where(eq(resources.environmentId, environment.id))
      .for("share");
    const byName = new Map(rows.map((row) => [row.name, row]));
    for (const service of services) {
      const row = byName.get(service.name);
      if (row?.stage !== "STAGE_DRAFT") continue;
      if (!service.dependsOn.every((name) => isDeployed(byName.get(name)))) continue;
      const [locked] = await tx.select().from(resources).where(eq(resources.id, row.id)).for("update");
      if (!locked) continue;
      const { stage } = await deploys.launch(
        tx,
        { resource: locked, environment, action: "Provision", actor: payload.actor, diff: [] },
        now,
      );
      byName.set(service.name, { ...locked, stage });
    }
    const stages = services.map((service) => byName.get(service.name)?.stage);
    if (stages.every((stage) => stage === "STAGE_COMPLETED"))
      return { state: "COMPLETED", status: "succeeded" };
    if (stages.some((stage) => stage && busyStages.includes(stage as Stage))) {
      return { state: "DEPLOYING", status: "waiting" };
    }
    const stopped = services.filter((service) => {
      const stage = byName.get(service.name)?.stage;
      return stage === undefined || stage === "STAGE_FAILED" || stage === "STAGE_CANCELED";
    });
    const names = stopped.map((service) => service.name).join(", ") || "a service";
    return {
      state: "FAILED",
      status: "failed",
      details: `${names} did not deploy. Retry it to go on: what depends on it launches once it is deployed.`,
    };
  }

  const kind: JobKind = {
    kind: FASTBOOT_JOB_KIND,
    async step(job, tx, now) {
      const payload = fastbootPayloadSchema.parse(job.payload);
      if (job.state !== "LAUNCHING") throw new Error(`a fastboot job has no step in state ${job.state}`);
      return launchReady(job, payload, tx, now);
    },
    giveUp(_job, error) {
      return { state: "FAILED", status: "failed", details: `The fastboot stopped unexpectedly: ${error}` };
    },
  };

  return {
    kind,

    /**
     * Creates the stack's services as drafts in the just-created `environment` and queues their launch, in the
     * caller's transaction.
     */
    async create(
      tx: Database,
      { environment, stack, actor }: { environment: EnvironmentRow; stack: FastbootStackId; actor: string },
      now: Date,
    ): Promise<Job> {
      for (const service of stackServicesOn(stack, environment.cloudProvider)) {
        const created = await createService(
          tx,
          {
            environment,
            serviceType: service.serviceType,
            name: service.name,
            config: service.config as Record<string, unknown>,
            settings: settingsOf(service),
            launch: false,
            actor,
          },
          now,
        );
        if (!created) throw new Error(`the new environment already has a service named ${service.name}`);
      }
      const payload: FastbootPayload = { stack, actor };
      return enqueueJob(
        tx,
        { kind: FASTBOOT_JOB_KIND, environmentId: environment.id, state: "LAUNCHING", payload },
        now,
      );
    },

    /**
     * A deployment in the environment ended (succeeded or failed): its fastboot, waiting for it or stopped at a
     * failure that was retried, looks again at what may launch.
     */
    async deploymentEnded(tx: Database, environmentId: string | null, now: Date) {
      if (!environmentId) return;
      const jobs = await tx
        .select()
        .from(engineJobs)
        .where(
          and(
            eq(engineJobs.environmentId, environmentId),
            eq(engineJobs.kind, FASTBOOT_JOB_KIND),
            inArray(engineJobs.status, ["waiting", "failed"]),
          ),
        )
        .for("update");
      for (const job of jobs) await moveJob(tx, job, launching, now);
    },
  };
}

export type Fastboots = ReturnType<typeof createFastboots>;

/** The fastboot job `id` of an environment of `tenantId`, with its environment; undefined for any other. */
export async function findFastboot(
  db: Database,
  tenantId: string,
  id: string,
): Promise<{ job: Job; environment: EnvironmentRow } | undefined> {
  const [found] = await db
    .select({ job: engineJobs, environment: environments })
    .from(engineJobs)
    .innerJoin(environments, eq(environments.id, engineJobs.environmentId))
    .where(
      and(eq(engineJobs.id, id), eq(engineJobs.kind, FASTBOOT_JOB_KIND), eq(environments.tenantId, tenantId)),
    );
  return found;
}

/** Where the fastboot stands: its job's end, or what its services are doing. */
export async function toFastboot(
  db: Database,
  { job, environment }: { job: Job; environment: EnvironmentRow },
): Promise<Fastboot> {
  const { stack: stackId } = fastbootPayloadSchema.parse(job.payload);
  const stack = fastbootStacks[stackId];
  const services = stackServicesOn(stackId, environment.cloudProvider);
  const rows = await db
    .select()
    .from(resources)
    .where(eq(resources.environmentId, environment.id))
    .orderBy(asc(resources.createdAt));
  const byName = new Map(rows.map((row) => [row.name, row]));
  const listed = services.flatMap((service) => {
    const row = byName.get(service.name);
    if (!row) return [];
    return [
      {
        id: row.id,
        name: row.name,
        serviceType: row.serviceType,
        description: service.description,
        stage: row.stage as Stage,
        message: row.message,
        endpoint: row.endpoint,
        dependsOn: service.dependsOn,
      },
    ];
  });
  const moving = job.status === "queued" || listed.some((row) => busyStages.includes(row.stage));
  const stopped = listed.some((row) => row.stage === "STAGE_FAILED" || row.stage === "STAGE_CANCELED");
  const status: FastbootStatus =
    job.status === "succeeded"
      ? "completed"
      : moving
        ? "deploying"
        : stopped || job.status === "failed"
          ? "failed"
          : "deploying";
  const applicationService = services.find((service) => service.serviceType === "application");
  const application = listed.find((row) => row.name === applicationService?.name);
  return {
    id: job.id,
    stack: stackId,
    stackName: stack.name,
    environment: { id: environment.id, name: environment.name },
    status,
    resources: listed,
    application: application
      ? {
          id: application.id,
          name: application.name,
          url: application.stage === "STAGE_COMPLETED" ? application.endpoint : null,
        }
      : null,
    createdAt: job.createdAt.toISOString(),
  };
}
