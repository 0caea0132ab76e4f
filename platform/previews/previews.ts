import { and, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import * as z from "zod";
import {
  DEFAULT_PREVIEW_NAME_PATTERN,
  previewMessages,
  type PreviewState,
  type PreviewWebhookAnswer,
} from "#contract/previews";
import type { AuditAction } from "#contract/audit";
import type { Database } from "../db/index";
import {
  auditEvents,
  deployPushes,
  engineJobs,
  environments,
  organizations,
  previewDeliveries,
  previews,
  previewSettings,
  resources,
} from "../db/schema";
import { staleCommitReason } from "../deploy-on-push/commit-order";
import { PUSH_DEPLOY_JOB_KIND, type PushDeploys } from "../deploy-on-push/pushes";
import type { Cloning } from "../deployments/cloning";
import { DEPLOY_JOB_KIND, type Deploys } from "../deployments/deploys";
import type { EnvironmentTeardowns } from "../deployments/environment-teardowns";
import {
  enqueueJob,
  moveJob,
  unfinishedJobStatuses,
  type Job,
  type JobKind,
  type Transition,
} from "../engine/jobs";
import type { EngineConfig } from "../lib/config";
import type { PreviewReports } from "./github-reports";
import type { PullRequestEvent } from "./pull-requests";
import { chosenApplicationsOf, type PreviewRow } from "./records";
import type { PreviewSettingsRow } from "./settings";

/**
 * Preview environments (issue 28, decision 069), on the engine's jobs:
 *
 * - `opened`/`reopened` makes the preview's environment and queues an unattended clone of the source (its data
 *   services are new drafts, launched empty: never a copy of the source's data). When the clone ends
 *   (`cloneEnded`), the chosen applications build the pull request's head (a pushed commit of their own), the others
 *   deploy as the source's; when the last deployment ends (`deploymentEnded`) the preview is READY or FAILED.
 * - `synchronize` deploys the new head through deploy on push's burst rule: the newest commit wins.
 * - `closed`, or the idle limit, tears it down: a job of kind `preview` per preview life watches its idle time
 *   (the engine's clock), then waits for the environment's work to end and deletes it with the environment's
 *   teardown jobs.
 *
 * Every change is told on GitHub by a `preview-report` job (./github-reports.ts).
 */

export const PREVIEW_JOB_KIND = "preview";
const payloadSchema = z.object({ previewId: z.string() });
const DAY_MS = 24 * 60 * 60 * 1000;
const deployKinds = [DEPLOY_JOB_KIND, PUSH_DEPLOY_JOB_KIND];
const auditActionOf: Partial<Record<PreviewState, AuditAction>> = {
  OPENING: "previews.opened",
  READY: "previews.ready",
  FAILED: "previews.failed",
  REFUSED: "previews.refused",
  REMOVED: "previews.removed",
};

/** `pr-{number}`, with `{environment}` the source's name, cut to an environment name's 40 characters. */
export function previewNameOf(pattern: string, number: number, sourceName: string): string {
  return (pattern || DEFAULT_PREVIEW_NAME_PATTERN)
    .replaceAll("{number}", String(number))
    .replaceAll("{environment}", sourceName)
    .slice(0, 40)
    .replace(/-+$/, "");
}

export function createPreviews({
  deploys,
  cloning,
  environmentTeardowns,
  pushes,
  reports,
  settings,
}: {
  deploys: Pick<Deploys, "launch">;
  cloning: Pick<Cloning, "enqueue">;
  environmentTeardowns: Pick<EnvironmentTeardowns, "remove">;
  pushes: Pick<PushDeploys, "receive">;
  reports: Pick<PreviewReports, "enqueue">;
  settings: Pick<EngineConfig, "timeScale">;
}) {
  /** How long a preview waits between looks at its environment's work (scaled: tests run at once). */
  const pollMs = () => Math.round(2000 * settings.timeScale);

  async function setState(
    tx: Database,
    preview: PreviewRow,
    state: PreviewState,
    message: string | null,
    now: Date,
    extra: Partial<PreviewRow> = {},
  ): Promise<PreviewRow> {
    const [saved] = await tx
      .update(previews)
      .set({ state, message, ...extra })
      .where(eq(previews.id, preview.id))
      .returning();
    if (!saved) throw new Error(`preview ${preview.id} disappeared`);
    await reports.enqueue(tx, saved.id, now);
    if (state !== preview.state || state === "REFUSED") await audit(tx, saved, now);
    return saved;
  }

  /** The preview's life in the organization's audit log: GitHub's pull request, not a member, is the actor. */
  async function audit(tx: Database, preview: PreviewRow, now: Date) {
    const action = auditActionOf[preview.state as PreviewState];
    if (!action) return;
    const [organization] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.tenantId, preview.tenantId));
    if (!organization) return;
    await tx.insert(auditEvents).values({
      at: now,
      organizationId: organization.id,
      userEmail: `GitHub pull request #${preview.number} by ${preview.author}`,
      environmentId: preview.environmentId ?? preview.sourceEnvironmentId,
      action,
      target: preview.environmentName,
      summary: {
        pullRequest: preview.url,
        title: preview.title,
        headSha: preview.headSha,
        ...(preview.message ? { message: preview.message } : {}),
      },
      status: 200,
    });
  }

  /** Records the head commit as pushed to the application, so its deployment builds that commit. */
  async function recordHead(
    tx: Database,
    preview: PreviewRow,
    resourceId: string,
    deliveryId: string,
    now: Date,
  ) {
    const [push] = await tx
      .insert(deployPushes)
      .values({
        resourceId,
        deliveryId,
        branch: preview.headBranch,
        sha: preview.headSha,
        committedAt: null,
        message: `#${preview.number} ${preview.title}`.slice(0, 200),
        author: preview.author,
        receivedAt: now,
      })
      .onConflictDoNothing({ target: [deployPushes.resourceId, deployPushes.deliveryId] })
      .returning();
    return push;
  }

  /**
   * The clone is ready: the chosen applications build the head, every application deploys. The setting's seed
   * command goes with the first chosen application's deployment (by name), the preview's only one that seeds: a
   * later push (synchronize) or a retry deploys without it (decision 073).
   */
  async function deployApplications(tx: Database, preview: PreviewRow, now: Date) {
    if (!preview.environmentId) return;
    const [environment] = await tx
      .select()
      .from(environments)
      .where(eq(environments.id, preview.environmentId));
    if (!environment) return;
    const chosenRows = await chosenApplicationsOf(tx, preview);
    const chosen = new Set(chosenRows.map((row) => row.id));
    const [setting] = await tx
      .select({ seedCommand: previewSettings.seedCommand })
      .from(previewSettings)
      .where(eq(previewSettings.environmentId, preview.sourceEnvironmentId));
    const seeding = chosenRows[0]?.id;
    const applications = await tx
      .select()
      .from(resources)
      .where(and(eq(resources.environmentId, environment.id), eq(resources.serviceType, "application")))
      .for("update");
    const actor = `${preview.author} (pull request #${preview.number})`;
    for (const application of applications) {
      let resource = application;
      if (chosen.has(application.id)) {
        const source = (application.config as { source?: Record<string, unknown> }).source ?? {};
        const [saved] = await tx
          .update(resources)
          .set({ config: { ...application.config, source: { ...source, branch: preview.headBranch } } })
          .where(eq(resources.id, application.id))
          .returning();
        resource = saved ?? application;
      }
      const seedCommand = application.id === seeding ? setting?.seedCommand : undefined;
      const { job } = await deploys.launch(
        tx,
        {
          resource,
          environment,
          action: "Provision",
          actor,
          diff: [],
          ...(seedCommand ? { seedCommand } : {}),
        },
        now,
      );
      if (chosen.has(application.id)) {
        const push = await recordHead(tx, preview, application.id, `preview:${preview.headSha}`, now);
        const historyId = (job.payload as { historyId?: string }).historyId;
        if (push && historyId) {
          await tx.update(deployPushes).set({ historyId }).where(eq(deployPushes.id, push.id));
        }
      }
    }
  }

  async function previewOfEnvironment(tx: Database, environmentId: string | null) {
    if (!environmentId) return undefined;
    const [preview] = await tx
      .select()
      .from(previews)
      .where(eq(previews.environmentId, environmentId))
      .for("update");
    return preview;
  }

  /** Called when a clone job ends, in the transaction that ends it. */
  async function cloneEnded(job: Job, tx: Database, now: Date) {
    const preview = await previewOfEnvironment(tx, job.environmentId);
    if (!preview?.environmentId) return;
    const failed = job.status !== "succeeded";
    await tx
      .update(environments)
      .set({ cloningStage: failed ? "STAGE_FAILED" : "STAGE_COMPLETED" })
      .where(eq(environments.id, preview.environmentId));
    if (preview.state !== "OPENING") return;
    if (failed) {
      await setState(tx, preview, "FAILED", job.details ?? `The clone failed at ${job.state}.`, now);
      return;
    }
    await deployApplications(tx, preview, now);
    await setState(tx, preview, "DEPLOYING", null, now);
  }

  /** Called when a deployment in `environmentId` ends: the last one makes the preview READY or FAILED. */
  async function deploymentEnded(tx: Database, environmentId: string | null, now: Date) {
    const preview = await previewOfEnvironment(tx, environmentId);
    if (!preview?.environmentId || preview.state !== "DEPLOYING") return;
    const [working] = await tx
      .select({ id: engineJobs.id })
      .from(engineJobs)
      .where(
        and(
          eq(engineJobs.environmentId, preview.environmentId),
          inArray(engineJobs.kind, deployKinds),
          inArray(engineJobs.status, unfinishedJobStatuses),
        ),
      )
      .limit(1);
    if (working) return;
    const failed = await tx
      .select({ name: resources.name, message: resources.message })
      .from(resources)
      .where(and(eq(resources.environmentId, preview.environmentId), eq(resources.stage, "STAGE_FAILED")));
    if (failed.length) {
      const reasons = failed
        .map((row) => `${row.name}: ${row.message ?? "its deployment failed"}`)
        .join("; ");
      await setState(tx, preview, "FAILED", reasons, now);
    } else {
      await setState(tx, preview, "READY", null, now);
    }
  }

  /** The preview's life job (it outlives the environment), locked. */
  async function lifeJobOf(tx: Database, previewId: string): Promise<Job | undefined> {
    const [job] = await tx
      .select()
      .from(engineJobs)
      .where(
        and(
          eq(engineJobs.kind, PREVIEW_JOB_KIND),
          inArray(engineJobs.status, unfinishedJobStatuses),
          sql`${engineJobs.payload}->>'previewId' = ${previewId}`,
        ),
      )
      .limit(1)
      .for("update");
    return job;
  }

  /** REMOVING: once the environment has no work under way, its teardown. */
  async function remove(tx: Database, preview: PreviewRow, now: Date): Promise<Transition> {
    const environmentId = preview.environmentId;
    if (!environmentId) {
      await setState(tx, preview, "REMOVED", preview.message, now);
      return { state: "REMOVED", status: "succeeded" };
    }
    // Jobs before their environment, the order the engine locks them in.
    const jobs = await tx
      .select()
      .from(engineJobs)
      .where(
        and(eq(engineJobs.environmentId, environmentId), inArray(engineJobs.status, unfinishedJobStatuses)),
      )
      .for("update");
    // A pushed commit still waiting for a deployment to end would only deploy what is about to go.
    for (const waiting of jobs.filter((job) => job.kind === PUSH_DEPLOY_JOB_KIND)) {
      await moveJob(tx, waiting, { state: "CANCELED", status: "cancelled" }, now);
    }
    if (jobs.some((job) => job.kind !== PUSH_DEPLOY_JOB_KIND)) {
      return { state: "REMOVING", status: "queued", delayMs: pollMs() };
    }
    const [environment] = await tx
      .select()
      .from(environments)
      .where(eq(environments.id, environmentId))
      .for("update");
    if (!environment) return remove(tx, { ...preview, environmentId: null }, now);
    const removal = await environmentTeardowns.remove(tx, environment, now);
    if (removal === "deleted") {
      await setState(tx, preview, "REMOVED", preview.message, now);
      return { state: "REMOVED", status: "succeeded" };
    }
    return { state: "TEARING_DOWN", status: "queued", delayMs: pollMs() };
  }

  const kind: JobKind = {
    kind: PREVIEW_JOB_KIND,
    async step(job, tx, now) {
      const { previewId } = payloadSchema.parse(job.payload);
      const [preview] = await tx.select().from(previews).where(eq(previews.id, previewId)).for("update");
      if (!preview) return { state: "REMOVED", status: "succeeded" };
      switch (job.state) {
        case "WATCHING": {
          if (preview.state === "REMOVING") return remove(tx, preview, now);
          const [setting] = await tx
            .select({ idleDays: previewSettings.idleDays })
            .from(previewSettings)
            .where(eq(previewSettings.environmentId, preview.sourceEnvironmentId));
          const idleMs = (setting?.idleDays ?? 7) * DAY_MS;
          const expiresAt = preview.lastActivityAt.getTime() + idleMs;
          if (now.getTime() < expiresAt) {
            return { state: "WATCHING", status: "queued", delayMs: expiresAt - now.getTime() };
          }
          const days = Math.round(idleMs / DAY_MS);
          const idle = await setState(
            tx,
            preview,
            "REMOVING",
            `Removed after ${days} day${days === 1 ? "" : "s"} without a push.`,
            now,
          );
          return remove(tx, idle, now);
        }
        case "REMOVING":
          return remove(tx, preview, now);
        case "TEARING_DOWN": {
          const [environment] = preview.environmentId
            ? await tx.select().from(environments).where(eq(environments.id, preview.environmentId))
            : [];
          if (!environment) {
            await setState(tx, preview, "REMOVED", preview.message, now, { environmentId: null });
            return { state: "REMOVED", status: "succeeded" };
          }
          if (environment.deletionStage === "STAGE_FAILED") {
            const message = environment.deletionMessage ?? "The preview's environment could not be deleted.";
            await setState(tx, preview, "FAILED", message, now);
            return { state: "FAILED", status: "failed", details: message };
          }
          return { state: "TEARING_DOWN", status: "queued", delayMs: pollMs() };
        }
        default:
          throw new Error(`a preview job has no step in state ${job.state}`);
      }
    },
    giveUp: (_job, error) => ({
      state: "FAILED",
      status: "failed",
      details: `The preview's removal stopped unexpectedly: ${error}`,
    }),
  };

  /** Makes the preview's environment and queues its clone; REFUSED past the setting's limit. */
  async function open(
    tx: Database,
    setting: PreviewSettingsRow,
    event: PullRequestEvent,
    existing: PreviewRow | undefined,
    now: Date,
  ): Promise<PreviewWebhookAnswer> {
    const pr = event.pull_request;
    if (existing?.environmentId) {
      return existing.state === "REMOVING"
        ? {
            outcome: "ignored",
            message: `The preview of #${pr.number} is still being removed.`,
            previewId: existing.id,
          }
        : { outcome: "ignored", message: `#${pr.number} already has a preview.`, previewId: existing.id };
    }
    const [source] = await tx
      .select()
      .from(environments)
      .where(eq(environments.id, setting.environmentId))
      .for("share");
    if (!source) return { outcome: "ignored", message: "The preview setting's environment is gone." };
    const name = previewNameOf(setting.namePattern, pr.number, source.name);
    const fields = {
      environmentName: name,
      title: pr.title.slice(0, 300),
      author: pr.user.login,
      url: pr.html_url,
      headBranch: pr.head.ref,
      headSha: pr.head.sha,
      lastActivityAt: now,
    };
    const [running] = await tx
      .select({ count: count() })
      .from(previews)
      .where(and(eq(previews.sourceEnvironmentId, source.id), isNotNull(previews.environmentId)));
    const refuse = async (message: string) => {
      const [row] = await tx
        .insert(previews)
        .values({
          ...fields,
          tenantId: source.tenantId,
          sourceEnvironmentId: source.id,
          number: pr.number,
          state: "REFUSED",
          message,
        })
        .onConflictDoUpdate({
          target: [previews.sourceEnvironmentId, previews.number],
          set: { ...fields, state: "REFUSED", message },
        })
        .returning();
      if (row) {
        await reports.enqueue(tx, row.id, now);
        await audit(tx, row, now);
      }
      return { outcome: "refused", message, previewId: row?.id } as const;
    };
    if ((running?.count ?? 0) >= setting.maxPreviews)
      return refuse(previewMessages.limitReached(setting.maxPreviews));
    const [target] = await tx
      .insert(environments)
      .values({
        tenantId: source.tenantId,
        name,
        cloningStage: "STAGE_IN_PROGRESS",
        cloudProvider: source.cloudProvider,
        region: source.region,
        cloudConnectionId: source.cloudConnectionId,
        clonedFromId: source.id,
        clonedFromName: source.name,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [environments.tenantId, environments.name] })
      .returning();
    if (!target) {
      return refuse(
        `No preview was made: an environment named ${name} already exists. Rename it, or change the name pattern.`,
      );
    }
    const [row] = await tx
      .insert(previews)
      .values({
        ...fields,
        tenantId: source.tenantId,
        sourceEnvironmentId: source.id,
        environmentId: target.id,
        number: pr.number,
        state: "OPENING",
        message: null,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [previews.sourceEnvironmentId, previews.number],
        // A reopened pull request keeps its comment; its new deployment is GitHub's next.
        set: { ...fields, environmentId: target.id, state: "OPENING", message: null, deploymentId: null },
      })
      .returning();
    if (!row) throw new Error("the preview was not recorded");
    await cloning.enqueue(tx, { source, target, unattended: true }, now);
    await enqueueJob(
      tx,
      {
        kind: PREVIEW_JOB_KIND,
        state: "WATCHING",
        payload: { previewId: row.id },
        delayMs: setting.idleDays * DAY_MS,
      },
      now,
    );
    await reports.enqueue(tx, row.id, now);
    await audit(tx, row, now);
    return {
      outcome: "opening",
      message: `Preview ${name} of ${source.name} is being made.`,
      previewId: row.id,
    };
  }

  /** A push to the pull request: its applications deploy the new head, the newest commit winning. */
  async function synchronize(
    tx: Database,
    event: PullRequestEvent,
    existing: PreviewRow | undefined,
    deliveryId: string,
    now: Date,
  ): Promise<PreviewWebhookAnswer> {
    const pr = event.pull_request;
    if (!existing?.environmentId || existing.state === "REMOVING") {
      return { outcome: "ignored", message: `#${pr.number} has no preview to update.` };
    }
    const updatedAt = pr.updated_at ? new Date(pr.updated_at) : null;
    const applications = await chosenApplicationsOf(tx, existing);
    for (const application of applications) {
      const stale = await staleCommitReason(tx, {
        resourceId: application.id,
        branch: pr.head.ref,
        sha: pr.head.sha,
        committedAt: updatedAt,
      });
      if (stale) return { outcome: "ignored", message: stale, previewId: existing.id };
    }
    const moved: Partial<PreviewRow> = {
      headSha: pr.head.sha,
      headBranch: pr.head.ref,
      title: pr.title.slice(0, 300),
      lastActivityAt: now,
      deploymentId: null,
    };
    // While the clone is still copying, its end deploys the head it then reads.
    if (existing.state === "OPENING") {
      await setState(tx, existing, "OPENING", null, now, moved);
      return {
        outcome: "redeploying",
        message: `The preview will deploy ${pr.head.sha.slice(0, 7)}.`,
        previewId: existing.id,
      };
    }
    const preview = await setState(tx, existing, "DEPLOYING", null, now, moved);
    for (const application of applications) {
      const [push] = await tx
        .insert(deployPushes)
        .values({
          resourceId: application.id,
          deliveryId,
          branch: pr.head.ref,
          sha: pr.head.sha,
          committedAt: updatedAt,
          message: `#${preview.number} ${preview.title}`.slice(0, 200),
          author: preview.author,
          receivedAt: now,
        })
        .onConflictDoNothing({ target: [deployPushes.resourceId, deployPushes.deliveryId] })
        .returning();
      if (push) await pushes.receive(tx, push, now);
    }
    return {
      outcome: "redeploying",
      message: `The preview deploys ${pr.head.sha.slice(0, 7)}.`,
      previewId: preview.id,
    };
  }

  /** Closed or merged: the preview is torn down by its life job. */
  async function close(
    tx: Database,
    event: PullRequestEvent,
    existing: PreviewRow | undefined,
    now: Date,
  ): Promise<PreviewWebhookAnswer> {
    const pr = event.pull_request;
    if (!existing?.environmentId || existing.state === "REMOVING") {
      return { outcome: "ignored", message: `#${pr.number} has no preview to remove.` };
    }
    const job = await lifeJobOf(tx, existing.id);
    const message = pr.merged ? `#${pr.number} was merged.` : `#${pr.number} was closed.`;
    const preview = await setState(tx, existing, "REMOVING", message, now);
    if (job) await moveJob(tx, job, { state: "REMOVING", status: "queued", delayMs: 0 }, now);
    else {
      await enqueueJob(
        tx,
        { kind: PREVIEW_JOB_KIND, state: "REMOVING", payload: { previewId: preview.id } },
        now,
      );
    }
    return {
      outcome: "removing",
      message: `The preview ${preview.environmentName} is being removed.`,
      previewId: preview.id,
    };
  }

  /**
   * A signed `pull_request` delivery to `setting`'s webhook, in the caller's transaction: a delivery id taken
   * before does nothing twice.
   */
  async function receive(
    tx: Database,
    setting: PreviewSettingsRow,
    event: PullRequestEvent,
    deliveryId: string,
    now: Date,
  ): Promise<PreviewWebhookAnswer> {
    const [first] = await tx
      .insert(previewDeliveries)
      .values({ webhookId: setting.webhookId, deliveryId, receivedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!first)
      return { outcome: "already-received", message: "This delivery was received before; it acts once." };
    if (!setting.enabled) return { outcome: "ignored", message: "Previews are off for this environment." };
    if (event.repository.full_name.toLowerCase() !== setting.repository.toLowerCase()) {
      return {
        outcome: "ignored",
        message: `Previews build ${setting.repository}, not ${event.repository.full_name}.`,
      };
    }
    const [existing] = await tx
      .select()
      .from(previews)
      .where(and(eq(previews.sourceEnvironmentId, setting.environmentId), eq(previews.number, event.number)))
      .for("update");
    switch (event.action) {
      case "opened":
      case "reopened":
        return open(tx, setting, event, existing, now);
      case "synchronize":
        return synchronize(tx, event, existing, deliveryId, now);
      case "closed":
        return close(tx, event, existing, now);
      default:
        return {
          outcome: "ignored",
          message: `A pull request's ${event.action.slice(0, 40)} changes no preview.`,
        };
    }
  }

  return { kind, receive, cloneEnded, deploymentEnded };
}

export type Previews = ReturnType<typeof createPreviews>;
