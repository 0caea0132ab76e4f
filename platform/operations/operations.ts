import type { ServiceType } from "#contract/service-catalogue";
import type { PlatformConfig, TerraformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { createNotifier } from "../notifications/outbox";
import { createPushDeploys } from "../deploy-on-push/pushes";
import type { SecretCipher } from "../lib/cipher";
import { createTerraformExports, exportFilesFor } from "../terraform-exports/environment-exports";
import { createAwsDriver } from "../cloud/aws/driver";
import { awsConnections, refusalAsStepError } from "../connections/aws-accounts";
import { awsProvisioners } from "../cloud/aws/provisioners";
import { containerHosts } from "../deployments/container-hosts";
import type { Provisioner } from "../cloud/aws/provisioner";
import { createCloning } from "../deployments/cloning";
import { createDeploys } from "../deployments/deploys";
import { createEnvironmentTeardowns } from "../deployments/environment-teardowns";
import { createFastboots } from "../deployments/fastboots";
import type { CloudDriver } from "../cloud/driver";
import { createJobRunner, type JobKind, type JobRunnerOptions } from "../engine/jobs";
import { createSimulatedDriver } from "../cloud/simulated/driver";
import { createTeardowns } from "../deployments/teardowns";
import { telemetryOf } from "../deployments/cloud-steps";
import { finalSnapshotsOf } from "../deployments/final-snapshots";
import { simulatedTelemetry } from "../deployments/telemetry";
import type { EnvironmentRow } from "../environments/records";
import { createPreviewReports } from "../previews/github-reports";
import { createPreviews } from "../previews/previews";

/**
 * The platform's operations: the engine's job runner (platform/engine/, which knows no domain) with every job kind
 * the domains register (clones, service deployments and teardowns,
 * environments' Terraform exports, pushed commits waiting to deploy, environment deletions that tear their services
 * down first, fastboots launching a starter stack), and the drivers deployments run on: the simulated cloud (`driver`, unless another is given) for
 * environments without a cloud account, AWS for those in an AWS connection (whose services' logs and metrics then
 * come from CloudWatch: `telemetryOf`). Their ends are announced through the notification outbox
 * (platform/notifications/), which the delivery worker posts from. The server starts it and stops it on shutdown;
 * the HTTP routers create and move jobs in their own transactions and wake the runner afterwards.
 */
export function createOperations({
  db,
  config,
  secrets,
  now = () => new Date(),
  driver = createSimulatedDriver(),
  provisioners = awsProvisioners,
  runner: runnerOptions = {},
}: {
  db: Database;
  /** The Terraform settings, data dir and public URL say where environments' exports are kept and linked. */
  config: Pick<PlatformConfig, "engine" | "appUrl"> &
    Partial<Pick<PlatformConfig, "dataDir" | "publicUrl" | "containerProxy">> & {
      terraform?: Partial<TerraformConfig>;
    };
  secrets: SecretCipher;
  now?: () => Date;
  driver?: CloudDriver;
  /** What each service type becomes in AWS. */
  provisioners?: Partial<Record<ServiceType, Provisioner>>;
  /** The runner's instance id and lease timing (tests of a takeover). */
  runner?: Pick<JobRunnerOptions, "instanceId" | "leaseMs" | "heartbeatMs">;
}) {
  // Deployments and clones announce their ends to Slack and Teams, with links to the app's pages.
  const notify = createNotifier({ appUrl: config.appUrl });
  // The AWS driver works in the accounts of AWS connections, their credentials read and confirmed by connections/.
  const aws = awsConnections({
    driver: createAwsDriver({
      provisioners,
      refusalOf: refusalAsStepError,
      now,
      timeScale: config.engine.timeScale,
    }),
    secrets,
    endpoint: config.terraform?.awsEndpoint,
    appUrl: config.appUrl,
  });
  // The containers driver deploys to the engine a container host connection names (docs/decisions/058), its
  // applications behind the operator's reverse proxy when there is one (063).
  const containers = containerHosts({
    timeScale: config.engine.timeScale,
    secrets,
    ...(config.containerProxy ? { proxy: config.containerProxy } : {}),
  });
  const deploys = createDeploys({
    driver,
    secrets,
    settings: config.engine,
    notify,
    aws,
    containers,
    db,
    engineContext: { awsEndpoint: config.terraform?.awsEndpoint, appUrl: config.appUrl },
  });
  const teardowns = createTeardowns({ deploys, db });
  const environmentTeardowns = createEnvironmentTeardowns({ deploys, teardowns });
  const cloning = createCloning({ secrets, settings: config.engine, deploys, notify });
  const terraformExports = createTerraformExports({ aws, files: exportFilesFor(config) });
  // Deploy on push: deployments of pushed commits that wait for a running deployment to end.
  const pushes = createPushDeploys({ deploys, settings: config.engine });
  // Fastboots launch a starter stack's drafts in order, looking again whenever a deployment in their environment ends.
  const fastboots = createFastboots({ deploys });
  // Preview environments: pull requests' clones, their removal, and what GitHub is told of them (decision 069).
  const previewReports = createPreviewReports({ secrets });
  const previews = createPreviews({
    deploys,
    cloning,
    environmentTeardowns,
    pushes,
    reports: previewReports,
    settings: config.engine,
  });
  const cloneKind: JobKind = {
    ...cloning.kind,
    async ended(job, tx, at) {
      await previews.cloneEnded(job, tx, at);
      const announce = cloning.kind.ended;
      if (!announce) return;
      // A savepoint of its own: an announcement that cannot be queued must not undo the preview's deployments.
      try {
        await tx.transaction((hook) => announce(job, hook, at));
      } catch (error) {
        console.error(`engine: announcing the end of clone ${job.id} failed`, error);
      }
    },
  };
  const deployKind: JobKind = {
    ...deploys.kind,
    // A canceled deployment ends without `ended` (no announcement): its fastboot looks again all the same.
    async step(job, tx, at) {
      const outcome = await deploys.kind.step(job, tx, at);
      if (!("outside" in outcome) && outcome.status === "cancelled") {
        await fastboots.deploymentEnded(tx, job.environmentId, at);
        await previews.deploymentEnded(tx, job.environmentId, at);
      }
      return outcome;
    },
    async ended(job, tx, at) {
      await fastboots.deploymentEnded(tx, job.environmentId, at);
      await previews.deploymentEnded(tx, job.environmentId, at);
      const announce = deploys.kind.ended;
      if (!announce) return;
      // A savepoint of its own: a notification that cannot be queued must not stop the fastboot going on.
      try {
        await tx.transaction((hook) => announce(job, hook, at));
      } catch (error) {
        console.error(`engine: announcing the end of deployment ${job.id} failed`, error);
      }
    },
  };
  const runner = createJobRunner({
    db,
    kinds: [
      cloneKind,
      deployKind,
      teardowns.kind,
      environmentTeardowns.kind,
      terraformExports.kind,
      pushes.kind,
      fastboots.kind,
      previews.kind,
      previewReports.kind,
    ],
    pollIntervalMs: config.engine.pollIntervalMs,
    now,
    // Retries back off like the steps: scaled, so tests at time scale 0 retry at once.
    retryDelayMs: (attempt) =>
      Math.round(Math.min(1000 * 2 ** (attempt - 1), 60_000) * config.engine.timeScale),
    ...runnerOptions,
  });
  const simulated = simulatedTelemetry({ db, driver, now });
  return {
    runner,
    cloning,
    deploys,
    teardowns,
    environmentTeardowns,
    terraformExports,
    pushes,
    fastboots,
    previews,
    driver,
    /** Where the logs and monitoring tabs of the environment's services read from. */
    telemetryOf: (environment: EnvironmentRow) =>
      telemetryOf(db, environment, { simulated, aws, containers, now }),
    /** The final snapshots kept of the environment's databases and caches (none outside AWS). */
    finalSnapshotsOf: (environment: EnvironmentRow) => finalSnapshotsOf(db, environment, { aws }),
    now,
  };
}

export type Operations = ReturnType<typeof createOperations>;
