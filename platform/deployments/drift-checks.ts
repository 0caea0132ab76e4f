import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/index";
import { connections, environments, resourceLogs, resources } from "../db/schema";
import { finishAction, PLATFORM_ACTOR, recordAction } from "../services/history";
import type { ResourceRow } from "../services/records";
import type { Observation } from "../cloud/driver";
import { deployContextOf } from "./cloud-steps";
import type { Deploys } from "./deploys";
import { createPoller } from "../engine/poller";

/**
 * The periodic drift check (issue 14): reflects what was changed outside the platform (a stopped instance, a
 * deleted queue, a container stopped or removed) in the stage of the services of environments in an AWS connection
 * or on a container host. Every deployed service
 * (STAGE_COMPLETED), and every one it failed for drift, is observed at most once per DRIFT_CHECK_INTERVAL_SECONDS:
 *
 * 1. claim: one due service gets `drift_checked_at = now` in a statement of its own (`FOR UPDATE SKIP LOCKED`,
 *    so two platforms on one PostgreSQL never claim the same one, and a claimed one is not due again for an
 *    interval);
 * 2. observe: its driver's `observe` asks AWS or the container engine, outside any transaction;
 * 3. record: a short transaction that first checks the service is still as it was claimed (same stage, not
 *    updated since: a deployment, an edit or a delete that began meanwhile wins), then fails it with what changed
 *    and what to do (`driftedAt` set, a `Check` history entry, a log line), or, when a service it failed is as
 *    deployed again, completes it the same way.
 *
 * A cloud that cannot be asked (unreachable, credentials refused) marks nothing: it is logged once per connection
 * until it answers again.
 */

/** How often the worker looks for due services, at most: so a service waits little beyond its interval. */
const MAX_POLL_INTERVAL_MS = 15_000;

export type DriftCheckOutcome =
  /** The service was failed for drift, or its drift message changed. */
  | "drifted"
  /** A service failed for drift is as deployed again: completed. */
  | "returned"
  | "unchanged"
  /** Something else changed the service meanwhile: the check's finding is dropped. */
  | "superseded"
  /** The cloud could not be asked. */
  | "unknown";

/** What the user reads: what changed, then what to do about it. */
export function driftMessageOf(observation: Extract<Observation, { state: "degraded" | "missing" }>): string {
  const remedy =
    observation.state === "missing"
      ? "Relaunch the service to recreate it."
      : "Relaunch the service to bring it back to its configuration.";
  return `${observation.message.replace(/\.$/, "")}. ${remedy}`;
}

export const returnedMessage =
  "Nothing differs from the deployed configuration any more: the service is deployed.";

