import { serviceTypeLabels, type ServiceType } from "#contract/service-catalogue";
import { createAwsClients, type AwsConnection } from "./clients";
import { CloudStepError, type DeployContext, type DeployDriver, type NewLogLine } from "../driver";
import { oneOffsOf, oneOffWords } from "../one-off-commands";
import {
  TAG_ENVIRONMENT,
  TAG_ORGANIZATION,
  TAG_SERVICE,
  type ProvisionContext,
  type Provisioner,
} from "./provisioner";
import { ProvisionError } from "./common";
import { unansweredFailureOf } from "./aws-errors";

/**
 * The AWS driver (issue 14): deploys the services of an environment that runs in an AWS account with the
 * provisioner of each type, in the environment's region, with the account's credentials as its owner confirms them
 * (`AwsAccount.confirm`: platform/connections/aws-accounts.ts assumes a connection's role with the organization's
 * external id, or checks its keys, as the connection's check does). Each step creates its SDK clients and closes
 * them; the confirmed credentials are kept until shortly before they expire.
 *
 * A failed step reads as its provisioner words it (`<step> failed: AWS answered <code>: <message>`), or as the SDK
 * error's `<name>: <message>`; throttling, 5xx answers and an unreachable endpoint are transient (the SDK already
 * retried them; the engine tries the step again a few times with backoff before it gives up).
 */

/** How long a deployment or teardown of each type may take, after which it fails saying what it waited for. */
export const awsTimeoutMinutes: Record<ServiceType, number> = {
  network: 30,
  database: 60,
  cache: 45,
  queue: 5,
  "file-storage": 10,
  "nosql-database": 15,
  serverless: 15,
  kubernetes: 45,
  "control-plane": 45,
  // ACM waits for the user to create the DNS validation records.
  tls: 120,
  application: 30,
};

/** A single AWS call gives up after this long (the SDK's own retries come on top). */
const AWS_CALL_TIMEOUT_MS = 60_000;
/** Assumed credentials are renewed this long before they expire, so a step never starts with stale ones. */
const CREDENTIALS_MARGIN_MS = 5 * 60_000;
/** How long access keys' confirmation is kept (keys do not expire; an edit of the connection renews it). */
const KEYS_CONFIRMATION_MS = 15 * 60_000;

const THROTTLING_ERRORS = new Set([
  "Throttling",
  "ThrottlingException",
  "ThrottledException",
  "RequestLimitExceeded",
  "RequestThrottled",
  "RequestThrottledException",
  "TooManyRequestsException",
  "ProvisionedThroughputExceededException",
  "SlowDown",
  "PriorRequestNotComplete",
]);

type SdkError = Error & {
  $fault?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  code?: unknown;
};

