import type { CloudProvider } from "#contract/cloud-providers";
import type { DriverResource } from "../driver";
import { configOf } from "../configs";
import { accountIdOf, gcpProjectOf } from "./resource";
import { hexDigits, lowerAlphanumeric, randomFrom } from "./random";

/**
 * Every host the simulated cloud names ends here: `.invalid` is reserved by RFC 2606 and never resolves, so a
 * simulated endpoint cannot be mistaken for (or collide with) a real RDS, ELB or Cloud SQL host (issue 26).
 */
export const simulatedDomain = "simulated.invalid";

/** `web.production.simulated.invalid`: the service within its environment, stable across redeployments. */
function simulatedHost(resource: DriverResource): string {
  return `${resource.name}.${resource.environmentName}.${simulatedDomain}`;
}

/**
 * Where clients reach a deployed service: a host (databases, caches, a private application with its port) or a
 * URL (the rest), always under the simulated domain, whatever provider the environment imitates.
 */
export function endpointOf(resource: DriverResource): string | null {
  const host = simulatedHost(resource);
  switch (resource.serviceType) {
    case "database":
    case "cache":
      return host;
    case "file-storage":
      return `https://${host}/${configOf(resource, "file-storage").bucketName}`;
    case "nosql-database":
      return `https://${host}/${configOf(resource, "nosql-database").tableName}`;
    case "queue":
    case "serverless":
    case "kubernetes":
    case "control-plane":
      return `https://${host}`;
    case "application": {
      const { customDomain, public: isPublic, port } = resource.settings.networking;
      // A custom domain is the user's own name for it, not one the simulation invents.
      if (customDomain) return `https://${customDomain}`;
      if (isPublic) {
        // The environment's internet-facing load balancer routes to it by path (see the load balancer list).
        const host = loadBalancerDnsName({
          environmentName: resource.environmentName,
          scheme: "internet-facing",
        });
        return `https://${host}/${resource.name}`;
      }
      return `${host}:${port}`;
    }
    case "network":
    case "tls":
      return null;
  }
}

/** The DNS name of an environment's (simulated) load balancer: `production-pub.simulated.invalid`. */
export function loadBalancerDnsName({
  environmentName,
  scheme,
}: {
  environmentName: string;
  scheme: "internet-facing" | "internal";
}): string {
  return `${loadBalancerNameOf(environmentName, scheme)}.${simulatedDomain}`;
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
