import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import * as z from "zod";
import type { WebhookAnswer } from "#contract/deploy-on-push";
import type { EngineConfig } from "../lib/config";
import type { Database } from "../db/index";
import { deployPushes, engineJobs, environments, resourceHistory, resources } from "../db/schema";
import { activeDeployOf, deployWaitSeconds, type Deploys } from "../deployments/deploys";
import { enqueueJob, unfinishedJobStatuses, type Job, type JobKind, type Transition } from "../engine/jobs";
import type { EnvironmentRow } from "../environments/records";
import type { ResourceRow } from "../services/records";
import { hookOfResource } from "./hooks";
import type { PushRow } from "../deployments/pushed-commits";

/**
 * The burst rule of deploy on push (docs/decisions/034-deploy-on-push-and-chart-indexes.md): every accepted push
 * is recorded, and an application has at most one deployment waiting for pushes, which deploys the newest commit.
 *
 * - No deployment under way: the push queues one (a Relaunch of the current configuration at the pushed commit).
 * - A deployment queued and not started (QUEUED, or waiting for the environment's network): the push joins it, and it
 *   deploys the push's commit instead of the earlier one. Three pushes in a row make one deployment, of the third.
 * - A deployment running: a `push-deploy` job waits for it to end, then queues one deployment of the newest push it
 *   was given; later pushes while it waits replace its commit.
 */

export const PUSH_DEPLOY_JOB_KIND = "push-deploy";
const WAITING_STATE = "WAITING_FOR_DEPLOYMENT";
/** The states of a `service-deploy` job (deployments/deploys.ts) before its first step ran. */
const notStartedStates = ["QUEUED", "INFRASTRUCTURE_NOT_READY"];
/** The history message's first line for a pushed commit starts with this. */
const COMMIT_LINE_PREFIX = "Commit ";
/** The delivery id of a commit someone asked for through the API rather than GitHub pushed. */
const REQUESTED_DELIVERY_PREFIX = "requested:";

/** What a push event says, as much as deploying needs (https://docs.github.com/webhooks/webhook-events-and-payloads#push). */
export const pushEventSchema = z.object({
  ref: z.string(),
  after: z.string(),
  deleted: z.boolean().optional(),
  repository: z.object({ full_name: z.string() }),
  pusher: z.object({ name: z.string() }).optional(),
  head_commit: z
    .object({
      id: z.string(),
      /** When it was committed, with the committer's offset: a push of an older commit is not deployed. */
      timestamp: z.iso.datetime({ offset: true }).optional(),
      message: z.string(),
      author: z.object({ name: z.string().optional(), username: z.string().optional() }).optional(),
    })
    .nullable()
    .optional(),
});
export type PushEvent = z.infer<typeof pushEventSchema>;

const jobPayloadSchema = z.object({ resourceId: z.string(), pushId: z.string() });
const deployPayloadSchema = z.object({ historyId: z.string() });

/** "Commit 1a2b3c4 on main: Fix the header" (without "on" for a commit asked for by its SHA) */
export function commitLineOf(push: Pick<PushRow, "sha" | "branch" | "message">): string {
  const on = push.sha.startsWith(push.branch) ? "" : ` on ${push.branch}`;
  return `${COMMIT_LINE_PREFIX}${push.sha.slice(0, 7)}${on}: ${push.message}`;
}

/** The history message with the commit line first, in place of an earlier push's line. */
function withCommitLine(existing: string | null, line: string): string {
  const lines = existing ? existing.split("\n") : [];
  if (lines[0]?.startsWith(COMMIT_LINE_PREFIX)) lines.shift();
  return [line, ...lines].join("\n");
}

