import type { CostEstimate } from "#contract/environments";
import type { ServiceType } from "#contract/service-catalogue";
import type { DriverResource } from "../driver";
import { marketFactors, marketOf } from "../pricing";
import { configOf } from "../configs";

/**
 * The simulated cloud's price catalogue: AWS on-demand list prices in us-east-1 (USD, 730 hours a month), multiplied
 * by the region's market factor (platform/cloud/pricing.ts). Usage-priced services are estimated for a stated
 * workload, named in the line so the user sees the assumption.
 */
export const HOURS_PER_MONTH = 730;

/** RDS (PostgreSQL, MySQL and MariaDB share these prices), per instance-hour, single-AZ. */
export const databaseHourly: Record<string, number> = {
  "db.t4g.micro": 0.016,
  "db.t4g.small": 0.032,
  "db.t4g.medium": 0.065,
  "db.m7g.large": 0.168,
  "db.m7g.xlarge": 0.337,
  "db.r7g.large": 0.239,
};
/** gp3/gp2 storage per GB-month, single-AZ. */
export const DATABASE_STORAGE_GB_MONTH = 0.115;

/** ElastiCache for Redis OSS/memcached per node-hour; Valkey is 20 % cheaper. */
export const cacheHourly: Record<string, number> = {
  "cache.t4g.micro": 0.016,
  "cache.t4g.small": 0.032,
  "cache.t4g.medium": 0.065,
  "cache.m7g.large": 0.158,
  "cache.r7g.large": 0.219,
};
export const VALKEY_DISCOUNT = 0.8;

/** SQS per million requests (the first million a month are free). */
export const queuePerMillion = { standard: 0.4, fifo: 0.5 } as const;
export const QUEUE_ASSUMED_MILLION_REQUESTS = 10;

/** S3 per GB-month by class, for an assumed 100 GB; requests per thousand. */
export const storageGbMonth = { standard: 0.023, "infrequent-access": 0.0125, archive: 0.0036 } as const;
export const STORAGE_ASSUMED_GB = 100;

/** DynamoDB: on-demand per million request units; provisioned per capacity-unit-hour. */
export const dynamodbPrices = {
  readPerMillion: 0.125,
  writePerMillion: 0.625,
  rcuHour: 0.00013,
  wcuHour: 0.00065,
};
export const DYNAMODB_ASSUMED_MILLION_READS = 10;
export const DYNAMODB_ASSUMED_MILLION_WRITES = 2;

/** Lambda: per million requests and per GB-second (x86), for 1 million requests of 200 ms. */
export const lambdaPrices = { perMillionRequests: 0.2, perGbSecond: 0.0000166667 };
export const LAMBDA_ASSUMED_MILLION_REQUESTS = 1;
export const LAMBDA_ASSUMED_DURATION_SECONDS = 0.2;

/** EKS control plane per cluster-hour, EC2 node prices per hour, 20 GB gp3 root volume per node. */
export const EKS_CONTROL_PLANE_MONTH = 73;
export const nodeHourly: Record<string, number> = {
  "t3.medium": 0.0416,
  "t3.large": 0.0832,
  "m7i.large": 0.1008,
  "m7i.xlarge": 0.2016,
  "c7i.xlarge": 0.1785,
};
export const NODE_VOLUME_MONTH = 20 * 0.08;

/** NAT gateway per hour (0.045 × 730) and the public IPv4 address each one holds. */
export const NAT_GATEWAY_MONTH = 32.85;
export const PUBLIC_IPV4_MONTH = 3.65;

/** Fargate (Linux/x86) per vCPU-hour and GB-hour; EBS gp3 per GB-month for volumes. */
export const fargatePrices = { vcpuHour: 0.04048, gbHour: 0.004445 };
export const VOLUME_GB_MONTH = 0.08;

const cents = (value: number) => Math.round(value * 100) / 100;
type Line = { item: string; monthlyCost: number };

