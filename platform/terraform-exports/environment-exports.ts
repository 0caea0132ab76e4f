import { and, eq } from "drizzle-orm";
import * as z from "zod";
import type { TerraformExport, TerraformExportStatus } from "#contract/terraform-exports";
import { terraformExportErrorMessages } from "#contract/terraform-exports";
import { defaultTerraformConfig, type PlatformConfig, type TerraformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { engineJobs, environments } from "../db/schema";
import { cloudStepErrorOf, isTransientAwsError } from "../cloud/aws/driver";
import { awsAccountOf, refusalAsStepError, type AwsConnections } from "../connections/aws-accounts";
import {
  enqueueJob,
  outside,
  type Job,
  type JobKind,
  type OutsideWork,
  type Transition,
} from "../engine/jobs";
import { environmentArchiveBaseName } from "../terraform/archive";
import { archiveStoreFor, type ArchiveStore } from "../terraform/archive-store";
import {
  createDownloadLinks,
  downloadSigningSecret,
  publicFilePaths,
  type DownloadLinks,
} from "../terraform/download-links";
import { scanEnvironment } from "../terraform/environment-scan";
import { terraformArchive } from "../terraform/generate";
import type { ArchiveDownload } from "../terraform/jobs";
import { ScanError } from "../terraform/scanner";

/**
 * 'Export as Terraform' of an environment in an AWS account: an engine job of kind `terraform-export` reads the
 * region with the connection's credentials (as its deployments get them), outside any transaction under the job's
 * lease, and stores the archive; its signed download link expires like the marketplace tool's.
 *
 * EXPORTING  → reads AWS and writes the archive (a throttled or unreachable AWS is tried again with backoff)
 * COMPLETED  the archive is stored; the payload names it and when its link expires
 * FAILED     AWS refused (its code and message in the details), or the environment left its AWS account
 */

export const TERRAFORM_EXPORT_JOB_KIND = "terraform-export";

const payloadSchema = z.object({
  requestedBy: z.string(),
  archiveKey: z.string().nullish(),
  downloadExpiresAt: z.string().nullish(),
  resourceCount: z.number().int().nullish(),
});
type ExportPayload = z.infer<typeof payloadSchema>;

const exportIdSchema = z.guid();
/** A single AWS call gives up after this long (the SDK's own retries come on top). */
const AWS_CALL_TIMEOUT_MS = 60_000;

export type ExportFiles = { store: ArchiveStore; links: DownloadLinks; downloadTtlSeconds: number };

/**
 * Where exports are kept and how their links are signed: the marketplace tool's store and signing secret, with a
 * key of their own (a link to a marketplace archive never opens an export, nor the other way round).
 */
export function exportFilesFor(
  config: Partial<Pick<PlatformConfig, "dataDir" | "publicUrl">> & { terraform?: Partial<TerraformConfig> },
): ExportFiles {
  const settings = {
    dataDir: config.dataDir ?? "memory",
    terraform: { ...defaultTerraformConfig, ...config.terraform },
  };
  return {
    store: archiveStoreFor(settings),
    links: createDownloadLinks({
      publicUrl: config.publicUrl ?? "",
      secret: `${downloadSigningSecret(settings)}:environment-export`,
      filePath: publicFilePaths.environmentArchive,
    }),
    downloadTtlSeconds: settings.terraform.downloadTtlSeconds,
  };
}

/** What the user reads of a failed read of AWS, and whether trying again may do better. */
function failureOf(error: unknown): { message: string; transient: boolean } {
  if (error instanceof ScanError)
    return { message: error.message, transient: isTransientAwsError(error.cause) };
  const failure = cloudStepErrorOf(error, [], refusalAsStepError);
  return { message: failure.message, transient: failure.transient };
}

const statusOf = (job: Job): TerraformExportStatus =>
  job.status === "succeeded"
    ? "COMPLETED"
    : job.status === "queued" || job.status === "waiting"
      ? "IN_PROGRESS"
      : "FAILED";

export function createTerraformExports({
  aws,
  files: { store, links, downloadTtlSeconds },
}: {
  aws: AwsConnections;
  files: ExportFiles;
}) {
  function toView(job: Job, now: Date): TerraformExport {
    const payload = payloadSchema.parse(job.payload);
    const status = statusOf(job);
    const expiresAt = payload.downloadExpiresAt ? new Date(payload.downloadExpiresAt) : null;
    const downloadable =
      status === "COMPLETED" && expiresAt !== null && expiresAt > now && payload.archiveKey;
    return {
      id: job.id,
      environmentId: job.environmentId ?? "",
      status,
      details: status === "FAILED" ? (job.details ?? "The export stopped.") : null,
      downloadURL: downloadable ? links.create(job.id, expiresAt) : null,
      downloadURLExpirationTime: expiresAt ? Math.floor(expiresAt.getTime() / 1000) : 0,
      resourceCount: payload.resourceCount ?? null,
      createdAt: job.createdAt.toISOString(),
    };
  }

  async function step(job: Job, tx: Database): Promise<Transition | OutsideWork> {
    const payload = payloadSchema.parse(job.payload);
    const [environment] = job.environmentId
      ? await tx.select().from(environments).where(eq(environments.id, job.environmentId))
      : [];
    const account = environment ? await awsAccountOf(tx, environment) : null;
    if (!environment || !account) {
      return { state: "FAILED", status: "failed", details: terraformExportErrorMessages.environmentGone };
    }
    return outside(async () => {
      let recorded: ExportPayload;
      try {
        const connection = await aws.connectionOf(
          account.connection,
          account.organization,
          environment.region,
        );
        const { scope, inventory } = await scanEnvironment(
          { ...connection, timeoutMs: AWS_CALL_TIMEOUT_MS },
          environment,
        );
        const archiveKey = `${job.id}.zip`;
        await store.put(
          archiveKey,
          terraformArchive({
            scope,
            inventory,
            source: "aws",
            generatedAt: new Date(),
            environment: { id: environment.id, name: environment.name },
          }),
        );
        recorded = { ...payload, archiveKey, resourceCount: inventory.resources.length };
      } catch (error) {
        const failure = failureOf(error);
        // The runner tries the step again with backoff, and gives up after its last attempt.
        if (failure.transient) throw error;
        return async () => ({ state: "FAILED", status: "failed", details: failure.message });
      }
      return async (_tx, at) => ({
        state: "COMPLETED",
        status: "succeeded",
        payload: {
          ...recorded,
          downloadExpiresAt: new Date(at.getTime() + downloadTtlSeconds * 1000).toISOString(),
        },
      });
    });
  }

  const kind: JobKind = {
    kind: TERRAFORM_EXPORT_JOB_KIND,
    step,
    giveUp: (_job, error) => ({ state: "FAILED", status: "failed", details: `Reading AWS failed: ${error}` }),
  };

  async function findJob(db: Database, environmentId: string, exportId: string): Promise<Job | undefined> {
    if (!exportIdSchema.safeParse(exportId).success) return undefined;
    const [job] = await db
      .select()
      .from(engineJobs)
      .where(
        and(
          eq(engineJobs.id, exportId),
          eq(engineJobs.kind, TERRAFORM_EXPORT_JOB_KIND),
          eq(engineJobs.environmentId, environmentId),
        ),
      );
    return job;
  }

  /** Removes the archives whose links have expired, keeping their jobs (they then offer no download). */
  async function sweepExpiredArchives(db: Database, now: Date) {
    const completed = await db
      .select()
      .from(engineJobs)
      .where(and(eq(engineJobs.kind, TERRAFORM_EXPORT_JOB_KIND), eq(engineJobs.status, "succeeded")));
    for (const job of completed) {
      const payload = payloadSchema.parse(job.payload);
      if (!payload.archiveKey || !payload.downloadExpiresAt || new Date(payload.downloadExpiresAt) > now)
        continue;
      await store.delete(payload.archiveKey);
      await db
        .update(engineJobs)
        .set({ payload: { ...payload, archiveKey: null } })
        .where(eq(engineJobs.id, job.id));
    }
  }

  return {
    kind,

    /**
     * Starts an export of the environment (the caller checked it runs in an AWS account), and first removes the
     * archives of earlier exports whose links have expired. The caller wakes the runner.
     */
    async create(db: Database, environmentId: string, userId: string, now: Date): Promise<TerraformExport> {
      await sweepExpiredArchives(db, now);
      const payload: ExportPayload = { requestedBy: userId };
      const job = await enqueueJob(
        db,
        { kind: TERRAFORM_EXPORT_JOB_KIND, environmentId, state: "EXPORTING", payload },
        now,
      );
      return toView(job, now);
    },

    /** The environment's export, or null for an unknown id or another environment's (the caller answers 404). */
    async find(
      db: Database,
      environmentId: string,
      exportId: string,
      now: Date,
    ): Promise<TerraformExport | null> {
      const job = await findJob(db, environmentId, exportId);
      return job ? toView(job, now) : null;
    },

    /** A signed download: the archive while the link is valid, `expired` after (410), `invalid` if tampered. */
    async download(
      db: Database,
      exportId: string,
      { expires, signature }: { expires: string | undefined; signature: string | undefined },
      now: Date,
    ): Promise<ArchiveDownload> {
      if (!exportIdSchema.safeParse(exportId).success) return { kind: "missing" };
      const check = links.verify(exportId, expires, signature, now);
      if (check !== "valid") return { kind: check };
      const [job] = await db
        .select({ payload: engineJobs.payload, environment: environments })
        .from(engineJobs)
        .innerJoin(environments, eq(environments.id, engineJobs.environmentId))
        .where(and(eq(engineJobs.id, exportId), eq(engineJobs.kind, TERRAFORM_EXPORT_JOB_KIND)));
      if (!job) return { kind: "missing" };
      const payload = payloadSchema.parse(job.payload);
      if (!payload.archiveKey || !payload.downloadExpiresAt) return { kind: "missing" };
      if (new Date(payload.downloadExpiresAt) <= now) return { kind: "expired" };
      const bytes = await store.get(payload.archiveKey);
      if (!bytes) return { kind: "missing" };
      return {
        kind: "file",
        bytes,
        fileName: `${environmentArchiveBaseName(job.environment.name, job.environment.region)}.zip`,
      };
    },
  };
}

export type TerraformExports = ReturnType<typeof createTerraformExports>;