export function createPushDeploys({
  deploys,
  settings,
}: {
  deploys: Pick<Deploys, "launch">;
  settings: Pick<EngineConfig, "timeScale">;
}) {
  const waitMs = () => Math.round(deployWaitSeconds.queued * 1000 * settings.timeScale);

  /** The push joins the deployment the history entry records: the deployment now builds its commit. */
  async function attach(tx: Database, push: PushRow, historyId: string) {
    await tx.update(deployPushes).set({ historyId }).where(eq(deployPushes.id, push.id));
    const [entry] = await tx
      .select({ message: resourceHistory.message })
      .from(resourceHistory)
      .where(eq(resourceHistory.id, historyId));
    await tx
      .update(resourceHistory)
      .set({ message: withCommitLine(entry?.message ?? null, commitLineOf(push)) })
      .where(eq(resourceHistory.id, historyId));
  }

  /** Queues a deployment of the service (locked, with no deployment under way) at the pushed commit. */
  async function launch(
    tx: Database,
    resource: ResourceRow,
    environment: EnvironmentRow,
    push: PushRow,
    now: Date,
  ): Promise<string> {
    // A new version, as for any deployment: an editor holding the old one is told someone else changed it.
    const [saved] = await tx
      .update(resources)
      .set({ version: resource.version + 1, updatedAt: now })
      .where(eq(resources.id, resource.id))
      .returning();
    if (!saved) throw new Error("the locked service was not updated");
    const { job } = await deploys.launch(
      tx,
      {
        resource: saved,
        environment,
        action: "Relaunch",
        actor: push.deliveryId.startsWith(REQUESTED_DELIVERY_PREFIX)
          ? push.author
          : `${push.author} (GitHub push)`,
        diff: [],
      },
      now,
    );
    const { historyId } = deployPayloadSchema.parse(job.payload);
    await attach(tx, push, historyId);
    return historyId;
  }

  async function lockResource(tx: Database, resourceId: string) {
    const [resource] = await tx.select().from(resources).where(eq(resources.id, resourceId)).for("update");
    if (!resource) return undefined;
    const [environment] = await tx
      .select()
      .from(environments)
      .where(eq(environments.id, resource.environmentId));
    return environment ? { resource, environment } : undefined;
  }

  async function waitingJobOf(tx: Database, resourceId: string): Promise<Job | undefined> {
    const [job] = await tx
      .select()
      .from(engineJobs)
      .where(
        and(
          eq(engineJobs.kind, PUSH_DEPLOY_JOB_KIND),
          inArray(engineJobs.status, unfinishedJobStatuses),
          sql`${engineJobs.payload}->>'resourceId' = ${resourceId}`,
        ),
      )
      .limit(1)
      .for("update");
    return job;
  }

  /**
   * Applies the burst rule to a push just recorded for `resourceId`, in the caller's transaction, which holds the
   * application's hook locked (pushes to one application are taken one at a time). Locks in the engine's order:
   * jobs, then the service.
   */
  async function receive(tx: Database, push: PushRow, now: Date): Promise<WebhookAnswer> {
    const line = commitLineOf(push);
    const waiting = await waitingJobOf(tx, push.resourceId);
    if (waiting) {
      await tx
        .update(engineJobs)
        .set({ payload: { resourceId: push.resourceId, pushId: push.id }, updatedAt: now })
        .where(eq(engineJobs.id, waiting.id));
      return {
        outcome: "waiting-for-running-deployment",
        message: `${line}. It replaces the commit waiting for the running deployment to end.`,
      };
    }
    const active = await activeDeployOf(tx, push.resourceId, { lock: true });
    if (active && notStartedStates.includes(active.state)) {
      const { historyId } = deployPayloadSchema.parse(active.payload);
      await attach(tx, push, historyId);
      return {
        outcome: "deployment-updated",
        message: `${line}. The deployment queued before it deploys this commit instead.`,
        historyId,
      };
    }
    if (active) {
      await enqueueJob(
        tx,
        {
          kind: PUSH_DEPLOY_JOB_KIND,
          environmentId: active.environmentId,
          state: WAITING_STATE,
          payload: { resourceId: push.resourceId, pushId: push.id },
          delayMs: waitMs(),
        },
        now,
      );
      return {
        outcome: "waiting-for-running-deployment",
        message: `${line}. It deploys once the running deployment ends.`,
      };
    }
    const locked = await lockResource(tx, push.resourceId);
    if (!locked) throw new Error(`service ${push.resourceId} disappeared under its locked hook`);
    const historyId = await launch(tx, locked.resource, locked.environment, push, now);
    return { outcome: "deployment-queued", message: `${line}. Deployment queued.`, historyId };
  }

  /**
   * A commit someone asked for by name (POST .../deploy-commit, the CLI's `deploy --ref`), already resolved by
   * GitHub: recorded as a push of theirs (`ref` as its branch, no commit time: never compared for staleness, so an
   * older commit can be deployed on purpose) and deployed by the burst rule. Requests for one application are taken
   * one at a time.
   */
  async function requested(
    tx: Database,
    commit: { resourceId: string; ref: string; sha: string; message: string; actor: string },
    now: Date,
  ): Promise<WebhookAnswer> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`deploy-commit:${commit.resourceId}`}))`);
    const [push] = await tx
      .insert(deployPushes)
      .values({
        resourceId: commit.resourceId,
        deliveryId: `${REQUESTED_DELIVERY_PREFIX}${randomUUID()}`,
        branch: commit.ref,
        sha: commit.sha,
        committedAt: null,
        message: commit.message,
        author: commit.actor,
        receivedAt: now,
      })
      .returning();
    if (!push) throw new Error("the requested commit was not recorded");
    return receive(tx, push, now);
  }

  /** WAITING_FOR_DEPLOYMENT: once the service has no deployment running, deploys the newest push. */
  async function step(job: Job, tx: Database, now: Date): Promise<Transition> {
    const { resourceId, pushId } = jobPayloadSchema.parse(job.payload);
    const active = await activeDeployOf(tx, resourceId, { lock: true });
    const [push] = await tx.select().from(deployPushes).where(eq(deployPushes.id, pushId));
    if (!push) return { state: "CANCELED", status: "cancelled" };
    if (active && notStartedStates.includes(active.state)) {
      // Someone deployed by hand meanwhile: that deployment, not started yet, takes the commit.
      await attach(tx, push, deployPayloadSchema.parse(active.payload).historyId);
      return { state: "DEPLOYED", status: "succeeded" };
    }
    if (active) return { state: WAITING_STATE, status: "queued", delayMs: waitMs() };
    const hook = await hookOfResource(tx, resourceId);
    const locked = await lockResource(tx, resourceId);
    // The service was deleted, or deploy on push switched off, while the push waited (a preview's application,
    // whose pushes come from its pull request, has no hook).
    if (!locked || hook?.enabled === false) return { state: "CANCELED", status: "cancelled" };
    await launch(tx, locked.resource, locked.environment, push, now);
    return { state: "DEPLOYED", status: "succeeded" };
  }

  const kind: JobKind = {
    kind: PUSH_DEPLOY_JOB_KIND,
    step,
    giveUp: (_job, error) => ({
      state: "FAILED",
      status: "failed",
      details: `The pushed commit could not be deployed: ${error}`,
    }),
  };

  return { kind, receive, requested };
}

export type PushDeploys = ReturnType<typeof createPushDeploys>;
