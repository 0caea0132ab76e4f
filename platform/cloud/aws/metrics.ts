import type { Dimension } from "@aws-sdk/client-cloudwatch";
import {
  metricNames,
  metricRanges,
  metricUnits,
  type MetricRange,
  type ServiceType,
} from "#contract/service-catalogue";
import { type Metrics } from "#contract/services";
import type { AwsClients } from "./clients";

/**
 * The monitoring tab of a service in AWS (issue 14): CloudWatch GetMetricData over the metrics AWS publishes for
 * what the service's provisioner created, mapped onto the product's series. A metric AWS publishes nothing for
 * (the memory of a Lambda function, the latency of a queue) is no series of the service, rather than invented. Dimensions come
 * from the service's outputs and cloud state (ARNs, names), so a service not deployed yet has no series.
 */

type MetricName = (typeof metricNames)[number];

/** How a CloudWatch value becomes the series' unit (%, per minute, ms). */
type Conversion = "as-is" | "per-minute" | "seconds-to-ms";

type MetricQuery = {
  metric: MetricName;
  namespace: string;
  name: string;
  stat: "Average" | "Sum" | "Maximum";
  dimensions: Record<string, string>;
  conversion: Conversion;
};

/** The last segment of an ARN (`…:db:orders-1a2b3c4d` → `orders-1a2b3c4d`, `…/web` → `web`). */
const lastOf = (arn: string | undefined, separator: ":" | "/") => arn?.split(separator).at(-1) ?? "";
/** What an ARN names after its account (`…:123456789012:targetgroup/web/73e2d6bc` → `targetgroup/web/73e2d6bc`). */
const resourceOf = (arn: string | undefined) => arn?.split(":").slice(5).join(":") ?? "";

type Values = Readonly<Record<string, string>>;

