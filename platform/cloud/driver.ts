import type { CloudProvider } from "#contract/cloud-providers";
import type { CostEstimate } from "#contract/environments";
import type { MetricRange, ServiceType } from "#contract/service-catalogue";
import type { Alarm, Metrics, ServiceSettings, ServiceUnit } from "#contract/services";

/**
 * The cloud seam: what the platform asks of a cloud, in plain data (no driver imports a domain module, nor another
 * driver). `DeployDriver` is how a service gets deployed and torn down: idempotent steps the deployments' jobs run
 * outside any transaction, persisting what each recorded, until the driver says done. The AWS
 * driver (platform/cloud/aws/driver.ts) implements it with a provisioner per type; the simulated one
 * (platform/cloud/simulated/phased-driver.ts) turns a `CloudDriver`'s phases into steps that wait out each phase.
 * `CloudDriver` is everything else the platform asks of the place services run (pods, logs, metrics, alarms,
 * prices), answered by the simulated driver from deterministic data so the product behaves like a real deployment
 * on one machine.
 */

/** What a driver knows about a service: its identity, checked configuration and where it runs. */
export type DriverResource = {
  id: string;
  name: string;
  serviceType: ServiceType;
  config: Record<string, unknown>;
  settings: ServiceSettings;
  environmentName: string;
  cloudProvider: CloudProvider;
  region: string;
};

/** How a settings change lands: what AWS updates in place and what needs a replacement. */
export type ChangePlan = { inPlace: string[]; replace: string[] };

/**
 * What the periodic check sees of a deployed service: as deployed (`message`: what changed that the user should
 * know, such as a certificate now issued), as deployed but waiting on the user (`pending`: the message says what to
 * do, e.g. the DNS records that validate a certificate), or drifted (changed or deleted outside the product).
 */
export type Observation =
  | { state: "ok"; message?: string }
  | { state: "pending"; message: string }
  | { state: "degraded" | "missing"; message: string };

/** One phase of a simulated deployment; it lasts `seconds` (times ENGINE_TIME_SCALE). */
export type DeployPhase = { name: string; seconds: number };

/** A log line before it is stored (the store gives it its id). */
export type NewLogLine = {
  at: Date;
  podName: string;
  level: "error" | "warn" | "info" | "debug";
  message: string;
};

export interface CloudDriver {
  /** The phases of a simulated deployment of `resource`, in order, with realistic durations for its type and size. */
  deployPlan(resource: DriverResource): DeployPhase[];
  /** The pods (or instances) the `deployNumber`-th deployment runs; new names per deployment, like a rollout. */
  podNames(resource: DriverResource, deployNumber: number): string[];
  /** The lines the deployment writes while in `phase`, stamped from `startedAt` on. */
  deployLogs(resource: DriverResource, podNames: string[], phase: DeployPhase, startedAt: Date): NewLogLine[];
  /**
   * The lines the running service's pods wrote in [from, to), in the format such a service really writes
   * (PostgreSQL, Redis, Lambda REPORT lines, ...). Deterministic for the same arguments; at most `limit` lines (the
   * newest are kept when there would be more).
   */
  runtimeLogs(
    resource: DriverResource,
    podNames: string[],
    from: Date,
    to: Date,
    limit: number,
  ): NewLogLine[];
  /** CPU, memory, requests, errors and latency series over `range` ending at `now`, one point per `step` seconds. */
  metrics(resource: DriverResource, range: MetricRange, step: number, now: Date): Metrics;
  /** The alarms defined on the service, with their state judged over `metrics`. */
  alarms(resource: DriverResource, metrics: Metrics, now: Date): Alarm[];
  /** Monthly price of running `resource`, line by line, from the catalogue for its type, size and region. */
  price(
    resource: Pick<DriverResource, "serviceType" | "config" | "settings" | "cloudProvider" | "region">,
  ): CostEstimate;
  /** The secret attributes a first deployment creates (passwords, tokens, connection strings), by name. */
  createSecretAttributes(resource: DriverResource, endpoint: string | null): Record<string, string>;
  /** Names of the secret attributes of a type (what GET attributes/{attribute} may reveal). */
  secretAttributeNames(serviceType: ServiceType): string[];
  /** Where clients reach the deployed service (host name or URL), or null for types without one. */
  endpoint(resource: DriverResource): string | null;
}

