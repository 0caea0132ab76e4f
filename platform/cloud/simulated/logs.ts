import { applicationImageOf } from "../images";
import type { DeployPhase, DriverResource, NewLogLine } from "../driver";
import { deployPlanOf } from "./plans";
import { configOf } from "../configs";
import { runtimeWriterOf, type EventLine } from "./log-formats";
import { startupLinesOf } from "./startup-logs";
import { randomFrom } from "./random";

/**
 * Runtime logs. Time is cut into buckets of the type's interval; in each bucket each pod writes one event (a line
 * or a few, like Lambda's START/END/REPORT) with a chance of 85 %, at an offset inside the bucket. The event depends
 * only on (service, pod, bucket), so any window of time gives the same lines whichever way it is cut: reading
 * [a, b) and then [b, c) gives exactly what [a, c) gives. Buckets are walked from the newest back until `limit`
 * lines are found, so a service idle for weeks costs no more than `limit` lines.
 */
export function runtimeLogsOf(
  resource: DriverResource,
  podNames: string[],
  from: Date,
  to: Date,
  limit: number,
): NewLogLine[] {
  if (podNames.length === 0 || limit <= 0 || to.getTime() <= from.getTime()) return [];
  const { write, everySeconds } = runtimeWriterOf(resource);
  const bucketMs = everySeconds * 1000;
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const lines: NewLogLine[] = [];
  // An event may start in an earlier bucket and have lines (END, REPORT) that land in this window, or the reverse.
  const lastBucket = Math.floor((toMs - 1) / bucketMs);
  const firstBucket = Math.floor(fromMs / bucketMs) - 1;
  for (let bucket = lastBucket; bucket >= firstBucket && lines.length < limit; bucket--) {
    for (const pod of podNames) {
      const random = randomFrom("runtime", resource.id, pod, bucket);
      if (!random.chance(0.85)) continue;
      const at = new Date(bucket * bucketMs + random.int(0, bucketMs - 1));
      for (const line of write(random, at, pod, resource)) {
        const lineAt = new Date(at.getTime() + (line.offsetMs ?? 0));
        if (lineAt.getTime() < fromMs || lineAt.getTime() >= toMs) continue;
        lines.push({ at: lineAt, podName: pod, level: line.level, message: line.message });
      }
    }
  }
  lines.sort((a, b) => a.at.getTime() - b.at.getTime() || a.podName.localeCompare(b.podName));
  return lines.slice(Math.max(0, lines.length - limit));
}

/**
 * Deployment logs: Terraform's progress for the phase (`Creating...`, `Still creating... [10s elapsed]`,
 * `Creation complete after 14s [id=...]`) on the first pod, and, in the last phase, the software's start-up lines
 * on every pod (PostgreSQL's `database system is ready to accept connections`, Redis's `Ready to accept
 * connections tcp`, Kubernetes events for applications, ...).
 */
export function deployLogsOf(
  resource: DriverResource,
  podNames: string[],
  phase: DeployPhase,
  startedAt: Date,
): NewLogLine[] {
  const firstPod = podNames[0] ?? resource.name;
  const address = terraformAddressOf(resource, phase);
  const random = randomFrom("deploy", resource.id, phase.name, startedAt.getTime());
  const at = (seconds: number) => new Date(startedAt.getTime() + Math.round(seconds * 1000));
  const lines: NewLogLine[] = [];
  const line = (seconds: number, level: NewLogLine["level"], message: string, podName = firstPod) =>
    lines.push({ at: at(seconds), podName, level, message });

  line(0, "info", `${address}: Creating...`);
  for (let elapsed = 10; elapsed < phase.seconds; elapsed += 10) {
    line(elapsed, "info", `${address}: Still creating... [${elapsed}s elapsed]`);
  }
  if (random.chance(0.15)) {
    line(
      phase.seconds * 0.5,
      "debug",
      `${address}: provider request id ${random.chars(8)}-${random.chars(4)}`,
    );
  }
  if (resource.serviceType === "application") {
    for (const { seconds, level, message, podName } of kubernetesEventsOf(
      resource,
      podNames,
      phase,
      random,
    )) {
      line(seconds, level, message, podName);
    }
  }
  const plan = deployPlanOf(resource);
  const last = plan[plan.length - 1];
  if (last && last.name === phase.name) {
    podNames.forEach((pod, index) => {
      const startup: EventLine[] = startupLinesOf(resource, pod, at(Math.max(0, phase.seconds - 2)), index);
      for (const entry of startup) {
        lines.push({
          at: at(Math.max(0, phase.seconds - 2) + (entry.offsetMs ?? 0) / 1000),
          podName: pod,
          level: entry.level,
          message: entry.message,
        });
      }
    });
  }
  line(
    phase.seconds,
    "info",
    `${address}: Creation complete after ${phase.seconds}s [id=${idOf(resource, random)}]`,
  );
  return lines.sort((a, b) => a.at.getTime() - b.at.getTime());
}

