import type { KubernetesCluster, KubernetesCost } from "#contract/cost";
import type { Database } from "../db/index";
import { fargatePrices } from "../cloud/simulated/prices";
import {
  kubernetesUsage,
  roundCents,
  windowRange,
  type CostQueryInput,
  type CostScope,
  type KubernetesUsageRow,
} from "./queries";

/**
 * Kubernetes allocation (decision 035), in the manner of OpenCost. The platform runs no agent inside clusters, so
 * what runs where is derived, deterministically, from what the environment runs:
 * - the clusters are the environment's kubernetes and control-plane services; their capacity is their nodes'
 *   vCPU and memory (a control plane has none: all its cost is idle);
 * - each application of the environment runs as a Deployment, in the namespace named after the environment, on one
 *   of the environment's clusters with nodes (chosen by a hash of its name, so it stays put);
 * - every cluster runs the system workloads of kube-system (kube-proxy and aws-node on every node, two CoreDNS);
 * - requests are the applications' instances × their vCPU and memory, hour by hour; use is the simulated metrics'
 *   typical load of each.
 * The cluster's cost is split into a price per vCPU-hour and per GB-hour in the ratio of Fargate's prices; a
 * workload costs what it requests at those prices (scaled down when requests exceed capacity), and idle is what
 * no workload requested. Efficiency is used cost over requested cost (over the cluster's cost for a cluster).
 */

type SystemWorkload = {
  name: string;
  kind: "Deployment" | "DaemonSet";
  /** Per node for a DaemonSet, in all for a Deployment. */
  replicas: number;
  cpu: number;
  memoryGb: number;
  usedShare: number;
};
const systemWorkloads: SystemWorkload[] = [
  { name: "kube-proxy", kind: "DaemonSet", replicas: 1, cpu: 0.1, memoryGb: 0.125, usedShare: 0.3 },
  { name: "aws-node", kind: "DaemonSet", replicas: 1, cpu: 0.025, memoryGb: 0.0625, usedShare: 0.5 },
  { name: "coredns", kind: "Deployment", replicas: 2, cpu: 0.1, memoryGb: 0.07, usedShare: 0.25 },
];
export const SYSTEM_NAMESPACE = "kube-system";

/** A stable small hash of a name (FNV-1a), to place an application on one of several clusters. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

type Workload = {
  name: string;
  namespace: string;
  kind: "Deployment" | "DaemonSet";
  resourceId: string | null;
  replicaHours: number;
  cpuHours: number;
  memoryGbHours: number;
  cpuUsedHours: number;
  memoryUsedGbHours: number;
};

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

function allocate(cluster: KubernetesUsageRow, workloads: Workload[]): KubernetesCluster {
  const hours = cluster.hours || 1;
  const cpuWeight = cluster.cpuHours * fargatePrices.vcpuHour;
  const memoryWeight = cluster.memoryGbHours * fargatePrices.gbHour;
  const weights = cpuWeight + memoryWeight;
  const cpuPrice = weights > 0 ? (cluster.cost * (cpuWeight / weights)) / cluster.cpuHours : 0;
  const memoryPrice = weights > 0 ? (cluster.cost * (memoryWeight / weights)) / cluster.memoryGbHours : 0;
  const priced = workloads.map((workload) => ({
    workload,
    requested: workload.cpuHours * cpuPrice + workload.memoryGbHours * memoryPrice,
    used: workload.cpuUsedHours * cpuPrice + workload.memoryUsedGbHours * memoryPrice,
  }));
  const requestedTotal = priced.reduce((sum, entry) => sum + entry.requested, 0);
  // Requests beyond capacity cannot cost more than the cluster: they share it.
  const scale = requestedTotal > cluster.cost && requestedTotal > 0 ? cluster.cost / requestedTotal : 1;
  const namespaces = new Map<string, KubernetesCluster["namespaces"][number]>();
  let requestedCost = 0;
  let usedCost = 0;
  for (const { workload, requested, used } of priced) {
    const entry = {
      name: workload.name,
      kind: workload.kind,
      resourceId: workload.resourceId,
      replicas: Math.round((workload.replicaHours / hours) * 10) / 10,
      cpuRequested: round3(workload.cpuHours / hours),
      memoryGbRequested: round3(workload.memoryGbHours / hours),
      cpuUsed: round3(workload.cpuUsedHours / hours),
      memoryGbUsed: round3(workload.memoryUsedGbHours / hours),
      requestedCost: roundCents(requested * scale),
      usedCost: roundCents(used * scale),
      efficiency: percent(used, requested),
    };
    requestedCost += requested * scale;
    usedCost += used * scale;
    const namespace = namespaces.get(workload.namespace) ?? {
      name: workload.namespace,
      cpuRequested: 0,
      memoryGbRequested: 0,
      cpuUsed: 0,
      memoryGbUsed: 0,
      requestedCost: 0,
      usedCost: 0,
      efficiency: 0,
      workloads: [],
    };
    namespace.workloads.push(entry);
    namespaces.set(workload.namespace, namespace);
  }
  const namespaceList = [...namespaces.values()].map((namespace) => {
    const sumOf = (pick: (entry: (typeof namespace.workloads)[number]) => number) =>
      namespace.workloads.reduce((sum, entry) => sum + pick(entry), 0);
    const requested = sumOf((entry) => entry.requestedCost);
    const used = sumOf((entry) => entry.usedCost);
    return {
      ...namespace,
      cpuRequested: round3(sumOf((entry) => entry.cpuRequested)),
      memoryGbRequested: round3(sumOf((entry) => entry.memoryGbRequested)),
      cpuUsed: round3(sumOf((entry) => entry.cpuUsed)),
      memoryGbUsed: round3(sumOf((entry) => entry.memoryGbUsed)),
      requestedCost: roundCents(requested),
      usedCost: roundCents(used),
      efficiency: percent(used, requested),
      workloads: namespace.workloads.sort(
        (a, b) => b.requestedCost - a.requestedCost || a.name.localeCompare(b.name),
      ),
    };
  });
  return {
    resourceId: cluster.resourceId,
    name: cluster.name,
    serviceType: cluster.serviceType === "control-plane" ? "control-plane" : "kubernetes",
    environmentId: cluster.environmentId,
    environmentName: cluster.environmentName,
    region: cluster.region,
    cost: roundCents(cluster.cost),
    cpuCapacity: round3(cluster.cpuHours / hours),
    memoryGbCapacity: round3(cluster.memoryGbHours / hours),
    requestedCost: roundCents(requestedCost),
    usedCost: roundCents(usedCost),
    idleCost: roundCents(Math.max(0, cluster.cost - requestedCost)),
    efficiency: percent(usedCost, cluster.cost),
    namespaces: namespaceList.sort(
      (a, b) => b.requestedCost - a.requestedCost || a.name.localeCompare(b.name),
    ),
  };
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The cluster an application runs on: one of the clusters with nodes, ordered by name then id, chosen by a hash of
 * the application's name (so it stays put). The infrastructure map (platform/services/environment-map.ts) shows
 * the same placement.
 */
