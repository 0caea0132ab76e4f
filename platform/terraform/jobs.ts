import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { and, count, eq, inArray, isNotNull, lt } from "drizzle-orm";
import * as z from "zod";
import type { CloudConnectionJob, CloudConnectionJobStatus } from "#contract/tools";
import type { PlatformConfig, TerraformScanner } from "../lib/config";
import type { Database } from "../db/index";
import { cloudConnectionJobs } from "../db/schema";
import { archiveBaseName } from "./archive";
import { archiveStoreFor, type ArchiveStore } from "./archive-store";
import type { AwsConnection } from "../cloud/aws/clients";
import {
  createDownloadLinks,
  downloadSigningSecret,
  publicFilePaths,
  type DownloadLinks,
} from "./download-links";
import { demoInventory, scanAccount, terraformArchive, type AccountScope } from "./generate";
import type { Inventory } from "./model";
import { assumeReadOnlyRole, callerAccountId, quickCreateLink, roleNameFor } from "./role-access";
import { ScanError } from "./scanner";

/** More unfinished jobs than this per user is refused: each one polls STS until its role appears. */
export const MAX_ACTIVE_JOBS_PER_USER = 5;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const activeStatuses: CloudConnectionJobStatus[] = ["INITIATING", "STARTING_TERRAFORMER"];

type JobRow = typeof cloudConnectionJobs.$inferSelect;

