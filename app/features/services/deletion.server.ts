import type { ServiceType } from "#contract/service-catalogue";

/**
 * What deleting a service removes from its cloud account, in words, by type: what the platform's AWS provisioners
 * created for it (platform/cloud/aws/*). A simulated environment's services leave nothing behind.
 */
const createdInAws: Record<ServiceType, string> = {
  database: "its RDS instance with its data, its subnet group, master password secret and log groups",
  cache: "its ElastiCache cluster with its data, its subnet group and auth token secret",
  queue: "its SQS queue and dead-letter queue, with their messages",
  "file-storage": "its S3 bucket",
  "nosql-database": "its DynamoDB table with its items",
  serverless: "its Lambda function, its role and log group",
  kubernetes: "its EKS cluster, node group and their roles",
  "control-plane": "its EKS cluster and its role",
  network: "its VPC with its subnets, gateways and route tables",
  tls: "its ACM certificate",
  application: "its ECS service, task definition, load balancer rule and log group",
};

/**
 * What the delete dialog of a service says will be destroyed, and what is kept: a final snapshot of an AWS
 * database, and of an AWS cache whose engine can take one (Redis, Valkey: Memcached keeps nothing).
 */
export function deletionConsequences(
  service: { serviceType: ServiceType; config: Record<string, unknown> },
  { inCloudAccount }: { inCloudAccount: boolean },
): { destroyed: string | null; kept: string | null } {
  if (!inCloudAccount) return { destroyed: null, kept: null };
  const snapshots =
    service.serviceType === "database" ||
    (service.serviceType === "cache" && service.config.engine !== "memcached");
  return {
    destroyed: `Deleted from the AWS account: ${createdInAws[service.serviceType]}.`,
    kept: snapshots
      ? "A final snapshot of its data is kept in the AWS account, from which it can be restored."
      : null,
  };
}

/** The same for an environment in a cloud account: every service's resources go, AWS databases leave snapshots. */
export const environmentDeletionConsequences =
  "Everything its services created in the AWS account is deleted with them: databases, caches, tables, buckets " +
  "and queues with their data and messages. A final snapshot of each database and Redis or Valkey cache is kept " +
  "in the account, from which it can be restored.";