export function clusterOf<T extends { name: string; resourceId: string }>(
  applicationName: string,
  clustersWithNodes: readonly T[],
): T | undefined {
  const ordered = [...clustersWithNodes].sort(
    (a, b) => a.name.localeCompare(b.name) || a.resourceId.localeCompare(b.resourceId),
  );
  return ordered.length ? ordered[hashOf(applicationName) % ordered.length] : undefined;
}

/** The workloads each cluster of one environment runs, by cluster id. */
function placeWorkloads(clusters: KubernetesUsageRow[], applications: KubernetesUsageRow[]) {
  const placed = new Map<string, Workload[]>(clusters.map((cluster) => [cluster.resourceId, []]));
  const withNodes = clusters
    .filter((cluster) => cluster.cpuHours > 0)
    .sort((a, b) => a.name.localeCompare(b.name) || a.resourceId.localeCompare(b.resourceId));
  for (const cluster of withNodes) {
    placed.get(cluster.resourceId)?.push(
      ...systemWorkloads.map((system) => {
        // A DaemonSet runs on every node the cluster ran; a Deployment runs its replicas while the cluster runs.
        const replicaHours =
          system.kind === "DaemonSet"
            ? cluster.replicaHours * system.replicas
            : cluster.hours * system.replicas;
        return {
          name: system.name,
          namespace: SYSTEM_NAMESPACE,
          kind: system.kind,
          resourceId: null,
          replicaHours,
          cpuHours: replicaHours * system.cpu,
          memoryGbHours: replicaHours * system.memoryGb,
          cpuUsedHours: replicaHours * system.cpu * system.usedShare,
          memoryUsedGbHours: replicaHours * system.memoryGb * system.usedShare,
        };
      }),
    );
  }
  if (!withNodes.length) return placed;
  for (const application of applications) {
    const cluster = clusterOf(application.name, withNodes);
    if (!cluster) continue;
    placed.get(cluster.resourceId)?.push({
      name: application.name,
      namespace: application.environmentName,
      kind: "Deployment",
      resourceId: application.resourceId,
      replicaHours: application.replicaHours,
      cpuHours: application.cpuHours,
      memoryGbHours: application.memoryGbHours,
      cpuUsedHours: application.cpuUsedHours,
      memoryUsedGbHours: application.memoryUsedGbHours,
    });
  }
  return placed;
}

export async function kubernetesCost(
  db: Database,
  scope: CostScope,
  query: CostQueryInput,
  now: Date,
): Promise<KubernetesCost> {
  const range = windowRange(query, now);
  const rows = await kubernetesUsage(db, scope, range);
  const clusters: KubernetesCluster[] = [];
  const environmentIds = [...new Set(rows.map((row) => row.environmentId))];
  for (const environmentId of environmentIds) {
    const inEnvironment = rows.filter((row) => row.environmentId === environmentId);
    const environmentClusters = inEnvironment.filter((row) => row.serviceType !== "application");
    const applications = inEnvironment.filter((row) => row.serviceType === "application");
    const placed = placeWorkloads(environmentClusters, applications);
    for (const cluster of environmentClusters)
      clusters.push(allocate(cluster, placed.get(cluster.resourceId) ?? []));
  }
  clusters.sort((a, b) => b.cost - a.cost || a.name.localeCompare(b.name));
  return {
    window: range,
    total: roundCents(clusters.reduce((sum, cluster) => sum + cluster.cost, 0)),
    idleCost: roundCents(clusters.reduce((sum, cluster) => sum + cluster.idleCost, 0)),
    clusters,
  };
}