export class TooManyActiveJobsError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} unfinished jobs per user`);
    this.name = "TooManyActiveJobsError";
  }
}

/** The platform cannot create a job right now (its own AWS identity could not be read). */
export class TerraformUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerraformUnavailableError";
  }
}

export type ArchiveDownload =
  | { kind: "file"; bytes: Uint8Array; fileName: string }
  | { kind: "expired" }
  | { kind: "invalid" }
  | { kind: "missing" };

/** "15 minutes", "1 hour": how long the role wait lasted, for the failure details. */
export function describeSeconds(seconds: number): string {
  const plural = (value: number, unit: string) => `${value} ${unit}${value === 1 ? "" : "s"}`;
  if (seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  if (seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

const jobIdSchema = z.guid();

/**
 * The cloud connection jobs: created by the API, run in this process (a restart resumes the unfinished ones),
 * each moving INITIATING → STARTING_TERRAFORMER → COMPLETED or FAILED (SPEC §4).
 */
export function createTerraformJobs({
  db,
  config,
  store = archiveStoreFor(config),
  links = createDownloadLinks({ publicUrl: config.publicUrl, secret: downloadSigningSecret(config) }),
  now = () => new Date(),
}: {
  db: Database;
  config: Pick<PlatformConfig, "publicUrl" | "dataDir" | "terraform">;
  store?: ArchiveStore;
  links?: DownloadLinks;
  now?: () => Date;
}) {
  const settings = config.terraform;
  const shutdown = new AbortController();
  const running = new Map<string, Promise<void>>();
  let platformAccount: Promise<string> | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

  const templateUrl = settings.templateUrl ?? `${config.publicUrl}${publicFilePaths.roleTemplate()}`;

  /** The account the role trusts: configured, else the platform's own (STS); the demo trusts the user's own. */
  async function trustedAccountFor(scanner: TerraformScanner, awsAccountId: string): Promise<string> {
    if (settings.platformAccountId) return settings.platformAccountId;
    if (scanner === "demo") return awsAccountId;
    platformAccount ??= callerAccountId({ region: settings.awsRegion, endpoint: settings.awsEndpoint }).catch(
      (error: unknown) => {
        platformAccount = undefined;
        throw new TerraformUnavailableError(
          `The platform could not read its own AWS identity: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      },
    );
    return platformAccount;
  }

  function toView(row: JobRow): CloudConnectionJob {
    const completed = row.status === "COMPLETED" && row.downloadExpiresAt !== null;
    return {
      id: row.id,
      status: row.status as CloudConnectionJobStatus,
      details: row.details,
      redirectURL: row.redirectUrl,
      downloadURL: completed && row.downloadExpiresAt ? links.create(row.id, row.downloadExpiresAt) : null,
      downloadURLExpirationTime: row.downloadExpiresAt
        ? Math.floor(row.downloadExpiresAt.getTime() / 1000)
        : 0,
      awsAccountID: row.awsAccountId,
      awsAccountRegion: row.awsRegion,
      roleName: row.roleName,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function update(jobId: string, values: Partial<typeof cloudConnectionJobs.$inferInsert>) {
    await db
      .update(cloudConnectionJobs)
      .set({ ...values, updatedAt: now() })
      .where(eq(cloudConnectionJobs.id, jobId));
  }

  async function fail(jobId: string, details: string) {
    await update(jobId, { status: "FAILED", details });
  }

  /** The role's credentials once the stack has created it, or null after the job failed waiting for it. */
  async function waitForRole(job: JobRow): Promise<AwsConnection | null> {
    const deadline = job.createdAt.getTime() + settings.roleWaitSeconds * 1000;
    const pollMs = settings.rolePollSeconds * 1000;
    for (;;) {
      const access = await assumeReadOnlyRole({
        accountId: job.awsAccountId,
        roleName: job.roleName,
        externalId: job.externalId,
        region: job.awsRegion,
        sessionName: `cloud-console-${job.id.slice(0, 8)}`,
        endpoint: settings.awsEndpoint,
      });
      if (access.kind === "assumed") {
        return { region: job.awsRegion, credentials: access.credentials, endpoint: settings.awsEndpoint };
      }
      if (access.kind === "rejected") {
        await fail(job.id, access.reason);
        return null;
      }
      if (now().getTime() + pollMs > deadline) {
        await fail(
          job.id,
          `The role ${job.roleName} in account ${job.awsAccountId} could not be assumed within ` +
            `${describeSeconds(settings.roleWaitSeconds)} (last answer: ${access.reason}). Deploy the ` +
            `CloudFormation stack from the AWS console, then generate new Terraform.`,
        );
        return null;
      }
      await sleep(pollMs, undefined, { signal: shutdown.signal });
    }
  }

  /** Scans with the platform's own credentials, which must belong to the requested account. */
  async function ownCredentials(job: JobRow): Promise<AwsConnection | null> {
    const connection: AwsConnection = { region: job.awsRegion, endpoint: settings.awsEndpoint };
    const account = await callerAccountId(connection);
    if (account !== job.awsAccountId) {
      await fail(
        job.id,
        `The platform's AWS credentials belong to account ${account}, not ${job.awsAccountId}: it can only ` +
          `generate Terraform for its own account.`,
      );
      return null;
    }
    return connection;
  }

  async function inventoryOf(job: JobRow, scope: AccountScope): Promise<Inventory | null> {
    if (job.scanner === "demo") {
      await update(job.id, { status: "STARTING_TERRAFORMER" });
      return demoInventory(scope);
    }
    const connection = job.scanner === "credentials" ? await ownCredentials(job) : await waitForRole(job);
    if (!connection) return null;
    await update(job.id, { status: "STARTING_TERRAFORMER" });
    return scanAccount(connection, scope);
  }

  async function execute(jobId: string) {
    const [job] = await db.select().from(cloudConnectionJobs).where(eq(cloudConnectionJobs.id, jobId));
    if (!job || !activeStatuses.includes(job.status as CloudConnectionJobStatus)) return;
    const scope: AccountScope = { accountId: job.awsAccountId, region: job.awsRegion };
    try {
      const inventory = await inventoryOf(job, scope);
      if (!inventory) return;
      const generatedAt = now();
      const bytes = terraformArchive({
        scope,
        inventory,
        source: job.scanner === "demo" ? "demo" : "aws",
        generatedAt,
      });
      const archiveKey = `${job.id}.zip`;
      await store.put(archiveKey, bytes);
      await update(job.id, {
        status: "COMPLETED",
        details: null,
        archiveKey,
        downloadExpiresAt: new Date(generatedAt.getTime() + settings.downloadTtlSeconds * 1000),
      });
    } catch (error) {
      // Stopping the platform interrupts the job; the next start resumes it.
      if (shutdown.signal.aborted) return;
      if (!(error instanceof ScanError)) console.error(`terraform job ${job.id} failed`, error);
      const message = error instanceof Error ? error.message : String(error);
      await fail(job.id, error instanceof ScanError ? message : `Terraform generation failed: ${message}`);
    }
  }

  function start(jobId: string) {
    if (running.has(jobId)) return;
    const run = execute(jobId)
      .catch((error: unknown) => console.error(`terraform job ${jobId} could not be recorded`, error))
      .finally(() => running.delete(jobId));
    running.set(jobId, run);
  }

  async function sweepExpiredArchives() {
    const expired = await db
      .select({ id: cloudConnectionJobs.id, archiveKey: cloudConnectionJobs.archiveKey })
      .from(cloudConnectionJobs)
      .where(
        and(isNotNull(cloudConnectionJobs.archiveKey), lt(cloudConnectionJobs.downloadExpiresAt, now())),
      );
    for (const { id, archiveKey } of expired) {
      if (archiveKey) await store.delete(archiveKey);
      await update(id, { archiveKey: null });
    }
  }

  return {
    /** Creates a job for the user (INITIATING) and starts it; the caller gets it with its redirect link. */
    async create(userId: string, scope: AccountScope): Promise<CloudConnectionJob> {
      const [active] = await db
        .select({ value: count() })
        .from(cloudConnectionJobs)
        .where(
          and(eq(cloudConnectionJobs.userId, userId), inArray(cloudConnectionJobs.status, activeStatuses)),
        );
      if ((active?.value ?? 0) >= MAX_ACTIVE_JOBS_PER_USER)
        throw new TooManyActiveJobsError(MAX_ACTIVE_JOBS_PER_USER);

      const id = randomUUID();
      const roleName = roleNameFor(id);
      const externalId = randomBytes(24).toString("base64url");
      const trustedAccountId = await trustedAccountFor(settings.scanner, scope.accountId);
      const [row] = await db
        .insert(cloudConnectionJobs)
        .values({
          id,
          userId,
          awsAccountId: scope.accountId,
          awsRegion: scope.region,
          scanner: settings.scanner,
          externalId,
          roleName,
          trustedAccountId,
          redirectUrl: quickCreateLink({
            region: scope.region,
            templateUrl,
            roleName,
            externalId,
            trustedAccountId,
          }),
          createdAt: now(),
          updatedAt: now(),
        })
        .returning();
      if (!row) throw new Error("the job was not created");
      start(row.id);
      return toView(row);
    },

    /** The user's job, or null for another user's or an unknown id (the caller answers 404 alike). */
    async find(userId: string, jobId: string): Promise<CloudConnectionJob | null> {
      if (!jobIdSchema.safeParse(jobId).success) return null;
      const [row] = await db
        .select()
        .from(cloudConnectionJobs)
        .where(and(eq(cloudConnectionJobs.id, jobId), eq(cloudConnectionJobs.userId, userId)));
      return row ? toView(row) : null;
    },

    /** A signed download: the archive while the link is valid, `expired` after (410), `invalid` if tampered. */
    async download(
      jobId: string,
      expires: string | undefined,
      signature: string | undefined,
    ): Promise<ArchiveDownload> {
      if (!jobIdSchema.safeParse(jobId).success) return { kind: "missing" };
      const check = links.verify(jobId, expires, signature, now());
      if (check !== "valid") return { kind: check };
      const [row] = await db.select().from(cloudConnectionJobs).where(eq(cloudConnectionJobs.id, jobId));
      if (!row?.archiveKey || !row.downloadExpiresAt) return { kind: "missing" };
      if (row.downloadExpiresAt.getTime() <= now().getTime()) return { kind: "expired" };
      const bytes = await store.get(row.archiveKey);
      if (!bytes) return { kind: "missing" };
      return { kind: "file", bytes, fileName: `${archiveBaseName(row.awsAccountId, row.awsRegion)}.zip` };
    },

    /** Restarts the jobs a previous process left unfinished, and starts the hourly archive clean-up. */
    async resumeUnfinished() {
      const unfinished = await db
        .select({ id: cloudConnectionJobs.id })
        .from(cloudConnectionJobs)
        .where(inArray(cloudConnectionJobs.status, activeStatuses));
      for (const { id } of unfinished) start(id);
      await sweepExpiredArchives();
      sweepTimer = setInterval(() => {
        sweepExpiredArchives().catch((error: unknown) =>
          console.error("terraform archive clean-up failed", error),
        );
      }, SWEEP_INTERVAL_MS);
      sweepTimer.unref();
    },

    sweepExpiredArchives,

    /** Resolves when the job's current run has ended (tests wait on it instead of sleeping). */
    settled: async (jobId: string) => {
      await running.get(jobId);
    },

    /** Interrupts running jobs (they resume at the next start) and stops the clean-up. */
    async close() {
      if (sweepTimer) clearInterval(sweepTimer);
      shutdown.abort();
      await Promise.all(running.values());
    },
  };
}

export type TerraformJobs = ReturnType<typeof createTerraformJobs>;
