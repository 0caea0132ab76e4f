import type { CloudProvider } from "#contract/cloud-providers";
import type { ServiceType } from "#contract/service-catalogue";

/** Where an environment's services run: a container host, an AWS account (a connection), or the simulated cloud. */
type EnvironmentPlace = { cloudProvider: CloudProvider; cloudConnectionId: string | null };

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
 * What deleting a service removes from its container host (platform/cloud/container/*): a data service's container
 * and its named volume (Memcached has none), an application's containers. The other types cannot run there.
 */
const removedFromContainerHost: Partial<Record<ServiceType, string>> = {
  database: "its container and its named volume, which holds its data",
  cache: "its container and its named volume, which holds its data",
  queue: "its container and its named volume, which holds its messages",
  "file-storage": "its container and its named volume, which holds its bucket's objects",
  application: "its containers, the images built for it and its route on the proxy, if it has one",
};

/**
 * What the delete dialog of a service says will be destroyed, and what is kept: a final snapshot of an AWS
 * database, and of an AWS cache whose engine can take one (Redis, Valkey: Memcached keeps nothing); nothing on a
 * container host, whose volume goes with the service.
 */
export function deletionConsequences(
  service: { serviceType: ServiceType; config: Record<string, unknown> },
  environment: EnvironmentPlace,
): { destroyed: string | null; kept: string | null } {
  if (environment.cloudProvider === "CONTAINERS") {
    const removed =
      service.serviceType === "cache" && service.config.engine === "memcached"
        ? "its container, with the items it held in memory"
        : removedFromContainerHost[service.serviceType];
    return {
      destroyed: removed ? `Removed from the container host: ${removed}.` : null,
      kept: removed ? "Nothing is kept: a container host takes no snapshot." : null,
    };
  }
  if (environment.cloudConnectionId === null) return { destroyed: null, kept: null };
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

/**
 * The same for a whole environment: on a container host everything its services run goes; in a cloud account every
 * service's resources go and AWS databases leave snapshots; a simulated environment's say nothing (null).
 */
export function environmentDeletionConsequences(environment: EnvironmentPlace): string | null {
  if (environment.cloudProvider === "CONTAINERS") {
    return (
      "Everything its services run on the container host is removed with them: their containers and named " +
      "volumes with their data and messages, the images built for them and the environment's network. " +
      "Nothing is kept."
    );
  }
  if (environment.cloudConnectionId === null) return null;
  return (
    "Everything its services created in the AWS account is deleted with them: databases, caches, tables, buckets " +
    "and queues with their data and messages. A final snapshot of each database and Redis or Valkey cache is kept " +
    "in the account, from which it can be restored."
  );
}
