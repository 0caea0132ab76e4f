import { and, eq, inArray } from "drizzle-orm";
import * as z from "zod";
import type { ServiceType } from "#contract/service-catalogue";
import type { Database } from "../db/index";
import { engineJobs, environments, organizations, resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import type { ResourceRow } from "../services/records";
import type { Deploys } from "./deploys";
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
import { TEARDOWN_JOB_KIND, type Teardowns } from "./teardowns";

/**
 * Deleting an environment whose cloud keeps what its services created (AWS): a job of kind
 * `environment-teardown` tears its services down with their teardown jobs (./teardowns.ts) in reverse dependency
 * order (applications, then the other services, then the network they all run in), then deletes the environment's
 * rows. Meanwhile the environment's `deletion_stage` is STAGE_IN_PROGRESS (its stage too, whatever its services'),
 * and new work in it is refused.
 *
 * TEARING_DOWN  → queues the teardowns of the next tier of services still there, then waits (`waiting`) until
 *                 they end: each teardown's end wakes it (`wakeEnvironmentTeardown`)
 * DELETED       no service is left: the environment's rows are gone (the job, detached from it, stays as a record)
 * FAILED        a teardown failed: the environment stays, STAGE_FAILED, its message naming what could not be deleted
 *               and why; DELETE again starts over with what is left
 *
 * An environment whose cloud keeps nothing (the simulated one), or whose services never reached it, is deleted at
 * once (`remove`).
 */

export const ENVIRONMENT_TEARDOWN_JOB_KIND = "environment-teardown";

const payloadSchema = z.object({
  /** The services whose teardown this job queued: one still there once its teardown ended could not be deleted. */
  started: z.array(z.string()),
  /** The cloud removed what the environment itself held (a container host's network), once its services were gone. */
  cleared: z.boolean().optional(),
});
type Payload = z.infer<typeof payloadSchema>;

const deletingMessage = "Deleting: tearing down its services in its cloud, then the environment.";

/** The order services are torn down in: what runs on others first, the network they all need last. */
const tierOf = (serviceType: ServiceType) =>
  serviceType === "application" ? 0 : serviceType === "network" ? 2 : 1;

/** The services whose teardown runs next: those of the first tier that still has any. */
function nextTier(services: ResourceRow[]): ResourceRow[] {
  const tiers = services.map((service) => tierOf(service.serviceType as ServiceType));
  const first = Math.min(...tiers);
  return services.filter((_, index) => tiers[index] === first);
}

/** What the user reads of a deletion that could not finish. */
function failureMessageOf(failed: ResourceRow[]): string {
  const reasons = failed.map((service) => `${service.name}: ${service.message ?? "its teardown failed"}`);
  return (
    `Could not delete ${failed.length === 1 ? "a service" : `${failed.length} services`} in the cloud ` +
    `(${reasons.join("; ")}). Delete the environment again to retry.`
  );
}

/**
 * Moves the environment's deletion job on when a teardown ended (called in the transaction that ends it), so it
 * queues the next tier or finishes.
 */
export async function wakeEnvironmentTeardown(tx: Database, environmentId: string, now: Date) {
  const waiting = await tx
    .select()
    .from(engineJobs)
    .where(
      and(
        eq(engineJobs.environmentId, environmentId),
        eq(engineJobs.kind, ENVIRONMENT_TEARDOWN_JOB_KIND),
        eq(engineJobs.status, "waiting"),
      ),
    )
    .for("update");
  for (const job of waiting) {
    await moveJob(tx, job, { state: job.state, status: "queued", delayMs: 0 }, now);
  }
}

export function createEnvironmentTeardowns({
  deploys,
  teardowns,
}: {
  deploys: Pick<Deploys, "driverOf">;
  teardowns: Pick<Teardowns, "remove">;
}) {
  async function servicesOf(tx: Database, environmentId: string): Promise<ResourceRow[]> {
    return tx.select().from(resources).where(eq(resources.environmentId, environmentId)).for("update");
  }

  async function setDeletion(
    tx: Database,
    environmentId: string,
    deletion: { stage: "STAGE_IN_PROGRESS" | "STAGE_FAILED"; message: string } | null,
  ) {
    await tx
      .update(environments)
      .set({ deletionStage: deletion?.stage ?? null, deletionMessage: deletion?.message ?? null })
      .where(eq(environments.id, environmentId));
  }

  /** The rows go; the job, detached first, stays as the record of the deletion. */
  async function deleteEnvironment(tx: Database, job: Job | null, environmentId: string) {
    if (job) await tx.update(engineJobs).set({ environmentId: null }).where(eq(engineJobs.id, job.id));
    await tx.delete(environments).where(eq(environments.id, environmentId));
  }

  async function step(job: Job, tx: Database, now: Date): Promise<Transition | OutsideWork> {
    const payload = payloadSchema.parse(job.payload);
    const environmentId = job.environmentId;
    const [environment] = environmentId
      ? await tx.select().from(environments).where(eq(environments.id, environmentId)).for("update")
      : [];
    if (!environment) return { state: "DELETED", status: "succeeded" };
    const services = await servicesOf(tx, environment.id);
    if (services.length === 0) {
      // A platform without the environment's driver (no container driver) has nothing of it to clear.
      const cloud = await deploys.driverOf(tx, environment).catch(() => null);
      if (cloud?.teardownEnvironment && !payload.cleared) {
        const teardownEnvironment = cloud.teardownEnvironment;
        const [organization] = await tx
          .select({ id: organizations.id })
          .from(organizations)
          .where(eq(organizations.tenantId, environment.tenantId));
        const environmentOf = { organizationId: organization?.id ?? "", environmentId: environment.id };
        // Outside any transaction; a failure is retried by the runner, then fails the deletion in its words.
        return outside(async () => {
          await teardownEnvironment(environmentOf);
          return async () => ({
            state: "TEARING_DOWN",
            status: "queued",
            delayMs: 0,
            payload: { ...payload, cleared: true },
          });
        });
      }
      await deleteEnvironment(tx, job, environment.id);
      return { state: "DELETED", status: "succeeded" };
    }
    const [tearingDown] = await tx
      .select({ id: engineJobs.id })
      .from(engineJobs)
      .where(
        and(
          eq(engineJobs.environmentId, environment.id),
          eq(engineJobs.kind, TEARDOWN_JOB_KIND),
          inArray(engineJobs.status, unfinishedJobStatuses),
        ),
      )
      .limit(1);
    if (tearingDown) return { state: "TEARING_DOWN", status: "waiting" };
    const failed = services.filter((service) => payload.started.includes(service.id));
    if (failed.length) return { state: "FAILED", status: "failed", details: failureMessageOf(failed) };
    const started = [...payload.started];
    for (const service of nextTier(services)) {
      const removal = await teardowns.remove(tx, { resource: service, environment }, now);
      if (removal === "teardown") started.push(service.id);
    }
    return started.length > payload.started.length
      ? { state: "TEARING_DOWN", status: "waiting", payload: { started } }
      : // Every one of the tier was deleted at once (drafts): the next tier, or the environment, right away.
        { state: "TEARING_DOWN", status: "queued", delayMs: 0, payload: { started } };
  }

  const kind: JobKind = {
    kind: ENVIRONMENT_TEARDOWN_JOB_KIND,
    step,
    giveUp: (_job, error) => ({
      state: "FAILED",
      status: "failed",
      details: `The environment's deletion stopped unexpectedly: ${error}`,
    }),
    /** A failed deletion leaves the environment failed, saying what could not be deleted; DELETE retries. */
    async ended(job, tx) {
      if (job.status !== "failed" || !job.environmentId) return;
      await setDeletion(tx, job.environmentId, { stage: "STAGE_FAILED", message: job.details ?? "" });
    },
  };

  /**
   * DELETE of an environment (locked, with no job at work): a cloud that keeps what its services created (AWS)
   * tears them down first in an environment-teardown job (`teardown`); otherwise the rows go at once (`deleted`).
   */
  async function remove(
    tx: Database,
    environment: EnvironmentRow,
    now: Date,
  ): Promise<"deleted" | "teardown"> {
    const cloud = await deploys.driverOf(tx, environment);
    const services = await servicesOf(tx, environment.id);
    const launched = services.some(
      (service) => service.cloudState !== null || service.stage !== "STAGE_DRAFT",
    );
    if (!cloud.destroy || !launched) {
      await deleteEnvironment(tx, null, environment.id);
      return "deleted";
    }
    const payload: Payload = { started: [] };
    await enqueueJob(
      tx,
      { kind: ENVIRONMENT_TEARDOWN_JOB_KIND, environmentId: environment.id, state: "TEARING_DOWN", payload },
      now,
    );
    await setDeletion(tx, environment.id, { stage: "STAGE_IN_PROGRESS", message: deletingMessage });
    return "teardown";
  }

  return { kind, remove };
}

export type EnvironmentTeardowns = ReturnType<typeof createEnvironmentTeardowns>;
