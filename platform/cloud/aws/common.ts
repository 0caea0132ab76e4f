import { createHash } from "node:crypto";
import type { ConfigDiff } from "#contract/services";
import { serviceDiff } from "../../lib/diff";
import type { ChangePlan, DriverResource } from "../driver";
import { configOf } from "../configs";
import type { ProvisionContext } from "./provisioner";
import { unansweredFailureOf } from "./aws-errors";

/**
 * What the provisioners share: how a provisioner walks towards its goal in steps, how its failures read, the names
 * and tags it gives AWS resources, AWS errors it tolerates, and the environment's network.
 *
 * The steps: an ordered list, each of which looks at what AWS has and either finds its work done (the next step
 * runs at once) or changes one thing, or must wait. A change ends the call, so the engine persists what was just
 * created before anything else happens; a crash then loses at most that one answer, and the step finds the
 * resource again by its tags or name.
 */

/** What the provisioner remembers between calls: ids, ARNs, names. Strings only (persisted as JSON). */
export type State = Record<string, string>;

/**
 * A step's answer. No `waitMs`: nothing to wait for, carry on with `state` merged. With `waitMs`: the call ends and
 * the engine calls again after that long (0 once something was created, so its id is saved first). An empty string
 * in `state` removes the key.
 */
export type StepOutcome = { state?: State; waitMs?: number; progress?: string };

export type Step = {
  /** What the service's phase shows while this step works, and what a failure of it is called. */
  progress: string;
  run: (state: State) => Promise<StepOutcome | void>;
};

export type StepsResult =
  | { done: true; state: State }
  | { done: false; state: State; waitMs: number; progress: string };

export async function runSteps(steps: readonly Step[], initial: Readonly<State>): Promise<StepsResult> {
  let state: State = { ...initial };
  for (const step of steps) {
    const outcome = await failingAs(step.progress, () => step.run(state));
    if (!outcome) continue;
    state = merged(state, outcome.state ?? {});
    if (outcome.waitMs !== undefined) {
      return { done: false, state, waitMs: outcome.waitMs, progress: outcome.progress ?? step.progress };
    }
  }
  return { done: true, state };
}

function merged(state: State, changes: State): State {
  const next = { ...state, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === "") delete next[key];
  return next;
}

/**
 * A failure of a step, in words a user can act on: the step, then AWS's own error code and message (or the
 * provisioner's reason). `code` is AWS's error code; for a refusal the provisioner makes itself (a name another
 * owner holds), the code AWS uses for such a conflict or a name of its own; null when AWS was not reached.
 */
export class ProvisionError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
    readonly step: string | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ProvisionError";
  }
}

type SdkError = Error & { $fault?: unknown; $metadata?: { httpStatusCode?: unknown } };

/** Whether AWS answered with an error (rather than the call failing before any answer). */
function isServiceError(error: unknown): error is SdkError {
  return (
    error instanceof Error &&
    (typeof (error as SdkError).$fault === "string" ||
      typeof (error as SdkError).$metadata?.httpStatusCode === "number")
  );
}

/** The AWS error code of an SDK error (its name), or null. */
export function awsErrorCode(error: unknown): string | null {
  return isServiceError(error) ? error.name : null;
}

/** Whether `error` is AWS's answer with one of `codes`. */
export function isAwsError(error: unknown, ...codes: string[]): boolean {
  const code = awsErrorCode(error);
  return code !== null && codes.includes(code);
}

/** Runs `run`, naming any failure after `step` (with AWS's code and message when AWS refused). */
export async function failingAs<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProvisionError && error.step !== null) throw error;
    if (error instanceof ProvisionError) {
      throw new ProvisionError(`${step} failed: ${error.message}`, error.code, step, { cause: error });
    }
    const unanswered = unansweredFailureOf(error);
    if (unanswered) throw new ProvisionError(`${step} failed: ${unanswered}`, null, step, { cause: error });
    const code = awsErrorCode(error);
    const detail = error instanceof Error ? error.message : String(error);
    throw new ProvisionError(
      code ? `${step} failed: AWS answered ${code}: ${detail}` : `${step} failed: ${detail}`,
      code,
      step,
      { cause: error },
    );
  }
}

/** Runs `call` and answers undefined when AWS says the thing is not there (any of `codes`). */
export async function unlessMissing<T>(call: () => Promise<T>, ...codes: string[]): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isAwsError(error, ...codes)) return undefined;
    throw error;
  }
}

/**
 * A wait that must not last for ever: the first call records when the wait began in `state[key]`, later ones
 * compare it with `now`; past `limitMs` the wait ends in a ProvisionError with `reason` (AWS's last word on it).
 * The step that sees the wait over clears `state[key]`.
 */
