import { and, eq, inArray, sql } from "drizzle-orm";
import * as z from "zod";
import type { PreviewState } from "#contract/previews";
import { credentialsOf, findConnection } from "../connections/records";
import { ProviderUnreachableError } from "../connections/http";
import { githubRefusal, githubWrite } from "../connections/providers/github";
import type { Credentials } from "../connections/providers";
import type { Database } from "../db/index";
import { engineJobs, organizations, previews } from "../db/schema";
import { enqueueJob, outside, unfinishedJobStatuses, type Job, type JobKind } from "../engine/jobs";
import type { SecretCipher } from "../lib/cipher";
import { previewUrlOf, type PreviewRow } from "./records";

/**
 * What a preview says on GitHub, through the source's GitHub connection (so through the egress policy): one comment
 * on the pull request, made once and edited in place at every change (never one per push), and a GitHub deployment
 * of the head commit with its status (in_progress, success with the URL, failure, inactive once removed).
 *
 * A job of kind `preview-report` per preview at a time: it reads the preview, tells GitHub outside any transaction,
 * and records the comment's and deployment's ids. When the preview changed meanwhile it runs again, so GitHub ends
 * up saying the last state; a change while a report is queued needs no second job.
 */

export const PREVIEW_REPORT_JOB_KIND = "preview-report";
const payloadSchema = z.object({ previewId: z.string() });

type DeploymentState = "in_progress" | "success" | "failure" | "inactive";
const deploymentStateOf: Partial<Record<PreviewState, DeploymentState>> = {
  OPENING: "in_progress",
  DEPLOYING: "in_progress",
  READY: "success",
  FAILED: "failure",
  REMOVED: "inactive",
};

/** What GitHub is told of the preview: the comment's text and the deployment's state. */
export type Report = { comment: string; deploymentState: DeploymentState | null; url: string | null };

export function reportOf(preview: PreviewRow, sourceName: string, url: string | null): Report {
  const sha = preview.headSha.slice(0, 7);
  const lines: Record<PreviewState, string> = {
    OPENING: `Preparing the preview environment \`${preview.environmentName}\` at ${sha}…`,
    DEPLOYING: `Deploying ${sha} to \`${preview.environmentName}\`…`,
    READY: `Ready at ${url ?? "(no address)"} (${sha}).`,
    FAILED: `Failed at ${sha}: ${preview.message ?? "see the environment's deployments."}`,
    REMOVING: `Being removed: ${preview.message ?? "the pull request was closed."}`,
    REMOVED: `Removed: ${preview.message ?? "the pull request was closed."}`,
    REFUSED: preview.message ?? "No preview was made.",
  };
  return {
    comment: [
      `**Preview of \`${sourceName}\`** for #${preview.number}`,
      "",
      lines[preview.state as PreviewState],
      // Tells the comment apart from people's, should anyone look for it.
      `<!-- preview ${preview.id} -->`,
    ].join("\n"),
    deploymentState: deploymentStateOf[preview.state as PreviewState] ?? null,
    url,
  };
}