function idOf(resource: DriverResource, random: ReturnType<typeof randomFrom>): string {
  switch (resource.serviceType) {
    case "network":
      return `vpc-0${random.chars(16, "0123456789abcdef")}`;
    case "file-storage":
      return configOf(resource, "file-storage").bucketName;
    case "nosql-database":
      return configOf(resource, "nosql-database").tableName;
    default:
      return resource.name;
  }
}

/** The Terraform resource a phase creates, as `terraform apply` names it. */
function terraformAddressOf(resource: DriverResource, phase: DeployPhase): string {
  const name = resource.name.replace(/-/g, "_");
  const byPhase: [RegExp, string][] = [
    [/DB subnet group/, "aws_db_subnet_group"],
    [/DB instance|Multi-AZ/, "aws_db_instance"],
    [/storage|Backing up|enhanced monitoring|instance to become/, "aws_db_instance"],
    [/cache subnet group/, "aws_elasticache_subnet_group"],
    [
      /replication group|cache cluster|cache nodes|encryption in transit|cluster to become/,
      "aws_elasticache_replication_group",
    ],
    [/dead-letter/, "aws_sqs_queue"],
    [/queue|redrive|Queue|queue attributes/, "aws_sqs_queue"],
    [/bucket|versioning|public access|lifecycle/, "aws_s3_bucket"],
    [/table|point-in-time|encryption at rest/, "aws_dynamodb_table"],
    [/execution role|cluster IAM role/, "aws_iam_role"],
    [/function code|Creating function$|Publishing version/, "aws_lambda_function"],
    [/function URL/, "aws_lambda_function_url"],
    [/EKS cluster|Creating control plane|endpoint access|control plane logging/, "aws_eks_cluster"],
    [/node group|nodes to become Ready/, "aws_eks_node_group"],
    [/add-ons|platform components/, "aws_eks_addon"],
    [/VPC/, "aws_vpc"],
    [/subnets/, "aws_subnet"],
    [/internet gateway/, "aws_internet_gateway"],
    [/Elastic IPs/, "aws_eip"],
    [/NAT gateways/, "aws_nat_gateway"],
    [/route tables/, "aws_route_table"],
    [/certificate|validation|Issuing/, "aws_acm_certificate"],
    [/image|deployment|pods|health checks/, "kubernetes_deployment"],
    [/load balancer/, "aws_lb_target_group_attachment"],
  ];
  const type = byPhase.find(([pattern]) => pattern.test(phase.name))?.[1] ?? "terraform_data";
  const suffix = /dead-letter/.test(phase.name) ? `${name}_dlq` : name;
  return `${type}.${suffix}`;
}

/** What `kubectl get events` shows while an application rolls out. */
function kubernetesEventsOf(
  resource: DriverResource,
  podNames: string[],
  phase: DeployPhase,
  random: ReturnType<typeof randomFrom>,
): { seconds: number; level: NewLogLine["level"]; message: string; podName: string }[] {
  const image = applicationImageOf(resource.config);
  const events: { seconds: number; level: NewLogLine["level"]; message: string; podName: string }[] = [];
  podNames.forEach((pod, index) => {
    const base = (index * phase.seconds) / Math.max(1, podNames.length) / 2;
    const event = (offset: number, level: NewLogLine["level"], reason: string, message: string) =>
      events.push({
        seconds: Math.min(phase.seconds, base + offset),
        level,
        podName: pod,
        message: `${level === "warn" ? "Warning" : "Normal"}  ${reason}  pod/${pod}  ${message}`,
      });
    if (phase.name === "Pulling image") {
      event(
        0.2,
        "info",
        "Scheduled",
        `Successfully assigned default/${pod} to ip-10-0-${random.int(0, 95)}-${random.int(2, 254)}.ec2.internal`,
      );
      event(0.5, "info", "Pulling", `Pulling image "${image}"`);
      event(
        phase.seconds - 0.5,
        "info",
        "Pulled",
        `Successfully pulled image "${image}" in ${(1 + random.next() * 3).toFixed(3)}s (${(1 + random.next() * 3).toFixed(3)}s including waiting). Image size: ${random.int(40, 400)}${random.chars(6, "0123456789")} bytes.`,
      );
    } else if (phase.name.startsWith("Starting pods")) {
      event(0.3, "info", "Created", `Created container ${resource.name}`);
      event(0.8, "info", "Started", `Started container ${resource.name}`);
    } else if (phase.name === "Waiting for health checks") {
      if (random.chance(0.3)) {
        event(
          0.5,
          "warn",
          "Unhealthy",
          `Readiness probe failed: Get "http://10.0.${random.int(0, 95)}.${random.int(2, 254)}:${resource.settings.healthCheck.port}${resource.settings.healthCheck.path}": dial tcp: connect: connection refused`,
        );
      }
    }
  });
  return events;
}
