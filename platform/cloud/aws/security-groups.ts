import type { IpPermission, SecurityGroup } from "@aws-sdk/client-ec2";
import { isAwsError } from "./aws-errors";
import type { ProvisionContext } from "./provisioner";
import { tagList } from "./naming";
import { unlessMissing } from "./common";

/**
 * A security group the platform owns outright, found by its tags in the VPC, whose inbound rules are exactly the
 * wanted ones: a rule added by hand (or left from an earlier configuration) is revoked, a missing one authorized.
 * Outbound stays EC2's default (everything), which load balancers and tasks need to reach their targets.
 */
export type WantedGroup = {
  vpcId: string;
  name: string;
  description: string;
  /** The tags it is created with. */
  tags: Record<string, string>;
  /** The tags it is found again by (a subset of `tags` that no rename changes). */
  key: Record<string, string>;
  /** Inbound TCP ports, each from the same sources: CIDR blocks (IPv4 or IPv6) or security group ids. */
  inbound: { ports: number[]; from: { cidrs?: string[]; ipv6Cidrs?: string[]; groupIds?: string[] } };
};

async function ec2Of(context: ProvisionContext) {
  return { ec2: await context.aws.ec2(), sdk: await import("@aws-sdk/client-ec2") };
}

/** The group tagged with every tag of `key` (the account's only one: keys name an environment or a service). */
async function findSecurityGroup(
  context: ProvisionContext,
  key: Record<string, string>,
): Promise<SecurityGroup | undefined> {
  const { ec2, sdk } = await ec2Of(context);
  const answer = await ec2.send(
    new sdk.DescribeSecurityGroupsCommand({
      Filters: Object.entries(key).map(([name, value]) => ({ Name: `tag:${name}`, Values: [value] })),
    }),
  );
  return answer.SecurityGroups?.[0];
}

/**
 * Creates the group, tagged in the same call. Two steps that share it (the first deployments of two applications
 * of an environment, at once) may both have found none: EC2 refuses the second name in the VPC with
 * InvalidGroup.Duplicate, and that step goes on with the group the other created, found by its tags.
 */
async function createSecurityGroup(context: ProvisionContext, wanted: WantedGroup): Promise<SecurityGroup> {
  const { ec2, sdk } = await ec2Of(context);
  try {
    const created = await ec2.send(
      new sdk.CreateSecurityGroupCommand({
        GroupName: wanted.name,
        Description: wanted.description,
        VpcId: wanted.vpcId,
        TagSpecifications: [{ ResourceType: "security-group", Tags: tagList(wanted.tags) }],
      }),
    );
    if (!created.GroupId) throw new Error(`EC2 did not return the security group ${wanted.name}`);
    context.log("info", `Created security group ${wanted.name} (${created.GroupId})`);
    return { GroupId: created.GroupId, IpPermissions: [] };
  } catch (error) {
    if (!isAwsError(error, "InvalidGroup.Duplicate")) throw error;
    // A group of that name without the platform's tags (made by hand) is not taken over: the error stands.
    const raced = await findSecurityGroup(context, wanted.key);
    if (!raced?.GroupId) throw error;
    return raced;
  }
}

/** One permission per port and source, so each compares (and is revoked) on its own. */
function permissionsOf({ inbound }: WantedGroup): IpPermission[] {
  return [...new Set(inbound.ports)].flatMap((port) => {
    const base = { IpProtocol: "tcp", FromPort: port, ToPort: port };
    return [
      ...(inbound.from.cidrs ?? []).map((CidrIp) => ({ ...base, IpRanges: [{ CidrIp }] })),
      ...(inbound.from.ipv6Cidrs ?? []).map((CidrIpv6) => ({ ...base, Ipv6Ranges: [{ CidrIpv6 }] })),
      ...(inbound.from.groupIds ?? []).map((GroupId) => ({ ...base, UserIdGroupPairs: [{ GroupId }] })),
    ];
  });
}

/** The same permissions, one per port and source, as keys. */
function keysOf(permissions: IpPermission[] | undefined): Map<string, IpPermission> {
  const keys = new Map<string, IpPermission>();
  for (const permission of permissions ?? []) {
    const base = {
      IpProtocol: permission.IpProtocol,
      FromPort: permission.FromPort,
      ToPort: permission.ToPort,
    };
    const head = `${permission.IpProtocol}:${permission.FromPort}-${permission.ToPort}`;
    for (const range of permission.IpRanges ?? [])
      keys.set(`${head}:${range.CidrIp}`, { ...base, IpRanges: [{ CidrIp: range.CidrIp }] });
    for (const range of permission.Ipv6Ranges ?? [])
      keys.set(`${head}:${range.CidrIpv6}`, { ...base, Ipv6Ranges: [{ CidrIpv6: range.CidrIpv6 }] });
    for (const pair of permission.UserIdGroupPairs ?? [])
      keys.set(`${head}:${pair.GroupId}`, { ...base, UserIdGroupPairs: [{ GroupId: pair.GroupId }] });
    for (const list of permission.PrefixListIds ?? [])
      keys.set(`${head}:${list.PrefixListId}`, {
        ...base,
        PrefixListIds: [{ PrefixListId: list.PrefixListId }],
      });
  }
  return keys;
}

/** The group as `wanted` describes it, created when missing; its id. */
export async function ensureSecurityGroup(context: ProvisionContext, wanted: WantedGroup): Promise<string> {
  const { ec2, sdk } = await ec2Of(context);
  const group =
    (await findSecurityGroup(context, wanted.key)) ?? (await createSecurityGroup(context, wanted));
  const groupId = group.GroupId ?? "";
  const present = keysOf(group.IpPermissions);
  const desired = keysOf(permissionsOf(wanted));
  const missing = [...desired].filter(([key]) => !present.has(key)).map(([, permission]) => permission);
  const extra = [...present].filter(([key]) => !desired.has(key)).map(([, permission]) => permission);
  // Another step converging the same shared group at the same moment may have revoked or authorized a rule first.
  if (extra.length > 0) {
    await unlessMissing(
      () => ec2.send(new sdk.RevokeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: extra })),
      "InvalidPermission.NotFound",
    );
  }
  if (missing.length > 0) {
    await unlessMissing(
      () =>
        ec2.send(new sdk.AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: missing })),
      "InvalidPermission.Duplicate",
    );
  }
  if (missing.length > 0 || extra.length > 0) {
    const ports = [...new Set(wanted.inbound.ports)].join(", ");
    const sources = Object.values(wanted.inbound.from).flat().join(", ");
    context.log("info", `Security group ${wanted.name} lets in TCP ${ports} from ${sources} only`);
  }
  return groupId;
}

/**
 * Deletes the group found by `key`; false while something still uses it (the network interfaces of a load balancer
 * or of tasks AWS has not released yet, or another group's rule naming it), so the caller waits and tries again.
 */
export async function deleteSecurityGroup(
  context: ProvisionContext,
  key: Record<string, string>,
): Promise<boolean> {
  const group = await findSecurityGroup(context, key);
  if (!group?.GroupId) return true;
  const { ec2, sdk } = await ec2Of(context);
  try {
    await unlessMissing(
      () => ec2.send(new sdk.DeleteSecurityGroupCommand({ GroupId: group.GroupId })),
      "InvalidGroup.NotFound",
    );
  } catch (error) {
    if (isAwsError(error, "DependencyViolation")) return false;
    throw error;
  }
  context.log("info", `Deleted security group ${group.GroupName} (${group.GroupId})`);
  return true;
}