const queryBuilders: Partial<Record<ServiceType, (outputs: Values, state: Values) => MetricQuery[]>> = {
  application: (outputs, state) => {
    const ecs = {
      ClusterName: lastOf(outputs.clusterArn ?? state.clusterArn, "/"),
      ServiceName: lastOf(outputs.serviceArn ?? state.serviceArn, "/"),
    };
    // ELB's dimension values: `app/name/id` of the load balancer, `targetgroup/name/id` of the target group.
    const targetGroup = {
      LoadBalancer: resourceOf(state.loadBalancerArn).replace(/^loadbalancer\//, ""),
      TargetGroup: resourceOf(state.targetGroupArn),
    };
    return [
      {
        metric: "cpu",
        namespace: "AWS/ECS",
        name: "CPUUtilization",
        stat: "Average",
        dimensions: ecs,
        conversion: "as-is",
      },
      {
        metric: "memory",
        namespace: "AWS/ECS",
        name: "MemoryUtilization",
        stat: "Average",
        dimensions: ecs,
        conversion: "as-is",
      },
      {
        metric: "requests",
        namespace: "AWS/ApplicationELB",
        name: "RequestCount",
        stat: "Sum",
        dimensions: targetGroup,
        conversion: "per-minute",
      },
      {
        metric: "errors",
        namespace: "AWS/ApplicationELB",
        name: "HTTPCode_Target_5XX_Count",
        stat: "Sum",
        dimensions: targetGroup,
        conversion: "per-minute",
      },
      {
        metric: "latency",
        namespace: "AWS/ApplicationELB",
        name: "TargetResponseTime",
        stat: "Average",
        dimensions: targetGroup,
        conversion: "seconds-to-ms",
      },
    ];
  },
  serverless: (outputs) => {
    const dimensions = { FunctionName: outputs.functionName ?? "" };
    return [
      {
        metric: "requests",
        namespace: "AWS/Lambda",
        name: "Invocations",
        stat: "Sum",
        dimensions,
        conversion: "per-minute",
      },
      {
        metric: "errors",
        namespace: "AWS/Lambda",
        name: "Errors",
        stat: "Sum",
        dimensions,
        conversion: "per-minute",
      },
      {
        metric: "latency",
        namespace: "AWS/Lambda",
        name: "Duration",
        stat: "Average",
        dimensions,
        conversion: "as-is",
      },
    ];
  },
  database: (outputs) => {
    const dimensions = { DBInstanceIdentifier: lastOf(outputs.dbInstanceArn, ":") };
    return [
      {
        metric: "cpu",
        namespace: "AWS/RDS",
        name: "CPUUtilization",
        stat: "Average",
        dimensions,
        conversion: "as-is",
      },
      {
        metric: "latency",
        namespace: "AWS/RDS",
        name: "ReadLatency",
        stat: "Average",
        dimensions,
        conversion: "seconds-to-ms",
      },
    ];
  },
  cache: (outputs) => {
    // Redis and Valkey: the replication group's primary node (its first member); Memcached: the cluster.
    const dimensions = outputs.replicationGroupArn
      ? { CacheClusterId: `${lastOf(outputs.replicationGroupArn, ":")}-001` }
      : { CacheClusterId: lastOf(outputs.cacheClusterArn, ":") };
    return [
      {
        metric: "cpu",
        namespace: "AWS/ElastiCache",
        name: "CPUUtilization",
        stat: "Average",
        dimensions,
        conversion: "as-is",
      },
      {
        metric: "memory",
        namespace: "AWS/ElastiCache",
        name: "DatabaseMemoryUsagePercentage",
        stat: "Average",
        dimensions,
        conversion: "as-is",
      },
    ];
  },
  queue: (outputs) => {
    const dimensions = { QueueName: lastOf(outputs.queueUrl, "/") };
    return [
      {
        metric: "requests",
        namespace: "AWS/SQS",
        name: "NumberOfMessagesSent",
        stat: "Sum",
        dimensions,
        conversion: "per-minute",
      },
    ];
  },
  "nosql-database": (outputs) => [
    {
      metric: "latency",
      namespace: "AWS/DynamoDB",
      name: "SuccessfulRequestLatency",
      stat: "Average",
      dimensions: { TableName: outputs.tableName ?? "", Operation: "GetItem" },
      conversion: "as-is",
    },
  ],
  // Request metrics exist once the bucket has the EntireBucket metrics configuration; until then, empty.
  "file-storage": (outputs) => {
    const dimensions = { BucketName: outputs.bucketName ?? "", FilterId: "EntireBucket" };
    return [
      {
        metric: "requests",
        namespace: "AWS/S3",
        name: "AllRequests",
        stat: "Sum",
        dimensions,
        conversion: "per-minute",
      },
      {
        metric: "errors",
        namespace: "AWS/S3",
        name: "5xxErrors",
        stat: "Sum",
        dimensions,
        conversion: "per-minute",
      },
      {
        metric: "latency",
        namespace: "AWS/S3",
        name: "TotalRequestLatency",
        stat: "Average",
        dimensions,
        conversion: "as-is",
      },
    ];
  },
};

/** What the metrics of a deployed service are queried by: its type and what its provisioner recorded. */
export type DeployedService = {
  serviceType: string;
  cloudOutputs: Record<string, string> | null;
  cloudState: Record<string, string> | null;
};

/** The queries of a service's series; none before it was deployed (its dimensions are not known yet). */
export function metricQueriesOf(row: DeployedService): MetricQuery[] {
  const outputs = row.cloudOutputs;
  if (!outputs) return [];
  const queries = queryBuilders[row.serviceType as ServiceType]?.(outputs, row.cloudState ?? {}) ?? [];
  // A dimension without a value would match nothing (or, in CloudWatch, something else): leave the series out.
  return queries.filter((query) => Object.values(query.dimensions).every(Boolean));
}

/** The series AWS publishes for a type (a queue has no CPU, a network nothing): the ones its queries fill. */
export function metricsOfType(serviceType: string): MetricName[] {
  const queries = queryBuilders[serviceType as ServiceType]?.({}, {}) ?? [];
  return metricNames.filter((metric) => queries.some((query) => query.metric === metric));
}

/** CloudWatch's periods are whole minutes (at standard resolution): the step rounded to one, at least 60 s. */
export const periodOf = (step: number) => Math.max(60, Math.round(step / 60) * 60);

const convert = (value: number, conversion: Conversion, period: number) => {
  const converted =
    conversion === "per-minute"
      ? value / (period / 60)
      : conversion === "seconds-to-ms"
        ? value * 1000
        : value;
  return Math.round(converted * 100) / 100;
};

/**
 * The series AWS publishes for the service's type over `range` ending at `now`, one point per period that has
 * data: a series stays empty until CloudWatch has a datapoint (the page says "no data yet").
 */
export async function cloudWatchMetrics(
  aws: AwsClients,
  row: DeployedService,
  range: MetricRange,
  step: number,
  now: Date,
): Promise<Metrics> {
  const period = periodOf(step);
  const queries = metricQueriesOf(row);
  const points = new Map<string, { at: string; value: number }[]>();
  if (queries.length) {
    const client = await aws.cloudWatch();
    const sdk = await import("@aws-sdk/client-cloudwatch");
    const end = new Date(Math.floor(now.getTime() / 1000) * 1000);
    let nextToken: string | undefined;
    do {
      const answer = await client.send(
        new sdk.GetMetricDataCommand({
          StartTime: new Date(end.getTime() - metricRanges[range] * 1000),
          EndTime: end,
          ScanBy: "TimestampAscending",
          NextToken: nextToken,
          MetricDataQueries: queries.map((query, index) => ({
            Id: `m${index}`,
            ReturnData: true,
            MetricStat: {
              Metric: {
                Namespace: query.namespace,
                MetricName: query.name,
                Dimensions: Object.entries(query.dimensions).map(
                  ([Name, Value]): Dimension => ({ Name, Value }),
                ),
              },
              Period: period,
              Stat: query.stat,
            },
          })),
        }),
      );
      for (const result of answer.MetricDataResults ?? []) {
        const query = queries[Number(result.Id?.slice(1))];
        if (!query) continue;
        const series = points.get(query.metric) ?? [];
        (result.Timestamps ?? []).forEach((timestamp, index) => {
          const value = result.Values?.[index];
          if (value !== undefined) {
            series.push({ at: timestamp.toISOString(), value: convert(value, query.conversion, period) });
          }
        });
        points.set(query.metric, series);
      }
      nextToken = answer.NextToken;
    } while (nextToken);
  }
  return {
    range,
    step: period,
    series: metricsOfType(row.serviceType).map((metric) => ({
      metric,
      unit: metricUnits[metric],
      points: (points.get(metric) ?? []).sort((a, b) => Date.parse(a.at) - Date.parse(b.at)),
    })),
  };
}
