import type { DriverResource } from "../driver";
import { configOf } from "../configs";
import { instanceCountOf } from "./resource";
import { hexDigits, kubernetesAlphabet, randomFrom } from "./random";

/**
 * Pod (or instance) names as the software running them would show. Stateless workloads are Deployments: each
 * rollout gets a new pod-template hash and new suffixes (`web-7d9f8c6b5-x2k4q`), derived from (id, deployNumber).
 * Stateful stores are StatefulSets whose ordinal names survive a rollout (`orders-db-0`, `orders-db-1` for the
 * Multi-AZ standby), as in Kubernetes. Cluster nodes are EC2-style host names, network interfaces `eni-...` ids.
 */
export function podNamesOf(resource: DriverResource, deployNumber: number): string[] {
  const random = randomFrom("pods", resource.id, deployNumber);
  const replicaSet = `${resource.name}-${random.chars(random.int(9, 10), kubernetesAlphabet)}`;
  const deploymentPods = (count: number, prefix = replicaSet) =>
    Array.from({ length: count }, () => `${prefix}-${random.chars(5, kubernetesAlphabet)}`);
  const statefulSet = (count: number) =>
    Array.from({ length: count }, (_, ordinal) => `${resource.name}-${ordinal}`);

  switch (resource.serviceType) {
    case "application":
      return deploymentPods(instanceCountOf(resource));
    case "database":
      return statefulSet(configOf(resource, "database").multiAz ? 2 : 1);
    case "cache":
      return statefulSet(configOf(resource, "cache").nodes);
    case "queue":
    case "file-storage":
    case "nosql-database":
    case "tls":
      // The managed service's agent that reports its activity into the environment.
      return deploymentPods(1);
    case "serverless":
      // Lambda execution environments; two warm ones.
      return deploymentPods(2);
    case "control-plane":
      return deploymentPods(2, `${resource.name}-apiserver-${random.chars(9, kubernetesAlphabet)}`);
    case "kubernetes": {
      const { minNodes } = configOf(resource, "kubernetes");
      return Array.from({ length: Math.min(minNodes, 20) }, () => {
        const host = `ip-10-0-${random.int(0, 95)}-${random.int(2, 254)}`;
        return resource.region === "us-east-1"
          ? `${host}.ec2.internal`
          : `${host}.${resource.region}.compute.internal`;
      });
    }
    case "network": {
      const { availabilityZones } = configOf(resource, "network");
      return Array.from({ length: availabilityZones }, () => `eni-0${random.chars(16, hexDigits)}`);
    }
  }
}