/** Lines for a type before the market factor. */
function linesOf(resource: Pick<DriverResource, "serviceType" | "config" | "settings">): Line[] {
  const type: ServiceType = resource.serviceType;
  switch (type) {
    case "database": {
      const config = configOf(resource, "database");
      const azs = config.multiAz ? 2 : 1;
      const hourly = databaseHourly[config.instanceSize] ?? 0;
      return [
        {
          item: `DB instance ${config.instanceSize}${config.multiAz ? " (Multi-AZ)" : ""}`,
          monthlyCost: hourly * HOURS_PER_MONTH * azs,
        },
        {
          item: `Storage ${config.storageGb} GB${config.multiAz ? " (Multi-AZ)" : ""}`,
          monthlyCost: config.storageGb * DATABASE_STORAGE_GB_MONTH * azs,
        },
      ];
    }
    case "cache": {
      const config = configOf(resource, "cache");
      const hourly = (cacheHourly[config.nodeSize] ?? 0) * (config.engine === "valkey" ? VALKEY_DISCOUNT : 1);
      return [
        {
          item: `Cache nodes ${config.nodes} × ${config.nodeSize}`,
          monthlyCost: hourly * HOURS_PER_MONTH * config.nodes,
        },
      ];
    }
    case "queue": {
      const config = configOf(resource, "queue");
      const lines = [
        {
          item: `Requests (${QUEUE_ASSUMED_MILLION_REQUESTS} million a month, first million free)`,
          monthlyCost: (QUEUE_ASSUMED_MILLION_REQUESTS - 1) * queuePerMillion[config.queueType],
        },
      ];
      if (config.deadLetterQueue)
        lines.push({ item: "Dead-letter queue (within the free tier)", monthlyCost: 0 });
      return lines;
    }
    case "file-storage": {
      const config = configOf(resource, "file-storage");
      const storage = STORAGE_ASSUMED_GB * storageGbMonth[config.storageClass];
      return [
        { item: `Storage ${STORAGE_ASSUMED_GB} GB (${config.storageClass})`, monthlyCost: storage },
        ...(config.versioning
          ? [{ item: "Noncurrent versions (about 20 % more)", monthlyCost: storage * 0.2 }]
          : []),
        { item: "Requests (1 million GET, 100,000 PUT)", monthlyCost: 1000 * 0.0004 + 100 * 0.005 },
      ];
    }
    case "nosql-database": {
      const config = configOf(resource, "nosql-database");
      if (config.billingMode === "on-demand") {
        return [
          {
            item: `Read request units (${DYNAMODB_ASSUMED_MILLION_READS} million)`,
            monthlyCost: DYNAMODB_ASSUMED_MILLION_READS * dynamodbPrices.readPerMillion,
          },
          {
            item: `Write request units (${DYNAMODB_ASSUMED_MILLION_WRITES} million)`,
            monthlyCost: DYNAMODB_ASSUMED_MILLION_WRITES * dynamodbPrices.writePerMillion,
          },
        ];
      }
      return [
        {
          item: `Read capacity ${config.readCapacityUnits} RCU`,
          monthlyCost: config.readCapacityUnits * dynamodbPrices.rcuHour * HOURS_PER_MONTH,
        },
        {
          item: `Write capacity ${config.writeCapacityUnits} WCU`,
          monthlyCost: config.writeCapacityUnits * dynamodbPrices.wcuHour * HOURS_PER_MONTH,
        },
      ];
    }
    case "serverless": {
      const config = configOf(resource, "serverless");
      const gbSeconds =
        LAMBDA_ASSUMED_MILLION_REQUESTS *
        1_000_000 *
        LAMBDA_ASSUMED_DURATION_SECONDS *
        (config.memoryMb / 1024);
      return [
        {
          item: `Requests (${LAMBDA_ASSUMED_MILLION_REQUESTS} million)`,
          monthlyCost: LAMBDA_ASSUMED_MILLION_REQUESTS * lambdaPrices.perMillionRequests,
        },
        {
          item: `Compute (${config.memoryMb} MB × 200 ms per request)`,
          monthlyCost: gbSeconds * lambdaPrices.perGbSecond,
        },
      ];
    }
    case "kubernetes": {
      const config = configOf(resource, "kubernetes");
      return [
        { item: "EKS control plane", monthlyCost: EKS_CONTROL_PLANE_MONTH },
        {
          item: `Nodes ${config.minNodes} × ${config.nodeInstanceType}`,
          monthlyCost: (nodeHourly[config.nodeInstanceType] ?? 0) * HOURS_PER_MONTH * config.minNodes,
        },
        { item: `Node volumes ${config.minNodes} × 20 GB`, monthlyCost: NODE_VOLUME_MONTH * config.minNodes },
      ];
    }
    case "control-plane":
      return [{ item: "Control plane", monthlyCost: EKS_CONTROL_PLANE_MONTH }];
    case "network": {
      const config = configOf(resource, "network");
      const gateways = config.natGateways === "single" ? 1 : config.availabilityZones;
      return [
        {
          item: `NAT gateways ${gateways} × $${NAT_GATEWAY_MONTH}`,
          monthlyCost: gateways * NAT_GATEWAY_MONTH,
        },
        { item: `Public IPv4 addresses (${gateways})`, monthlyCost: gateways * PUBLIC_IPV4_MONTH },
      ];
    }
    case "tls":
      return [{ item: "Public certificate", monthlyCost: 0 }];
    case "application": {
      const { hardware, scaling, volumes } = resource.settings;
      const vcpu = Number(hardware.cpu);
      const memoryGb = hardware.memoryMb / 1024;
      const instances = scaling.minInstances;
      const perInstance = (vcpu * fargatePrices.vcpuHour + memoryGb * fargatePrices.gbHour) * HOURS_PER_MONTH;
      const volumeGb = volumes.reduce((sum, volume) => sum + volume.sizeGb, 0);
      return [
        {
          item: `Compute ${instances} × (${hardware.cpu} vCPU, ${hardware.memoryMb} MB)`,
          monthlyCost: perInstance * instances,
        },
        ...(volumeGb > 0
          ? [
              {
                item: `Volumes ${volumeGb} GB`,
                monthlyCost: volumeGb * VOLUME_GB_MONTH * Math.max(1, instances),
              },
            ]
          : []),
      ];
    }
  }
}

export function priceOf(
  resource: Pick<DriverResource, "serviceType" | "config" | "settings" | "cloudProvider" | "region">,
): CostEstimate {
  // A container host is the user's own machine (issue 26): no cloud bills for what runs there.
  if (resource.cloudProvider === "CONTAINERS") {
    const breakdown = [{ item: "Runs on the container host: no cloud charge", monthlyCost: 0 }];
    return { currency: "USD", monthlyCost: 0, breakdown };
  }
  const market = marketOf(resource.cloudProvider, resource.region);
  const factor = market ? marketFactors[market] : 1;
  const breakdown = linesOf(resource).map(({ item, monthlyCost }) => ({
    item,
    monthlyCost: cents(monthlyCost * factor),
  }));
  return {
    currency: "USD",
    monthlyCost: cents(breakdown.reduce((sum, line) => sum + line.monthlyCost, 0)),
    breakdown,
  };
}
