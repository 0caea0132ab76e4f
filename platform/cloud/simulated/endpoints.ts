import type { CloudProvider } from "#contract/cloud-providers";
import type { DriverResource } from "../driver";
import { configOf } from "../configs";
import { accountIdOf, gcpProjectOf, shortRegion } from "./resource";
import { digits, hexDigits, lowerAlphanumeric, randomFrom } from "./random";

/**
 * Where clients reach a deployed service, in the host-name formats of the provider's managed services (RDS, Cloud
 * SQL, Azure Database; ElastiCache, Memorystore, Azure Cache; SQS, Pub/Sub, Service Bus; ...). The random parts are
 * derived from the service id, so a service keeps its endpoint across redeployments.
 */
export function endpointOf(resource: DriverResource): string | null {
  const { name, region, cloudProvider, environmentName } = resource;
  const random = randomFrom("endpoint", resource.id);
  const account = accountIdOf(environmentName);
  const project = gcpProjectOf(environmentName);
  switch (resource.serviceType) {
    case "database": {
      const { engine } = configOf(resource, "database");
      if (cloudProvider === "GCP") return `${name}.${random.chars(8, hexDigits)}.${region}.sql.goog`;
      if (cloudProvider === "AZURE") return `${name}.${engine}.database.azure.com`;
      return `${name}.${random.chars(12)}.${region}.rds.amazonaws.com`;
    }
    case "cache": {
      const { engine } = configOf(resource, "cache");
      if (cloudProvider === "GCP")
        return `10.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(2, 254)}`;
      if (cloudProvider === "AZURE") return `${name}.redis.cache.windows.net`;
      const cluster = random.chars(6);
      return engine === "memcached"
        ? `${name}.${cluster}.cfg.${shortRegion(region)}.cache.amazonaws.com`
        : `master.${name}.${cluster}.${shortRegion(region)}.cache.amazonaws.com`;
    }
    case "queue": {
      const { queueType } = configOf(resource, "queue");
      if (cloudProvider === "GCP") return `projects/${project}/topics/${name}`;
      if (cloudProvider === "AZURE") return `https://${environmentName}-bus.servicebus.windows.net/${name}`;
      return `https://sqs.${region}.amazonaws.com/${account}/${name}${queueType === "fifo" ? ".fifo" : ""}`;
    }
    case "file-storage": {
      const { bucketName } = configOf(resource, "file-storage");
      if (cloudProvider === "GCP") return `https://storage.googleapis.com/${bucketName}`;
      if (cloudProvider === "AZURE") {
        const storageAccount = `${environmentName.replace(/[^a-z0-9]/g, "")}${random.chars(6)}`.slice(0, 24);
        return `https://${storageAccount}.blob.core.windows.net/${bucketName}`;
      }
      return `https://${bucketName}.s3.${region}.amazonaws.com`;
    }
    case "nosql-database": {
      const { tableName } = configOf(resource, "nosql-database");
      if (cloudProvider === "GCP")
        return `https://firestore.googleapis.com/v1/projects/${project}/databases/${name}`;
      if (cloudProvider === "AZURE") return `https://${name}.documents.azure.com:443/`;
      return `https://dynamodb.${region}.amazonaws.com/${account}/${tableName}`;
    }
    case "serverless":
      if (cloudProvider === "GCP") return `https://${region}-${project}.cloudfunctions.net/${name}`;
      if (cloudProvider === "AZURE")
        return `https://${name}-${random.chars(6)}.azurewebsites.net/api/${name}`;
      return `https://${random.chars(32)}.lambda-url.${region}.on.aws/`;
    case "kubernetes":
    case "control-plane":
      return clusterEndpoint(cloudProvider, name, region, random.chars(32, hexDigits));
    case "application": {
      const { customDomain, public: isPublic, port } = resource.settings.networking;
      if (customDomain) return `https://${customDomain}`;
      if (isPublic) {
        // The environment's internet-facing load balancer routes to it by path (see the load balancer list).
        const host = loadBalancerDnsName({
          cloudProvider,
          region,
          environmentName,
          scheme: "internet-facing",
        });
        return `https://${host}/${name}`;
      }
      return `${name}.${environmentName}.svc.cluster.local:${port}`;
    }
    case "network":
    case "tls":
      return null;
  }
}

