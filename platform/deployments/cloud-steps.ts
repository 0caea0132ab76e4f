import { and, eq } from "drizzle-orm";
import type { Database } from "../db/index";
import { organizations, resourceLogs, resources, serverlessUploads } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import { driverResourceOf, type ResourceRow } from "../services/records";
import { certificateIdOf } from "../services/certificates";
import { awsAccountOf, type AwsConnections } from "../connections/aws-accounts";
import { containerHostOf } from "../connections/container-hosts";
import { cloudWatchTelemetry } from "./aws-telemetry";
import type { ContainerHosts } from "./container-hosts";
import {
  CloudStepError,
  type DeployContext,
  type DeployDriver,
  type NewLogLine,
  type TlsCertificate,
} from "../cloud/driver";
import type { TelemetrySource } from "./telemetry";

/**
 * What deployments (./deploys.ts) and teardowns (./teardowns.ts) share: which driver an environment deploys with
 * (and, for the logs and monitoring tabs, where its telemetry comes from),
 * what a step is told, and how a step's failure or time-out reads in the service's message and logs.
 */

/** The maximum attempts the runner gives a step (its default); the last one fails the service instead. */
export const STEP_ATTEMPTS = 5;

/**
 * The driver of the environment's cloud: the container engine of its container host connection, AWS when it runs
 * in an AWS connection (and the engine has the AWS driver), else the simulated cloud (environments without a
 * connection, and clouds without a driver yet). An environment on a container host is never simulated: without
 * the containers driver its steps fail saying so.
 */
export async function deployDriverOf(
  tx: Database,
  environment: EnvironmentRow,
  {
    simulated,
    aws,
    containers,
  }: { simulated: DeployDriver; aws?: AwsConnections; containers?: ContainerHosts },
): Promise<DeployDriver> {
  const host = await containerHostOf(tx, environment);
  if (host) {
    if (!containers) throw new CloudStepError(NO_CONTAINER_DRIVER, { transient: false });
    return containers.driverFor(host.connection);
  }
  if (!aws) return simulated;
  const account = await awsAccountOf(tx, environment);
  return account ? aws.forConnection(account.connection, account.organization) : simulated;
}

const NO_CONTAINER_DRIVER =
  "This platform runs no container driver: an environment on a container host cannot deploy here.";

/** Where the environment's services' logs and metrics come from, chosen like its deploy driver. */
export async function telemetryOf(
  db: Database,
  environment: EnvironmentRow,
  {
    simulated,
    aws,
    containers,
    now,
  }: { simulated: TelemetrySource; aws: AwsConnections; containers: ContainerHosts; now: () => Date },
): Promise<TelemetrySource> {
  const host = await containerHostOf(db, environment);
  if (host) return containers.telemetryFor(host.connection, { db, now });
  const account = await awsAccountOf(db, environment);
  if (!account) return simulated;
  return cloudWatchTelemetry({
    db,
    connection: () => aws.connectionOf(account.connection, account.organization, environment.region),
    now,
  });
}

/** What a step of `resource` is told, read in the step's transaction (the archive later, when it is needed). */
export async function deployContextOf(
  tx: Database,
  db: Database | undefined,
  {
    resource,
    environment,
    step,
    progress,
    change,
    podNames,
  }: {
    resource: ResourceRow;
    environment: EnvironmentRow;
    step: number;
    progress: string | null;
    change: DeployContext["change"];
    podNames: string[];
  },
  now: Date,
): Promise<DeployContext> {
  const [organization] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.tenantId, environment.tenantId));
  if (!organization) throw new Error(`the environment ${environment.id} has no organization`);
  const [network] =
    resource.serviceType === "network"
      ? []
      : await tx
          .select({ outputs: resources.cloudOutputs })
          .from(resources)
          .where(
            and(
              eq(resources.environmentId, environment.id),
              eq(resources.serviceType, "network"),
              eq(resources.stage, "STAGE_COMPLETED"),
            ),
          )
          .limit(1);
  const certificate = await certificateOfApplication(tx, resource, environment);
  const uploadId = resource.serviceType === "serverless" ? resource.config.uploadId : undefined;
  return {
    resource: driverResourceOf(resource, environment),
    organizationId: organization.id,
    environmentId: environment.id,
    state: resource.cloudState ?? {},
    network: network?.outputs ?? null,
    step,
    progress,
    change,
    podNames,
    secretsSealed: resource.sealedAttributes !== null,
    ...(typeof uploadId === "string" && db ? { archive: () => archiveOf(db, uploadId) } : {}),
    ...(certificate ? { certificate } : {}),
    now,
  };
}