/** What one step of a deployment or teardown is given. */
export type DeployContext = {
  resource: DriverResource;
  /** The service's organization and environment (with `resource.id`, the tags on what a cloud creates). */
  organizationId: string;
  environmentId: string;
  /** What earlier steps recorded, of this deployment and the ones before; {} before the first. */
  state: Readonly<Record<string, string>>;
  /** The environment's network's outputs (its VPC, subnets), for types inside it; null without a deployed one. */
  network: Readonly<Record<string, string>> | null;
  /** 0 for this deployment's (or teardown's) first step, then 1, 2, ... */
  step: number;
  /** What the previous step said it waits for; null at the first. */
  progress: string | null;
  /** A deployment of the service's configuration, or of a change to its settings alone. */
  change: "deploy" | "settings";
  /** The pods (or instances) this deployment runs; its log lines carry the first one's name. */
  podNames: string[];
  /** Whether the service already has sealed secret attributes (the simulated cloud makes them once). */
  secretsSealed: boolean;
  /**
   * The secret attributes the platform sealed for the service, unsealed when a step asks (a data service whose
   * containers were all removed outside reads its password back); absent when none are sealed.
   */
  sealedSecrets?: () => Readonly<Record<string, string>>;
  /** The uploaded archive of a serverless service, when it has one. */
  archive?: () => Promise<Uint8Array>;
  /**
   * The TLS certificate service an application's domain is served with (its Domain field's certificate): its name
   * (null when it is no longer in the environment) and its certificate's ARN in the cloud, null until deployed.
   */
  certificate?: TlsCertificate;
  /** What an application's source reaches outside (its connections, the environment's chart repositories). */
  sources?: ApplicationSources;
  /** The pods the deployment replaces, in order (a rolling update stops one per new pod). */
  previousPodNames?: string[];
  /**
   * An application's variables as its containers get them (decision 074), read when the driver's step asks
   * (outside any transaction): each `${NAME}` replaced by the environment's variable (a secret one unsealed), each
   * `${{service.attribute}}` by the service's attribute. `waitingFor` while a referenced service has not answered
   * the attribute yet; throws a CloudStepError naming a variable or service the environment no longer has.
   * Absent where the platform gives none (a driver's own tests): see `resolvedVariablesOf`.
   */
  variables?: () => Promise<VariableResolution>;
  /** The pushed commit a GitHub application's deployment builds (deploy on push); absent: the branch's head. */
  pushedCommit?: { sha: string; message: string };
  /**
   * Writes lines to the deployment's logs before the step ends, in a short write of their own (a build's output
   * as it comes); lines written so are not answered again with the step. Absent: the step's lines come at its end.
   */
  writeLines?: (lines: NewLogLine[]) => Promise<void>;
  /**
   * A preview's seed command (docs/decisions/073): given to the preview's first deployment of its first application
   * that builds the pull request, run once after the pre-deploy command and before the new version starts.
   */
  seedCommand?: string;
  /**
   * When the deployment's time-out (`timeoutMinutes`) fails it: a step that waits on something it started (a
   * one-off command's container) stops that before. Absent: the deployment has none.
   */
  deadline?: Date;
  now: Date;
};

export type TlsCertificate = { name: string | null; arn: string | null };

/** An application's variable with its reference resolved. */
export type ResolvedVariable = {
  name: string;
  value: string;
  /** A secret environment variable or a secret attribute (a connection string): never logged nor stored as plain text. */
  secret: boolean;
  /** What its value came from; absent for a plain value. */
  reference?:
    | { kind: "variable"; variable: string }
    | { kind: "attribute"; service: string; attribute: string };
};

export type VariableResolution = { variables: ResolvedVariable[] } | { waitingFor: string };

/** Not there yet: the engine persists `state` and calls again after `waitMs`; `progress` says what it waits for. */
export type PendingStep = {
  done: false;
  state: Record<string, string>;
  waitMs: number;
  progress: string;
  lines: NewLogLine[];
};

export type DeployStep =
  | PendingStep
  | {
      done: true;
      state: Record<string, string>;
      /** Where clients reach the service, or null for types without an address. */
      endpoint: string | null;
      /** The secret attributes by name, sealed by the engine; {} when they are unchanged. */
      secrets: Record<string, string>;
      /** Plain values the environment's other services get (a network's outputs are their `network`). */
      outputs: Record<string, string>;
      /** What the deployed service still waits for from the user (a certificate's DNS records), shown with its status. */
      detail?: string;
      lines: NewLogLine[];
    };

export type TeardownStep = PendingStep | { done: true; lines: NewLogLine[] };

