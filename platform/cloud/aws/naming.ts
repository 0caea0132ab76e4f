import { createHash } from "node:crypto";
import type { DriverResource } from "../driver";
import { TAG_SERVICE, type ProvisionContext } from "./provisioner";

/**
 * How the platform recognizes what it created: the tags on every resource and the names it gives them. A service
 * made of several resources of one kind (a network's subnets) tells them apart by TAG_PART, so a repeated step
 * finds exactly the piece it is about to create.
 */
export const TAG_PART = "cloud-console:part";

export function tagsOf(context: ProvisionContext, part: string, name: string): Record<string, string> {
  return { ...context.tags, [TAG_PART]: part, Name: name };
}

/** The `[{ Key, Value }]` list most AWS APIs take. */
export function tagList(tags: Record<string, string>): { Key: string; Value: string }[] {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

/** `[{ Key, Value }]` (as AWS answers them) as a record. */
export function tagRecord(tags: { Key?: string; Value?: string }[] | undefined): Record<string, string> {
  return Object.fromEntries((tags ?? []).map((tag) => [tag.Key ?? "", tag.Value ?? ""]));
}

/** Whether tags (as a record) mark a resource as this service's. */
export function ownedBy(context: ProvisionContext, tags: Record<string, string> | undefined): boolean {
  return tags?.[TAG_SERVICE] !== undefined && tags[TAG_SERVICE] === context.tags[TAG_SERVICE];
}

/**
 * `<environment>-<service><suffix>`, the name of a resource AWS names (queues, functions, roles): unique in an
 * account as environment names are, and at most `maxLength` characters. A longer name keeps its start and gets
 * the service id's first 8 characters instead of its end, so two long names stay distinct.
 */
export function awsNameOf(
  resource: Pick<DriverResource, "id" | "name" | "environmentName">,
  { maxLength, suffix = "" }: { maxLength: number; suffix?: string },
): string {
  const base = `${resource.environmentName}-${resource.name}`;
  if (base.length + suffix.length <= maxLength) return `${base}${suffix}`;
  const id = resource.id.replace(/-/g, "").slice(0, 8);
  const room = maxLength - suffix.length - id.length - 1;
  return `${base.slice(0, room).replace(/-+$/, "")}-${id}${suffix}`;
}

/** A token for APIs that deduplicate requests (ACM, EC2): the same service and purpose give the same token. */
export function clientTokenOf(context: ProvisionContext, purpose: string, length = 32): string {
  return createHash("sha256").update(`${context.resource.id}:${purpose}`).digest("hex").slice(0, length);
}

/** The partition of a region (its ARNs' second field) and the DNS suffix of its endpoints. */
export function partitionOf(region: string): { partition: string; dnsSuffix: string } {
  if (region.startsWith("cn-")) return { partition: "aws-cn", dnsSuffix: "amazonaws.com.cn" };
  if (region.startsWith("us-gov-")) return { partition: "aws-us-gov", dnsSuffix: "amazonaws.com" };
  return { partition: "aws", dnsSuffix: "amazonaws.com" };
}
