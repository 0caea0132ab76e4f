import type { DeployPhase, DriverResource } from "../driver";
import { configOf } from "../configs";
import { instanceCountOf } from "./resource";

/**
 * Deployment phases per type, named after what the provider's console shows, with durations in seconds at
 * ENGINE_TIME_SCALE=1. Real provisioning takes minutes (an RDS instance 5–15 min, an EKS cluster 10–15 min, a NAT
 * gateway 1–2 min); these are scaled down about 20× so a demo stays watchable while keeping the proportions: a
 * queue or certificate is done in a few seconds, a database in 25–45 s, a Kubernetes cluster in about 1–1.5 min.
 *
 * | type            | total at scale 1                                       |
 * |-----------------|--------------------------------------------------------|
 * | database        | 25 s (db.t4g.micro, single-AZ) to 45 s (large, Multi-AZ)|
 * | cache           | 17–30 s by node count                                  |
 * | queue           | 4–6 s                                                  |
 * | file-storage    | 5 s                                                    |
 * | nosql-database  | 10–12 s                                                |
 * | serverless      | 12 s                                                   |
 * | kubernetes      | 60–80 s by node count                                  |
 * | control-plane   | 38–40 s                                                |
 * | network         | 21–27 s by NAT gateways                                |
 * | tls             | 9–14 s (e-mail validation waits longer)                |
 * | application     | 14–30 s by instances and health check                  |
 */
export function deployPlanOf(resource: DriverResource): DeployPhase[] {
  const phases: (DeployPhase | false)[] = phasesOf(resource);
  return phases.filter((phase): phase is DeployPhase => phase !== false);
}

/** Larger instances take a little longer to come up: xlarge > large > medium > small/micro. */
function sizeSeconds(size: string): number {
  if (size.includes("xlarge")) return 8;
  if (size.includes("large")) return 5;
  if (size.includes("medium")) return 2;
  return 0;
}

function phasesOf(resource: DriverResource): (DeployPhase | false)[] {
  switch (resource.serviceType) {
    case "database": {
      const config = configOf(resource, "database");
      return [
        { name: "Creating DB subnet group", seconds: 2 },
        { name: "Creating DB instance", seconds: 14 + sizeSeconds(config.instanceSize) },
        { name: "Allocating storage", seconds: 3 + Math.min(5, Math.floor(config.storageGb / 500)) },
        config.multiAz && { name: "Creating Multi-AZ standby", seconds: 8 },
        config.backupRetentionDays > 0 && { name: "Backing up", seconds: 3 },
        { name: "Configuring enhanced monitoring", seconds: 2 },
        { name: "Waiting for the instance to become available", seconds: 3 },
      ];
    }
    case "cache": {
      const config = configOf(resource, "cache");
      return [
        { name: "Creating cache subnet group", seconds: 2 },
        {
          name: config.engine === "memcached" ? "Creating cache cluster" : "Creating replication group",
          seconds: 10 + sizeSeconds(config.nodeSize),
        },
        { name: `Creating cache nodes (${config.nodes})`, seconds: 2 + 2 * config.nodes },
        config.encryptionInTransit && { name: "Enabling encryption in transit", seconds: 2 },
        { name: "Waiting for the cluster to become available", seconds: 2 },
      ];
    }
    case "queue": {
      const config = configOf(resource, "queue");
      return [
        config.deadLetterQueue && { name: "Creating dead-letter queue", seconds: 2 },
        { name: config.queueType === "fifo" ? "Creating FIFO queue" : "Creating queue", seconds: 2 },
        config.deadLetterQueue && { name: "Setting redrive policy", seconds: 1 },
        { name: "Applying queue attributes", seconds: 1 },
      ];
    }
    case "file-storage": {
      const config = configOf(resource, "file-storage");
      return [
        { name: "Creating bucket", seconds: 2 },
        { name: config.versioning ? "Enabling versioning" : "Configuring versioning", seconds: 1 },
        {
          name: config.publicAccess ? "Applying public bucket policy" : "Blocking public access",
          seconds: 1,
        },
        { name: "Configuring lifecycle rules", seconds: 1 },
      ];
    }
    case "nosql-database": {
      const config = configOf(resource, "nosql-database");
      return [
        { name: "Creating table", seconds: 3 },
        {
          name: "Waiting for the table to become ACTIVE",
          seconds: 4 + (config.billingMode === "provisioned" ? 2 : 0),
        },
        { name: "Enabling point-in-time recovery", seconds: 2 },
        { name: "Configuring encryption at rest", seconds: 1 },
      ];
    }
    case "serverless":
      return [
        { name: "Creating execution role", seconds: 3 },
        { name: "Uploading function code", seconds: 3 },
        { name: "Creating function", seconds: 3 },
        { name: "Publishing version", seconds: 2 },
        { name: "Creating function URL", seconds: 1 },
      ];
    case "kubernetes": {
      const config = configOf(resource, "kubernetes");
      return [
        { name: "Creating cluster IAM role", seconds: 3 },
        { name: "Creating EKS cluster", seconds: 32 },
        { name: "Creating managed node group", seconds: 12 + Math.min(10, config.minNodes * 2) },
        { name: "Installing add-ons (vpc-cni, coredns, kube-proxy)", seconds: 6 },
        { name: "Waiting for nodes to become Ready", seconds: 6 + Math.min(4, config.minNodes) },
      ];
    }
    case "control-plane": {
      const config = configOf(resource, "control-plane");
      return [
        { name: "Creating control plane", seconds: 26 },
        { name: `Configuring ${config.endpointAccess} endpoint access`, seconds: 3 },
        config.controlPlaneLogging && { name: "Enabling control plane logging", seconds: 2 },
        { name: "Installing platform components", seconds: 7 },
      ];
    }
    case "network": {
      const config = configOf(resource, "network");
      const natGateways = config.natGateways === "single" ? 1 : config.availabilityZones;
      return [
        { name: "Creating VPC", seconds: 2 },
        { name: `Creating subnets in ${config.availabilityZones} availability zones`, seconds: 3 },
        { name: "Creating internet gateway", seconds: 2 },
        { name: "Allocating Elastic IPs", seconds: 1 },
        { name: `Creating NAT gateways (${natGateways})`, seconds: 10 + 2 * natGateways },
        { name: "Configuring route tables", seconds: 2 },
      ];
    }
    case "tls": {
      const config = configOf(resource, "tls");
      return [
        { name: "Requesting certificate", seconds: 2 },
        config.validationMethod === "dns"
          ? { name: "Creating DNS validation records", seconds: 2 }
          : { name: "Sending validation e-mails", seconds: 2 },
        { name: "Pending validation", seconds: config.validationMethod === "dns" ? 4 : 9 },
        { name: "Issuing certificate", seconds: 1 },
      ];
    }
    case "application": {
      const instances = instanceCountOf(resource);
      const check = resource.settings.healthCheck;
      return [
        { name: "Pulling image", seconds: 4 },
        { name: "Creating deployment", seconds: 2 },
        { name: `Starting pods (${instances})`, seconds: 3 + Math.min(8, instances) },
        { name: "Waiting for health checks", seconds: Math.min(10, 2 + check.healthyThreshold * 2) },
        resource.settings.networking.public && {
          name: "Registering targets with the load balancer",
          seconds: 3,
        },
      ];
    }
  }
}