function clusterEndpoint(provider: CloudProvider, name: string, region: string, hex: string): string {
  if (provider === "GCP")
    return `https://34.${parseInt(hex.slice(0, 2), 16)}.${parseInt(hex.slice(2, 4), 16)}.${parseInt(hex.slice(4, 6), 16)}`;
  if (provider === "AZURE") return `https://${name}-dns-${hex.slice(0, 8)}.hcp.${region}.azmk8s.io:443`;
  return `https://${hex.toUpperCase()}.gr7.${region}.eks.amazonaws.com`;
}

/**
 * The DNS name of an environment's load balancer: the formats of an AWS Application Load Balancer (`internal-`
 * prefix when internal), an Azure public IP label, or a GCP forwarding rule's nip.io-style name.
 */
export function loadBalancerDnsName({
  cloudProvider,
  region,
  environmentName,
  scheme,
}: {
  cloudProvider: CloudProvider;
  region: string;
  environmentName: string;
  scheme: "internet-facing" | "internal";
}): string {
  const random = randomFrom("load-balancer", environmentName, region, scheme);
  const name = loadBalancerNameOf(environmentName, scheme);
  if (cloudProvider === "AZURE") return `${name}.${region}.cloudapp.azure.com`;
  if (cloudProvider === "GCP") {
    const address =
      scheme === "internal"
        ? `10.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(2, 254)}`
        : `34.${random.int(64, 127)}.${random.int(0, 255)}.${random.int(1, 254)}`;
    return `${name}.${address}.nip.io`;
  }
  const suffix = `${random.int(1, 9)}${random.chars(9, digits)}`;
  return `${scheme === "internal" ? "internal-" : ""}${name}-${suffix}.${region}.elb.amazonaws.com`;
}

/** Load balancer names are at most 32 characters and may not end with a hyphen (AWS's rule). */
export function loadBalancerNameOf(environmentName: string, scheme: "internet-facing" | "internal"): string {
  const base = `${environmentName}-${scheme === "internal" ? "int" : "pub"}`;
  return base.length <= 32
    ? base
    : `${base.slice(0, 27).replace(/-+$/, "")}-${randomFrom(base).chars(4, lowerAlphanumeric)}`;
}

/** A load balancer's id as its provider writes it (an ELBv2 ARN, a GCP forwarding rule, an Azure resource id). */
export function loadBalancerIdOf({
  cloudProvider,
  region,
  environmentName,
  scheme,
}: {
  cloudProvider: CloudProvider;
  region: string;
  environmentName: string;
  scheme: "internet-facing" | "internal";
}): string {
  const name = loadBalancerNameOf(environmentName, scheme);
  const random = randomFrom("load-balancer-id", environmentName, region, scheme);
  if (cloudProvider === "GCP") {
    return `projects/${gcpProjectOf(environmentName)}/regions/${region}/forwardingRules/${name}`;
  }
  if (cloudProvider === "AZURE") {
    const subscription = `${random.chars(8, hexDigits)}-${random.chars(4, hexDigits)}-${random.chars(4, hexDigits)}-${random.chars(4, hexDigits)}-${random.chars(12, hexDigits)}`;
    return `/subscriptions/${subscription}/resourceGroups/${environmentName}/providers/Microsoft.Network/loadBalancers/${name}`;
  }
  return `arn:aws:elasticloadbalancing:${region}:${accountIdOf(environmentName)}:loadbalancer/app/${name}/${random.chars(16, hexDigits)}`;
}