export function createPreviewReports({ secrets }: { secrets: SecretCipher }) {
  /** The preview, what GitHub is to be told, and the connection to tell it through. */
  async function read(tx: Database, previewId: string) {
    const [preview] = await tx.select().from(previews).where(eq(previews.id, previewId));
    if (!preview) return undefined;
    const [organization] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.tenantId, preview.tenantId));
    if (!organization) return undefined;
    const url = preview.state === "READY" ? await previewUrlOf(tx, preview) : null;
    return {
      preview,
      organizationId: organization.id,
      report: reportOf(preview, preview.sourceEnvironmentName, url),
    };
  }

  /** Tells GitHub; answers the ids GitHub gave. Throws ProviderUnreachableError (retried) or a refusal. */
  async function tell(
    credentials: Credentials,
    repository: string,
    preview: PreviewRow,
    report: Report,
  ): Promise<{ commentId: number; deploymentId: number | null }> {
    const repo = `/repos/${repository.split("/").map(encodeURIComponent).join("/")}`;
    const send = async (method: "POST" | "PATCH", path: string, body: unknown, what: string) => {
      const response = await githubWrite(credentials, method, `${repo}${path}`, body);
      if (!response.ok) throw await githubRefusal(credentials, response, { notFound: what });
      return (await response.json()) as { id: number };
    };
    const commentId = preview.commentId
      ? (
          await send(
            "PATCH",
            `/issues/comments/${preview.commentId}`,
            { body: report.comment },
            `GitHub has no comment ${preview.commentId} on ${repository}#${preview.number} any more.`,
          )
        ).id
      : (
          await send(
            "POST",
            `/issues/${preview.number}/comments`,
            { body: report.comment },
            `GitHub has no pull request ${repository}#${preview.number}, or the token cannot comment on it.`,
          )
        ).id;
    let deploymentId = preview.deploymentId;
    if (report.deploymentState && (deploymentId || report.deploymentState !== "inactive")) {
      deploymentId ??= (
        await send(
          "POST",
          "/deployments",
          {
            ref: preview.headSha,
            environment: preview.environmentName,
            description: `Preview of pull request #${preview.number}`,
            auto_merge: false,
            required_contexts: [],
            transient_environment: true,
            production_environment: false,
          },
          `GitHub could not make a deployment in ${repository}, or the token may not.`,
        )
      ).id;
      await send(
        "POST",
        `/deployments/${deploymentId}/statuses`,
        {
          state: report.deploymentState,
          ...(report.url ? { environment_url: report.url } : {}),
          description: report.comment.split("\n")[2]?.slice(0, 140) ?? "",
        },
        `GitHub has no deployment ${deploymentId} in ${repository}.`,
      );
    }
    return { commentId, deploymentId };
  }

  const kind: JobKind = {
    kind: PREVIEW_REPORT_JOB_KIND,
    async step(job: Job, tx: Database) {
      const { previewId } = payloadSchema.parse(job.payload);
      const read1 = await read(tx, previewId);
      if (!read1) return { state: "GONE", status: "succeeded" };
      const { preview, organizationId, report } = read1;
      // The preview's own repository and connection: they outlive the source's setting (decision 075).
      const connection = await findConnection(tx, organizationId, preview.connectionId);
      if (!connection) {
        return {
          state: "FAILED",
          status: "failed",
          details: "The preview's GitHub connection was deleted: the pull request was not told.",
        };
      }
      const credentials = credentialsOf(secrets, connection);
      return outside(async () => {
        let told: { commentId: number; deploymentId: number | null };
        try {
          told = await tell(credentials, preview.repository, preview, report);
        } catch (error) {
          // An unreachable GitHub is worth another try (the runner backs off); a refusal is said and ends.
          if (error instanceof ProviderUnreachableError) throw error;
          const message = error instanceof Error ? error.message : String(error);
          return async () => ({ state: "FAILED", status: "failed", details: message });
        }
        return async (record) => {
          await record.update(previews).set({ commentId: told.commentId }).where(eq(previews.id, preview.id));
          // The deployment is kept only for the commit it was made for: a push meanwhile starts one of its own.
          if (told.deploymentId) {
            await record
              .update(previews)
              .set({ deploymentId: told.deploymentId })
              .where(and(eq(previews.id, preview.id), eq(previews.headSha, preview.headSha)));
          }
          const now = await read(record, previewId);
          const changed = now && now.report.comment !== report.comment;
          return changed
            ? { state: "REPORTING", status: "queued", delayMs: 0 }
            : { state: "REPORTED", status: "succeeded" };
        };
      });
    },
    giveUp: (_job, error) => ({
      state: "FAILED",
      status: "failed",
      details: `GitHub could not be told of the preview: ${error}`,
    }),
  };

  /** Has GitHub told of the preview's change (in the caller's transaction): a report already queued will say it. */
  async function enqueue(tx: Database, previewId: string, now: Date) {
    const [pending] = await tx
      .select({ id: engineJobs.id })
      .from(engineJobs)
      .where(
        and(
          eq(engineJobs.kind, PREVIEW_REPORT_JOB_KIND),
          inArray(engineJobs.status, unfinishedJobStatuses),
          sql`${engineJobs.payload}->>'previewId' = ${previewId}`,
        ),
      )
      .limit(1);
    if (pending) return;
    await enqueueJob(tx, { kind: PREVIEW_REPORT_JOB_KIND, state: "REPORTING", payload: { previewId } }, now);
  }

  return { kind, enqueue };
}

export type PreviewReports = ReturnType<typeof createPreviewReports>;