/** Failures of the network itself: no answer came from AWS. */
const NETWORK_ERRORS = new Set([
  "TimeoutError",
  "RequestTimeout",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** Whether the step is worth trying again: AWS throttled it, failed on its side, or could not be reached. */
export function isTransientAwsError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { $fault, $retryable, $metadata, code } = error as SdkError;
  const status = typeof $metadata?.httpStatusCode === "number" ? $metadata.httpStatusCode : undefined;
  if (THROTTLING_ERRORS.has(error.name) || $retryable || (status !== undefined && status >= 500)) return true;
  // No answer at all: an SDK call (it carries $metadata) or a socket that failed before AWS said anything.
  const answered = $fault !== undefined || status !== undefined;
  return (
    !answered &&
    ($metadata !== undefined ||
      NETWORK_ERRORS.has(error.name) ||
      (typeof code === "string" && NETWORK_ERRORS.has(code)))
  );
}

/**
 * How a refusal of an account's credentials reads as a failed step, in the words of whoever confirms them
 * (`refusalAsStepError` of platform/connections/aws-accounts.ts); undefined for any other error.
 */
export type RefusalOf = (error: unknown) => CloudStepError | undefined;

/**
 * What the user reads of a failed step: a provisioner's failure as it words it (the step, then AWS's code and
 * message), an SDK error as its name and message, or the account's refusal (`refusalOf`).
 */
export function cloudStepErrorOf(error: unknown, lines: NewLogLine[], refusalOf?: RefusalOf): CloudStepError {
  if (error instanceof CloudStepError) {
    return new CloudStepError(error.message, { transient: error.transient, lines });
  }
  if (error instanceof ProvisionError) {
    return new CloudStepError(error.message, { transient: isTransientAwsError(error.cause), lines });
  }
  const refused = refusalOf?.(error);
  if (refused) return new CloudStepError(refused.message, { transient: refused.transient, lines });
  const unanswered = unansweredFailureOf(error);
  if (unanswered) {
    const text = unanswered.charAt(0).toUpperCase() + unanswered.slice(1);
    return new CloudStepError(text, { transient: isTransientAwsError(error), lines });
  }
  if (error instanceof Error) {
    // A provisioner's own reason (a plain Error) needs no name before it.
    const text = error.name === "Error" ? error.message : `${error.name}: ${error.message}`;
    return new CloudStepError(text, { transient: isTransientAwsError(error), lines });
  }
  return new CloudStepError(String(error), { transient: false, lines });
}

export type AwsDriverOptions = {
  /** What each type becomes in AWS; a type without one fails its deployments saying so. */
  provisioners: Partial<Record<ServiceType, Provisioner>>;
  /** How a refusal of an account's credentials reads in a failed step. */
  refusalOf?: RefusalOf;
  now?: () => Date;
  /**
   * ENGINE_TIME_SCALE: multiplies the provisioners' waits between calls (a DB instance's 30 s, an EKS cluster's
   * 60 s, a deleted queue's name's 61 s...), like every simulated step; 1 keeps AWS's own pace. moto_server
   * answers at once, so tests need not sit through them.
   */
  timeScale?: number;
};

/** The shortest a scaled wait becomes (unless it was shorter): AWS is asked again at most this often. */
const MIN_SCALED_WAIT_MS = 250;

/** A provisioner's wait at the engine's time scale; unchanged at 1. */
export function scaledWaitMs(waitMs: number, timeScale: number): number {
  if (timeScale === 1) return waitMs;
  return Math.max(Math.min(waitMs, MIN_SCALED_WAIT_MS), Math.round(waitMs * timeScale));
}

/**
 * An AWS account the driver works in: `key` names the account and the version of its credentials (what confirmed
 * credentials are kept by), `confirm` asks AWS for credentials in a region and answers them once AWS accepted them.
 */
export type AwsAccount = { key: string; confirm: (region: string) => Promise<AwsConnection> };

export function createAwsDriver({
  provisioners,
  refusalOf,
  now = () => new Date(),
  timeScale = 1,
}: AwsDriverOptions) {
  const granted = new Map<string, { connection: Promise<AwsConnection>; until: number }>();

  /** The account's credentials in `region`, confirmed by AWS, from the cache while they are fresh. */
  function accessOf(account: AwsAccount, region: string): Promise<AwsConnection> {
    const key = `${account.key}:${region}`;
    const cached = granted.get(key);
    if (cached && cached.until > now().getTime()) return cached.connection;
    const connection = account.confirm(region).then((confirmed) => {
      const expiration = confirmed.credentials?.expiration?.getTime();
      const entry = granted.get(key);
      if (entry) {
        entry.until = expiration
          ? expiration - CREDENTIALS_MARGIN_MS
          : now().getTime() + KEYS_CONFIRMATION_MS;
      }
      return confirmed;
    });
    // Until AWS answers, concurrent steps share the request; a refusal is not kept.
    granted.set(key, { connection, until: Number.POSITIVE_INFINITY });
    connection.catch(() => granted.delete(key));
    return connection;
  }

  function provisionerOf(serviceType: ServiceType): Provisioner {
    const provisioner = provisioners[serviceType];
    if (!provisioner) {
      throw new CloudStepError(`${serviceTypeLabels[serviceType]} services cannot be deployed to AWS yet.`, {
        transient: false,
      });
    }
    return provisioner;
  }

  /** Runs one provisioner call with the environment's AWS clients, collecting its log lines. */
  async function run<Result>(
    account: AwsAccount,
    context: DeployContext,
    call: (provisioner: Provisioner, provision: ProvisionContext) => Promise<Result>,
  ): Promise<{ result: Result; lines: NewLogLine[] }> {
    const { resource } = context;
    const lines: NewLogLine[] = [];
    const podName = context.podNames[0] ?? resource.name;
    const log: ProvisionContext["log"] = (level, message) => {
      // A millisecond apart, so the lines of one step keep their order in time.
      lines.push({ at: new Date(context.now.getTime() + lines.length), podName, level, message });
    };
    let clients: ReturnType<typeof createAwsClients> | undefined;
    try {
      const provisioner = provisionerOf(resource.serviceType);
      const connection = await accessOf(account, resource.region);
      clients = createAwsClients({
        ...connection,
        maxAttempts: undefined,
        timeoutMs: AWS_CALL_TIMEOUT_MS,
      });
      const result = await call(provisioner, {
        resource,
        tags: {
          [TAG_ORGANIZATION]: context.organizationId,
          [TAG_ENVIRONMENT]: context.environmentId,
          [TAG_SERVICE]: resource.id,
          Name: `${resource.environmentName}-${resource.name}`,
        },
        state: context.state,
        network: context.network,
        aws: clients,
        log,
        ...(context.archive ? { archive: context.archive } : {}),
        ...(context.certificate ? { certificate: context.certificate } : {}),
        ...(context.variables ? { variables: context.variables } : {}),
        now: context.now,
      });
      return { result, lines };
    } catch (error) {
      throw cloudStepErrorOf(error, lines, refusalOf);
    } finally {
      clients?.destroy();
    }
  }

  /** A step that waits, waiting at the engine's time scale. */
  function scaled<Step extends { done: boolean; waitMs?: number }>(step: Step): Step {
    return step.done || step.waitMs === undefined
      ? step
      : { ...step, waitMs: scaledWaitMs(step.waitMs, timeScale) };
  }

  /**
   * Says what the step waits for, once per change, in the deployment's logs: first, since the lines the call
   * logged are that step's work ("Creating the queue", then "Created SQS queue …"), each a millisecond later.
   */
  function withProgress<Step extends { done: boolean; progress?: string }>(
    context: DeployContext,
    step: Step,
    lines: NewLogLine[],
  ): NewLogLine[] {
    if (step.done || !step.progress || step.progress === context.progress) return lines;
    const podName = context.podNames[0] ?? context.resource.name;
    return [
      { at: context.now, podName, level: "info", message: step.progress },
      ...lines.map((line) => ({ ...line, at: new Date(line.at.getTime() + 1) })),
    ];
  }

  /**
   * An application's pre-deploy and seed commands are not run on AWS yet (docs/decisions/073: ECS RunTask needs a
   * test moto cannot give, as its tasks run nothing and always exit 0): said once, at a deployment's first step,
   * rather than let the deployment pass for one that ran them.
   */
  function notRunHere(context: DeployContext): NewLogLine[] {
    if (context.step !== 0) return [];
    const podName = context.podNames[0] ?? context.resource.name;
    return oneOffsOf(context).map((oneOff) => ({
      at: context.now,
      podName,
      level: "warn" as const,
      message:
        `${oneOffWords(oneOff)} is not run on AWS yet: run it yourself against this environment before the new ` +
        "version serves (container hosts run it).",
    }));
  }

  return {
    /**
     * The AWS account's credentials in `region`, as its owner confirmed them (two attempts per call, each
     * given half the provider time-out), kept while fresh: what the logs and monitoring tabs read CloudWatch with,
     * and what the Terraform export of an environment reads its resources with.
     */
    connectionOf: accessOf,

    /** The deploy driver of the environments that run in the AWS account. */
    forAccount(account: AwsAccount): DeployDriver {
      return {
        async apply(context) {
          const { result, lines } = await run(account, context, (provisioner, provision) =>
            provisioner.apply(provision),
          );
          return {
            ...scaled(result),
            lines: [...notRunHere(context), ...withProgress(context, result, lines)],
          };
        },
        async destroy(context) {
          const { result, lines } = await run(account, context, (provisioner, provision) =>
            provisioner.destroy(provision),
          );
          return { ...scaled(result), lines: withProgress(context, result, lines) };
        },
        async observe(context) {
          const { result } = await run(account, context, (provisioner, provision) =>
            provisioner.observe(provision),
          );
          return result;
        },
        async units(context) {
          const { result } = await run(account, context, (provisioner, provision) =>
            provisioner.units ? provisioner.units(provision) : Promise.resolve([]),
          );
          return result;
        },
        secretAttributeNames: (resource) =>
          provisioners[resource.serviceType]?.secretAttributeNames(resource) ?? [],
        plan(before, after) {
          return provisioners[after.serviceType]?.plan(before, after) ?? { inPlace: [], replace: [] };
        },
        timeoutMinutes: (serviceType) => awsTimeoutMinutes[serviceType],
      };
    },
  };
}

export type AwsDriver = ReturnType<typeof createAwsDriver>;