export function boundedWait(
  state: State,
  key: string,
  {
    now,
    limitMs,
    waitMs,
    progress,
    reason,
    code = null,
  }: {
    now: Date;
    limitMs: number;
    waitMs: number;
    progress: string;
    reason: string;
    code?: string | null;
  },
): StepOutcome {
  const since = state[key] ? Date.parse(state[key]) : now.getTime();
  if (now.getTime() - since > limitMs) {
    throw new ProvisionError(`gave up after ${Math.round(limitMs / 60_000)} minutes: ${reason}`, code);
  }
  return { state: { [key]: new Date(since).toISOString() }, waitMs, progress };
}

/** Not there yet: the engine calls again after `waitMs` with `state`. */
export function pending(state: Record<string, string>, progress: string, waitMs: number) {
  return { done: false as const, state, progress, waitMs };
}

/**
 * The name of what the platform creates for a service: the service's name and the first 8 characters of its id,
 * so it is unique in the account, the same on every attempt (a repeated step finds it), and readable in the AWS
 * console. It starts with a letter and has no double hyphen (RDS and ElastiCache refuse both).
 */
export function physicalName(resource: Pick<DriverResource, "id" | "name">, maxLength: number): string {
  const suffix = resource.id
    .replace(/[^a-zA-Z0-9]/g, "")
    .slice(0, 8)
    .toLowerCase();
  const name = /^[a-z]/.test(resource.name) ? resource.name : `svc-${resource.name}`;
  const base = name
    .replace(/-{2,}/g, "-")
    .slice(0, maxLength - suffix.length - 1)
    .replace(/-+$/, "");
  return `${base}-${suffix}`;
}

/**
 * An idempotency token for a create call (EKS clientRequestToken, ECS clientToken): the same for a repeated
 * attempt at the same thing, another for another thing (a replacement with another version, a new node group).
 */
export function clientToken(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32);
}

/** Tags in the shape most AWS APIs take (RDS, ElastiCache, ELBv2, IAM, Secrets Manager). */
export function tagList(tags: Record<string, string>): { Key: string; Value: string }[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

/** The environment's network, from its provisioner's outputs (comma-separated subnet ids). */
export type Network = {
  vpcId: string;
  publicSubnetIds: string[];
  privateSubnetIds: string[];
  securityGroupId: string;
};

export function networkOf(context: Pick<ProvisionContext, "network">): Network {
  const network = context.network;
  const ids = (value: string | undefined) => (value ?? "").split(",").filter(Boolean);
  if (!network?.vpcId || !network.securityGroupId || ids(network.privateSubnetIds).length === 0) {
    throw new Error("The environment's network is not deployed: deploy it before this service");
  }
  return {
    vpcId: network.vpcId,
    publicSubnetIds: ids(network.publicSubnetIds),
    privateSubnetIds: ids(network.privateSubnetIds),
    securityGroupId: network.securityGroupId,
  };
}

/**
 * Compares a configured version ("17", "8.4", "1.33") with what AWS reports ("17.2", "8.4.3", "1.33") on the
 * configured version's precision: negative when the configured one is older, 0 when AWS runs it, positive when
 * it is newer (an upgrade).
 */
export function compareVersions(configured: string, actual: string): number {
  const wanted = configured.split(".").map(Number);
  const running = actual.split(".").map(Number);
  for (const [index, part] of wanted.entries()) {
    const difference = part - (running[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Sorts what changed from `before` to `after` (the history diff's paths, `config.storageGb`) into what AWS updates in
 * place and what needs a new resource. `classify` answers null for a path the type does not use in AWS.
 */
export function planChanges(
  before: DriverResource,
  after: DriverResource,
  classify: (change: ConfigDiff[number]) => "inPlace" | "replace" | null,
): ChangePlan {
  const plan: ChangePlan = { inPlace: [], replace: [] };
  for (const change of serviceDiff(before, after)) {
    const kind = classify(change);
    if (kind) plan[kind].push(change.path);
  }
  return plan;
}

/**
 * Sorts what changed between two versions of a service by what AWS does about it: a changed path under one of
 * `replace` needs a new resource, one under `inPlace` is updated where it stands, and paths the type does not map
 * to AWS (most settings) are left out. Paths are the history diff's (`config.tableName`, `settings.networking.public`).
 */
export function changePlanOf(
  before: DriverResource,
  after: DriverResource,
  { replace, inPlace }: { replace: readonly string[]; inPlace: readonly string[] },
): ChangePlan {
  const within = (path: string, prefixes: readonly string[]) =>
    prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}.`));
  const changed = serviceDiff(
    { config: configOf(before, before.serviceType), settings: before.settings },
    { config: configOf(after, after.serviceType), settings: after.settings },
  ).map((change) => change.path);
  return {
    inPlace: changed.filter((path) => within(path, inPlace) && !within(path, replace)),
    replace: changed.filter((path) => within(path, replace)),
  };
}