/**
 * The TLS certificate service an application's domain is served with, as the driver needs it: its name and the
 * certificate's ARN its deployment output (null before); undefined without a domain and certificate.
 */
async function certificateOfApplication(
  tx: Database,
  resource: ResourceRow,
  environment: EnvironmentRow,
): Promise<TlsCertificate | undefined> {
  if (resource.serviceType !== "application") return undefined;
  const domain = (resource.config as { domain?: { host?: unknown; certificateId?: unknown } }).domain;
  if (!domain?.host || typeof domain.certificateId !== "string" || !domain.certificateId) return undefined;
  const certificates = await tx
    .select({ id: resources.id, name: resources.name, outputs: resources.cloudOutputs })
    .from(resources)
    .where(and(eq(resources.environmentId, environment.id), eq(resources.serviceType, "tls")));
  const service = certificates.find((row) => certificateIdOf(row, environment) === domain.certificateId);
  return { name: service?.name ?? null, arn: service?.outputs?.certificateArn || null };
}

/** A serverless service's uploaded archive, read when the step needs it (outside any transaction). */
async function archiveOf(db: Database, uploadId: string): Promise<Uint8Array> {
  const [upload] = await db
    .select({ content: serverlessUploads.content })
    .from(serverlessUploads)
    .where(eq(serverlessUploads.id, uploadId));
  if (!upload)
    throw new CloudStepError("The function's uploaded archive is gone: upload it again.", {
      transient: false,
    });
  return Buffer.from(upload.content, "base64");
}

export async function writeLines(tx: Database, resourceId: string, lines: NewLogLine[]) {
  if (lines.length) await tx.insert(resourceLogs).values(lines.map((line) => ({ resourceId, ...line })));
}

/** Whether the work that began at `startedAt` is past the type's time-out at `now`. */
export function timedOut(driver: DeployDriver, resource: ResourceRow, startedAt: string | null, now: Date) {
  const minutes = driver.timeoutMinutes(resource.serviceType as DeployContext["resource"]["serviceType"]);
  if (minutes === null || !startedAt) return null;
  return now.getTime() - new Date(startedAt).getTime() > minutes * 60_000 ? minutes : null;
}

export function timeoutMessage(minutes: number, progress: string | null, lastError?: string): string {
  const waitingFor = progress ? `"${progress}" to finish` : "the cloud to answer";
  return `Timed out after ${minutes} minutes waiting for ${waitingFor}${lastError ? `; the last error was ${lastError}` : ""}.`;
}

/**
 * Why a step that threw `error` fails the service now, or null when the runner should try it again: a transient
 * fault of the cloud (throttled, unavailable) or an unexpected one, with attempts left and time before the time-out.
 * The cloud's refusals read as the cloud put them (`code: message`).
 */
export function failureOf(
  error: unknown,
  {
    attempts,
    timeoutMinutes,
    progress,
    work,
  }: {
    attempts: number;
    timeoutMinutes: number | null;
    progress: string | null;
    work: "deployment" | "teardown";
  },
): string | null {
  const lastAttempt = attempts + 1 >= STEP_ATTEMPTS;
  if (error instanceof CloudStepError) {
    if (timeoutMinutes !== null) return timeoutMessage(timeoutMinutes, progress, error.message);
    return !error.transient || lastAttempt ? error.message : null;
  }
  if (!lastAttempt) return null;
  const message = error instanceof Error ? error.message : String(error);
  return `The ${work} stopped unexpectedly: ${message}`;
}

/** When a wait that says `progress` began: the same wait asked again keeps its start, a new one starts `now`. */
export function progressSinceOf(
  previous: { progress: string | null; progressSince?: string | null },
  progress: string,
  now: Date,
): string {
  return previous.progress === progress && previous.progressSince
    ? previous.progressSince
    : now.toISOString();
}