export function createDriftChecks({
  db,
  deploys,
  intervalMs,
  now = () => new Date(),
}: {
  db: Database;
  deploys: Pick<Deploys, "driverOf">;
  intervalMs: number;
  now?: () => Date;
}) {
  /** The connections whose cloud could not be asked, with what it answered: each is logged once. */
  const unreachable = new Map<string, string>();

  /** Claims the service checked longest ago whose interval has passed, committing at once. */
  async function claimDue(at: Date): Promise<ResourceRow | undefined> {
    const due = db
      .select({ id: resources.id })
      .from(resources)
      .innerJoin(environments, eq(environments.id, resources.environmentId))
      .innerJoin(connections, eq(connections.id, environments.cloudConnectionId))
      .where(
        and(
          // The clouds whose driver observes what it deployed: AWS, and container hosts (issue 26).
          inArray(connections.kind, ["AWS", "CONTAINER_HOST"]),
          or(
            eq(resources.stage, "STAGE_COMPLETED"),
            and(eq(resources.stage, "STAGE_FAILED"), isNotNull(resources.driftedAt)),
          ),
          or(
            isNull(resources.driftCheckedAt),
            lte(resources.driftCheckedAt, new Date(at.getTime() - intervalMs)),
          ),
        ),
      )
      .orderBy(sql`${resources.driftCheckedAt} asc nulls first`, asc(resources.id))
      .limit(1)
      .for("update", { of: resources, skipLocked: true });
    const [claimed] = await db
      .update(resources)
      .set({ driftCheckedAt: at })
      .where(inArray(resources.id, due))
      .returning();
    return claimed;
  }

  /** Asks the service's cloud what it holds now; undefined (logged once per connection) when it could not. */
  async function observe(resource: ResourceRow, at: Date): Promise<Observation | undefined> {
    const [environment] = await db
      .select()
      .from(environments)
      .where(eq(environments.id, resource.environmentId));
    if (!environment?.cloudConnectionId) return undefined;
    const connectionId = environment.cloudConnectionId;
    const cloud = await deploys.driverOf(db, environment);
    if (!cloud.observe) return undefined;
    const context = await deployContextOf(
      db,
      db,
      {
        resource,
        environment,
        step: 0,
        progress: null,
        change: "deploy",
        podNames: [podNameOf(resource)],
      },
      at,
    );
    try {
      const observation = await cloud.observe(context);
      if (unreachable.delete(connectionId)) {
        console.info(`drift checks: the cloud of connection ${connectionId} answers again`);
      }
      return observation;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!unreachable.has(connectionId)) {
        console.warn(
          `drift checks: the cloud of connection ${connectionId} could not be asked (${message}); ` +
            "its services keep their stage until it answers",
        );
      }
      unreachable.set(connectionId, message);
      return undefined;
    }
  }

  /** Records what the check found of `claimed`, unless the service changed since it was claimed. */
  async function record(
    claimed: ResourceRow,
    observation: Observation,
    at: Date,
  ): Promise<DriftCheckOutcome> {
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(resources).where(eq(resources.id, claimed.id)).for("update");
      if (
        !current ||
        current.stage !== claimed.stage ||
        current.updatedAt.getTime() !== claimed.updatedAt.getTime()
      ) {
        return "superseded";
      }
      const drifted = current.stage === "STAGE_FAILED" && current.driftedAt !== null;
      if (observation.state === "ok" || observation.state === "pending") {
        // Deployed, or deployed and waiting on the user: the pending message is the service's status detail.
        const detail = observation.state === "pending" ? observation.message : null;
        if (drifted) {
          await transition(tx, current, { stage: "STAGE_COMPLETED", message: returnedMessage, detail, at });
          return "returned";
        }
        if (current.message === detail) return "unchanged";
        await tx
          .update(resources)
          .set({ message: detail, updatedAt: at })
          .where(eq(resources.id, current.id));
        const line = detail ?? observation.message;
        if (line) await tx.insert(resourceLogs).values(logLineOf(current, at, "info", line));
        return "unchanged";
      }
      const message = driftMessageOf(observation);
      if (drifted) {
        if (current.message === message) return "unchanged";
        await tx.update(resources).set({ message, updatedAt: at }).where(eq(resources.id, current.id));
        return "drifted";
      }
      await transition(tx, current, { stage: "STAGE_FAILED", message, detail: message, at });
      return "drifted";
    });
  }

  /**
   * The service enters `stage`, with a Check entry in its history and a line in its logs saying why; `detail` is
   * its message from now on (the drift, or what a completed service still waits for).
   */
  async function transition(
    tx: Database,
    resource: ResourceRow,
    {
      stage,
      message,
      detail,
      at,
    }: { stage: "STAGE_FAILED" | "STAGE_COMPLETED"; message: string; detail: string | null; at: Date },
  ) {
    const failed = stage === "STAGE_FAILED";
    await tx
      .update(resources)
      .set({ stage, message: detail, driftedAt: failed ? at : null, updatedAt: at })
      .where(eq(resources.id, resource.id));
    const entry = await recordAction(
      tx,
      { resourceId: resource.id, action: "Check", actor: PLATFORM_ACTOR, message },
      at,
    );
    await finishAction(tx, entry.id, stage, [], entry.at);
    await tx.insert(resourceLogs).values(logLineOf(resource, at, failed ? "warn" : "info", message));
  }

  /** Claims, observes and records one due service; "none" when none is due. */
  async function checkNext(): Promise<DriftCheckOutcome | "none"> {
    const claimed = await claimDue(now());
    if (!claimed) return "none";
    const observation = await observe(claimed, now());
    if (!observation) return "unknown";
    return record(claimed, observation, now());
  }

  /** Checks every due service, one after the other; returns how many were checked. */
  async function runDue(): Promise<number> {
    let checked = 0;
    while ((await checkNext()) !== "none") checked += 1;
    return checked;
  }

  const poller = createPoller({
    name: "drift checks",
    pollIntervalMs: Math.min(intervalMs, MAX_POLL_INTERVAL_MS),
    runDue,
  });
  return {
    runDue,
    checkNext,
    /** Looks for due services until stopped. */
    start: poller.start,
    /** Stops looking and waits for the check in progress to be recorded. */
    stop: poller.stop,
    get isRunning() {
      return poller.isRunning;
    },
  };
}

export type DriftChecks = ReturnType<typeof createDriftChecks>;

const podNameOf = (resource: ResourceRow) => resource.pods[0]?.name ?? resource.name;

const logLineOf = (resource: ResourceRow, at: Date, level: "info" | "warn", message: string) => ({
  resourceId: resource.id,
  at,
  podName: podNameOf(resource),
  level,
  message,
});
