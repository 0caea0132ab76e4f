import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/index";
import { organizations, usageSegments } from "../db/schema";
import type { CloudDriver, DriverResource } from "../cloud/driver";
import { profileOf } from "../cloud/simulated/metrics";
import { configOf } from "../cloud/configs";
import type { EnvironmentRow } from "../environments/records";

/**
 * Usage segments (decision 035): what a service costs from a moment on. The engine calls `recordUsage` in the
 * transaction where a deployment, relaunch or settings change (scaling, hardware) completes, and `endUsage` in the
 * one that deletes the service, so what accrues changes at that very moment. The accrual worker (./accrual.ts)
 * prices the hours from them.
 */

export const SIMULATED_CLOUD_ACCOUNT = "simulated";

/** vCPU and GB of memory of the simulated cloud's Kubernetes node types (EC2's figures). */
export const nodeCapacity: Record<string, { cpu: number; memoryGb: number }> = {
  "t3.medium": { cpu: 2, memoryGb: 4 },
  "t3.large": { cpu: 2, memoryGb: 8 },
  "m7i.large": { cpu: 2, memoryGb: 8 },
  "m7i.xlarge": { cpu: 4, memoryGb: 16 },
  "c7i.xlarge": { cpu: 4, memoryGb: 8 },
};

export type UsageShape = {
  size: string;
  replicas: number;
  /** Per replica (application instance, cluster node); zero for types without a Kubernetes meaning. */
  cpu: number;
  memoryGb: number;
  cpuUsed: number;
  memoryUsedGb: number;
};

/** How big a service runs: its size in words, how many of it, and per replica what it requests and typically uses. */
export function usageShapeOf(resource: DriverResource): UsageShape {
  const none = { cpu: 0, memoryGb: 0, cpuUsed: 0, memoryUsedGb: 0 };
  switch (resource.serviceType) {
    case "application": {
      const { hardware, scaling } = resource.settings;
      const cpu = Number(hardware.cpu);
      const memoryGb = hardware.memoryMb / 1024;
      // The simulated metrics' typical load: what the monitor tab shows on average.
      const profile = profileOf(resource);
      return {
        size: `${hardware.cpu} vCPU, ${hardware.memoryMb} MB`,
        replicas: scaling.minInstances,
        cpu,
        memoryGb,
        cpuUsed: (cpu * profile.cpu) / 100,
        memoryUsedGb: (memoryGb * profile.memory) / 100,
      };
    }
    case "kubernetes": {
      const config = configOf(resource, "kubernetes");
      const capacity = nodeCapacity[config.nodeInstanceType] ?? { cpu: 0, memoryGb: 0 };
      return {
        size: config.nodeInstanceType,
        replicas: config.minNodes,
        ...capacity,
        cpuUsed: 0,
        memoryUsedGb: 0,
      };
    }
    case "database": {
      const config = configOf(resource, "database");
      return { size: config.instanceSize, replicas: config.multiAz ? 2 : 1, ...none };
    }
    case "cache": {
      const config = configOf(resource, "cache");
      return { size: config.nodeSize, replicas: config.nodes, ...none };
    }
    case "queue":
      return { size: configOf(resource, "queue").queueType, replicas: 1, ...none };
    case "file-storage":
      return { size: configOf(resource, "file-storage").storageClass, replicas: 1, ...none };
    case "nosql-database":
      return { size: configOf(resource, "nosql-database").billingMode, replicas: 1, ...none };
    case "serverless":
      return { size: `${configOf(resource, "serverless").memoryMb} MB`, replicas: 1, ...none };
    case "network": {
      const config = configOf(resource, "network");
      const gateways = config.natGateways === "single" ? 1 : config.availabilityZones;
      return { size: `${gateways} NAT gateway${gateways === 1 ? "" : "s"}`, replicas: 1, ...none };
    }
    case "control-plane":
      return { size: "Control plane", replicas: 1, ...none };
    case "tls":
      return { size: "Public certificate", replicas: 1, ...none };
  }
}

export type NewSegment = typeof usageSegments.$inferInsert;

/** The segment a service starts at `startedAt`, priced from the driver's catalogue. */
export function segmentOf(
  driver: Pick<CloudDriver, "price">,
  resource: DriverResource,
  {
    organizationId,
    environment,
  }: { organizationId: string; environment: Pick<EnvironmentRow, "id" | "name" | "cloudConnectionId"> },
  startedAt: Date,
): NewSegment {
  return {
    organizationId,
    environmentId: environment.id,
    environmentName: environment.name,
    resourceId: resource.id,
    serviceName: resource.name,
    serviceType: resource.serviceType,
    cloudProvider: resource.cloudProvider,
    region: resource.region,
    cloudAccount: environment.cloudConnectionId ?? SIMULATED_CLOUD_ACCOUNT,
    ...usageShapeOf(resource),
    monthlyCost: driver.price(resource).monthlyCost,
    startedAt,
    endedAt: null,
  };
}

/** Ends the service's running segment at `now` (nothing when none runs). */
export async function endUsage(tx: Database, resourceId: string, now: Date): Promise<void> {
  await tx
    .update(usageSegments)
    .set({ endedAt: now })
    .where(and(eq(usageSegments.resourceId, resourceId), isNull(usageSegments.endedAt)));
}

/** From `now` on the service accrues at its current size and price: the running segment ends, a new one starts. */
export async function recordUsage(
  tx: Database,
  driver: Pick<CloudDriver, "price">,
  { resource, environment }: { resource: DriverResource; environment: EnvironmentRow },
  now: Date,
): Promise<void> {
  const [organization] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.tenantId, environment.tenantId));
  if (!organization) return;
  await endUsage(tx, resource.id, now);
  await tx
    .insert(usageSegments)
    .values(segmentOf(driver, resource, { organizationId: organization.id, environment }, now));
}
