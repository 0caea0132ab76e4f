import { partitionOf } from "../cloud/aws/naming";
import { TAG_ENVIRONMENT } from "../cloud/aws/provisioner";
import { createAwsClients, type AwsClients, type AwsConnection } from "../cloud/aws/clients";
import type { AccountScope } from "./generate";
import type { Inventory, ScannedResource } from "./model";
import { ROLE_NAME_PREFIX } from "./role-access";
import { inventoryFrom, readAccount } from "./scanner";
import { collect, definedStrings, mapWithConcurrency } from "./services/service-scanner";

/**
 * The Terraform export of one environment (issue 14): the region is read with the marketplace tool's scanners,
 * then only what carries the environment's id in its TAG_ENVIRONMENT tag is kept, as the Resource Groups Tagging
 * API lists it (IAM roles, which it does not list, by their own tags). Parts without tags of their own (a route table's associations, a bucket's versioning) go with
 * the resource they belong to.
 */

/** The sub-type of an EC2 ARN (`arn:aws:ec2:<region>:<account>:<kind>/<id>`) per Terraform type. */
const ec2ArnKinds: Record<string, string> = {
  aws_vpc: "vpc",
  aws_subnet: "subnet",
  aws_internet_gateway: "internet-gateway",
  aws_nat_gateway: "natgateway",
  aws_eip: "elastic-ip",
  aws_route_table: "route-table",
  aws_security_group: "security-group",
  aws_instance: "instance",
  aws_ebs_volume: "volume",
};

/** The ARN the Tagging API names a scanned resource by; its awsId when that already is one. */
export function arnOf(resource: Pick<ScannedResource, "type" | "awsId">, scope: AccountScope): string {
  if (resource.awsId.startsWith("arn:")) return resource.awsId;
  const { partition } = partitionOf(scope.region);
  const prefix = (service: string) => `arn:${partition}:${service}:${scope.region}:${scope.accountId}`;
  const ec2Kind = ec2ArnKinds[resource.type];
  if (ec2Kind) return `${prefix("ec2")}:${ec2Kind}/${resource.awsId}`;
  switch (resource.type) {
    case "aws_s3_bucket":
      return `arn:${partition}:s3:::${resource.awsId}`;
    case "aws_db_subnet_group":
      return `${prefix("rds")}:subgrp:${resource.awsId}`;
    case "aws_elasticache_subnet_group":
      return `${prefix("elasticache")}:subnetgroup:${resource.awsId}`;
    case "aws_db_instance":
      return `${prefix("rds")}:db:${resource.awsId}`;
    case "aws_cloudwatch_log_group":
      return `${prefix("logs")}:log-group:${resource.awsId}`;
    case "aws_dynamodb_table":
      return `${prefix("dynamodb")}:table/${resource.awsId}`;
    case "aws_elasticache_cluster":
      return `${prefix("elasticache")}:cluster:${resource.awsId}`;
    case "aws_elasticache_replication_group":
      return `${prefix("elasticache")}:replicationgroup:${resource.awsId}`;
    default:
      return resource.awsId;
  }
}

/** The ARNs of every resource of the region tagged with the environment's id. */
export async function taggedArns(clients: AwsClients, environmentId: string): Promise<Set<string>> {
  const { paginateGetResources } = await import("@aws-sdk/client-resource-groups-tagging-api");
  const client = await clients.resourceGroupsTagging();
  const mappings = await collect(
    paginateGetResources({ client }, { TagFilters: [{ Key: TAG_ENVIRONMENT, Values: [environmentId] }] }),
    (page) => page.ResourceTagMappingList,
  );
  return new Set(definedStrings(mappings.map((mapping) => mapping.ResourceARN)));
}

/**
 * The resources whose ARN is among `owned`, or whose own tags (as the scan read them) carry the environment's id,
 * with their parts.
 */
export function ownedResources(
  inventory: Inventory,
  owned: ReadonlySet<string>,
  scope: AccountScope,
  environmentId: string,
): Inventory {
  const taggedOwners = new Set(
    inventory.resources.flatMap((resource) =>
      resource.tags?.[TAG_ENVIRONMENT] === environmentId ? [arnOf(resource, scope)] : [],
    ),
  );
  const isOwned = (resource: Pick<ScannedResource, "type" | "awsId">) => {
    const arn = arnOf(resource, scope);
    return owned.has(arn) || taggedOwners.has(arn);
  };
  return {
    resources: inventory.resources.filter((resource) =>
      resource.partOf ? isOwned(resource.partOf) : isOwned(resource),
    ),
    skipped: inventory.skipped,
  };
}

/**
 * The IAM roles tagged with the environment's id. The Tagging API does not list IAM roles, and ListRoles answers
 * no tags, so every role's own tags are read: the provisioners name roles after the service
 * (`<service>-<id8>-exec`, naming.ts), not the environment, so a name says nothing about whose a role is.
 */
async function taggedRoleArns(
  clients: AwsClients,
  inventory: Inventory,
  environmentId: string,
): Promise<string[]> {
  const { ListRoleTagsCommand } = await import("@aws-sdk/client-iam");
  const iam = await clients.iam();
  const roles = inventory.resources.filter((resource) => resource.type === "aws_iam_role");
  const tagged = await mapWithConcurrency(roles, 4, async (role) => {
    const { Tags } = await iam.send(new ListRoleTagsCommand({ RoleName: role.importId }));
    return Tags?.some((tag) => tag.Key === TAG_ENVIRONMENT && tag.Value === environmentId)
      ? [role.awsId]
      : [];
  });
  return tagged.flat();
}

/** The account `connection` reaches, as STS names it. */
async function accountIdOf(clients: AwsClients): Promise<string> {
  const { GetCallerIdentityCommand } = await import("@aws-sdk/client-sts");
  const { Account } = await (await clients.sts()).send(new GetCallerIdentityCommand({}));
  if (!Account) throw new Error("STS GetCallerIdentity answered without an account");
  return Account;
}

/** Reads the environment's region with `connection` and keeps what the platform created for the environment. */
export async function scanEnvironment(
  connection: AwsConnection,
  environment: { id: string; name: string },
): Promise<{ scope: AccountScope; inventory: Inventory }> {
  const clients = createAwsClients(connection);
  try {
    const scope: AccountScope = { accountId: await accountIdOf(clients), region: connection.region };
    const owned = await taggedArns(clients, environment.id);
    const { raw, skipped } = await readAccount(clients);
    const inventory = inventoryFrom(raw, skipped, { ...scope, productRolePrefix: ROLE_NAME_PREFIX });
    for (const arn of await taggedRoleArns(clients, inventory, environment.id)) owned.add(arn);
    return { scope, inventory: ownedResources(inventory, owned, scope, environment.id) };
  } finally {
    clients.destroy();
  }
}
