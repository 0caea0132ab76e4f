import { createHash } from "node:crypto";
import type { ConfigDiff } from "#contract/services";
import { serviceDiff } from "../../services/diff";
import { isAwsError } from "../../terraform/services/service-scanner";
import type { DriverResource } from "../driver";
import type { ChangePlan, ProvisionContext } from "./provisioner";

/** What the provisioners share: the names and tags they give AWS resources, waiting, and tolerated errors. */

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

/**
 * Runs `call`; an AWS error with one of `codes` (something already gone, or not there yet) answers undefined
 * instead of failing. Every other error, AWS's code and message included, reaches the engine as thrown.
 */
export async function tolerating<T>(
  codes: readonly string[],
  call: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isAwsError(error, ...codes)) return undefined;
    throw error;
  }
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