/**
 * A step the cloud refused (`transient`: throttled, unavailable, unreachable: worth trying again). The message is
 * shown to the user as it is: the cloud's error code and message; `lines` are what the step logged before.
 */
export class CloudStepError extends Error {
  readonly transient: boolean;
  readonly lines: NewLogLine[];
  constructor(message: string, { transient, lines = [] }: { transient: boolean; lines?: NewLogLine[] }) {
    super(message);
    this.name = "CloudStepError";
    this.transient = transient;
    this.lines = lines;
  }
}

/**
 * A rolling update whose new pods (or containers) never became healthy, after the driver put back what ran
 * before: the engine restores the service's running version (decision 033), whichever cloud rolled back.
 */
export class RolloutFailedError extends CloudStepError {
  constructor(message: string, lines: NewLogLine[]) {
    super(message, { transient: false, lines });
    this.name = "RolloutFailedError";
  }
}

export interface DeployDriver {
  /** One idempotent step towards the service as configured; safe to repeat after a crash. */
  apply(context: DeployContext): Promise<DeployStep>;
  /**
   * One step of tearing the service down, in reverse order, tolerating what is already gone; absent when nothing
   * outlives the service's row (the simulated cloud).
   */
  destroy?(context: DeployContext): Promise<TeardownStep>;
  /**
   * The environment's teardown's last call, once its services are gone: removes what the environment itself
   * still holds (a container host's network, which concurrent teardowns of its last services can each leave to
   * the other). Idempotent; absent when the environment holds nothing of its own.
   */
  teardownEnvironment?(environment: { organizationId: string; environmentId: string }): Promise<void>;
  /** Which configuration changes land in place and which replace the service; absent when the cloud cannot say. */
  plan?(before: DriverResource, after: DriverResource): ChangePlan;
  /**
   * What the cloud holds of the deployed service now, for the periodic drift check (platform/deployments/drift-checks.ts): whether
   * something was changed outside the platform. Absent when nothing can be (the simulated cloud).
   */
  observe?(context: DeployContext): Promise<Observation>;
  /**
   * The units the deployed service runs now, as the cloud reports them (none for a type without units); absent
   * when the cloud has none to ask (the simulated cloud: its deployments record made-up pods instead).
   */
  units?(context: DeployContext): Promise<ServiceUnit[]>;
  /** The names of the secret attributes a deployment of `resource` answers (what GET attributes lists). */
  secretAttributeNames(resource: DriverResource): readonly string[];
  /**
   * The names an application's `${{service.attribute}}` may reference of `resource`: every attribute a deployment
   * answers (its secret ones and its outputs). Absent: the simulated cloud's secret attribute names stand for them.
   */
  attributeNames?(resource: DriverResource): readonly string[];
  /** How long a deployment or teardown of the type may take before it fails; null: its steps always end. */
  timeoutMinutes(serviceType: ServiceType): number | null;
}

/**
 * What an application's source reaches outside the cloud, read through the organization's connections by their
 * owner (platform/applications/sources.ts): plain answers, or a provider's refusal as a `CloudStepError` in its
 * words (transient when its host did not answer).
 */
export type ApplicationSources = {
  /**
   * A registry image's manifest: its digest and the name it is pulled by, with the credentials a container engine
   * pulls it with (`auth`, absent where the provider gives none yet). Never logged.
   */
  registryImage: (
    connectionId: string,
    repository: string,
    tag: string,
  ) => Promise<{ image: string; digest: string; auth?: RegistryAuth }>;
  /**
   * A GitHub repository's owner and name, the commit built (the pushed one, or the branch's head) with its message,
   * and the Dockerfile at `dockerfilePath` in it.
   */
  githubSource: (
    connectionId: string,
    source: {
      repository: string;
      branch: string;
      dockerfilePath: string;
      pushedCommit?: { sha: string; message: string };
    },
  ) => Promise<{ owner: string; name: string; commit: string; message: string; dockerfile: string }>;
  /**
   * The repository `owner/name` at `commit` as GitHub serves it (its tarball API: a gzipped tar whose entries sit
   * under one top directory), what a container engine builds from.
   */
  githubArchive: (
    connectionId: string,
    source: { owner: string; name: string; commit: string },
  ) => Promise<Uint8Array>;
  /** The URL of one of the environment's chart repositories. */
  chartRepositoryUrl: (id: string) => Promise<string | undefined>;
};

/** Credentials a container engine pulls a registry's image with (Docker's X-Registry-Auth). */
export type RegistryAuth = { username: string; password: string; serveraddress: string };
