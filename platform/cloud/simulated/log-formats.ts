import type { DriverResource, NewLogLine } from "../driver";
import { configOf } from "../configs";
import { accountIdOf } from "./resource";
import { digits, hexDigits, randomFrom, type Random } from "./random";
import { simulatedDomain } from "./endpoints";
import {
  commonLogTime,
  epochSeconds,
  klogTime,
  mariadbTime,
  mysqlTime,
  postgresTime,
  redisTime,
} from "./timestamps";

/**
 * What the running software of each type writes, line by line, in its own format: PostgreSQL, MySQL and MariaDB
 * error logs, Redis/Valkey and memcached, a queue consumer's logfmt, S3 server access logs, DynamoDB request
 * records, Lambda's START/END/REPORT, kubelet and kube-apiserver klog, VPC flow logs, ACM events, and nginx or
 * JSON access logs for applications. Levels follow the software's own (LOG/WARNING/ERROR, `*`/`#`, I/W/E, ...):
 * mostly info, some warn, rare error, some debug.
 */
export type Level = NewLogLine["level"];
export type EventLine = { level: Level; message: string; offsetMs?: number };
export type EventWriter = (random: Random, at: Date, pod: string, resource: DriverResource) => EventLine[];

const uuidOf = (random: Random) =>
  `${random.chars(8, hexDigits)}-${random.chars(4, hexDigits)}-4${random.chars(3, hexDigits)}-${random.pick(["8", "9", "a", "b"])}${random.chars(3, hexDigits)}-${random.chars(12, hexDigits)}`;
const privateIp = (random: Random) => `10.0.${random.int(0, 95)}.${random.int(2, 254)}`;
const fixed = (value: number, decimals = 3) => value.toFixed(decimals);
/** A PID that stays the same for one pod, like a long-running server's. */
const pidOf = (pod: string, base: number) => base + randomFrom("pid", pod).int(0, 900);
const tables = ["orders", "customers", "invoices", "sessions", "products", "events"];
const paths = [
  "/api/orders",
  "/api/orders/{id}",
  "/api/customers",
  "/api/products?page={n}",
  "/healthz",
  "/api/cart",
  "/login",
  "/static/app.{hex}.js",
];
const userAgents = [
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "kube-probe/1.33",
  "ELB-HealthChecker/2.0",
  "okhttp/4.12.0",
  "curl/8.5.0",
];

function fillPath(random: Random, template: string) {
  return template
    .replace("{id}", String(random.int(1000, 99_999)))
    .replace("{n}", String(random.int(1, 20)))
    .replace("{hex}", random.chars(8, hexDigits));
}

// --- databases ---------------------------------------------------------------------------------------------------

const postgres: EventWriter = (random, at, pod, resource) => {
  const { username } = configOf(resource, "database");
  const database = resource.name.replace(/-/g, "_");
  const prefix = (pid: number) => `${postgresTime(at)} [${pid}] `;
  const backend = random.int(1000, 65_000);
  const roll = random.next();
  if (roll < 0.3) {
    return [
      {
        level: "info",
        message: `${prefix(backend)}LOG:  connection received: host=${privateIp(random)} port=${random.int(32_768, 60_999)}`,
      },
      {
        level: "info",
        message: `${prefix(backend)}LOG:  connection authorized: user=${username} database=${database} SSL enabled (protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)`,
        offsetMs: 3,
      },
    ];
  }
  if (roll < 0.45) {
    const table = random.pick(tables);
    const duration = random.int(250, 4_800) + random.next();
    return [
      {
        level: duration > 2000 ? "warn" : "info",
        message: `${prefix(backend)}LOG:  duration: ${fixed(duration)} ms  statement: SELECT * FROM ${table} WHERE ${table.slice(0, -1)}_id = $1 ORDER BY created_at DESC LIMIT 50`,
      },
    ];
  }
  if (roll < 0.55) {
    const buffers = random.int(20, 4_000);
    const write = random.int(1, 269) + random.next();
    return [
      { level: "info", message: `${prefix(pidOf(pod, 60))}LOG:  checkpoint starting: time` },
      {
        level: "info",
        message: `${prefix(pidOf(pod, 60))}LOG:  checkpoint complete: wrote ${buffers} buffers (${fixed((buffers / 16_384) * 100, 1)}%); 0 WAL file(s) added, 0 removed, ${random.int(0, 3)} recycled; write=${fixed(write)} s, sync=0.00${random.int(1, 9)} s, total=${fixed(write + 0.01)} s; sync files=${random.int(5, 80)}, longest=0.00${random.int(1, 9)} s, average=0.001 s; distance=${random.int(100, 90_000)} kB, estimate=${random.int(90_000, 120_000)} kB; lsn=${random.int(0, 9)}/${random.chars(8, hexDigits).toUpperCase()}, redo lsn=${random.int(0, 9)}/${random.chars(8, hexDigits).toUpperCase()}`,
        offsetMs: 1_500,
      },
    ];
  }
  if (roll < 0.7) {
    const table = random.pick(tables);
    return [
      {
        level: "info",
        message: `${prefix(random.int(1000, 65_000))}LOG:  automatic vacuum of table "${database}.public.${table}": index scans: ${random.int(0, 2)}\n\tpages: 0 removed, ${random.int(100, 9_000)} remain, ${random.int(1, 99)} scanned (${fixed(random.next() * 10, 2)}% of total)\n\ttuples: ${random.int(10, 4_000)} removed, ${random.int(10_000, 900_000)} remain, 0 are dead but not yet removable`,
      },
    ];
  }
  if (roll < 0.8) {
    return [
      { level: "debug", message: `${prefix(backend)}DEBUG:  autovacuum: processing database "${database}"` },
    ];
  }
  if (roll < 0.88) {
    return [
      {
        level: "info",
        message: `${prefix(backend)}LOG:  disconnection: session time: 0:0${random.int(0, 9)}:${String(random.int(10, 59))}.${random.chars(3, digits)} user=${username} database=${database} host=${privateIp(random)} port=${random.int(32_768, 60_999)}`,
      },
    ];
  }
  if (roll < 0.96) {
    return [{ level: "warn", message: `${prefix(backend)}WARNING:  there is no transaction in progress` }];
  }
  const table = random.pick(tables);
  return [
    {
      level: "error",
      message: `${prefix(backend)}ERROR:  duplicate key value violates unique constraint "${table}_pkey"`,
    },
    {
      level: "error",
      message: `${prefix(backend)}DETAIL:  Key (id)=(${random.int(1000, 99_999)}) already exists.`,
      offsetMs: 1,
    },
  ];
};

const mysql: EventWriter = (random, at, _pod, resource) => {
  const { engine, username } = configOf(resource, "database");
  const database = resource.name.replace(/-/g, "_");
  const thread = random.int(10, 9_000);
  const roll = random.next();
  const line = (
    label: "Note" | "Warning" | "ERROR" | "System",
    code: string,
    subsystem: string,
    text: string,
  ) =>
    engine === "mariadb"
      ? `${mariadbTime(at)} ${thread} [${label === "System" ? "Note" : label}] ${text}`
      : `${mysqlTime(at)} ${thread} [${label}] [MY-${code}] [${subsystem}] ${text}`;
  if (roll < 0.35) {
    const seconds = 1 + random.next() * 6;
    return [
      {
        level: "info",
        message: `# Time: ${mysqlTime(at)}\n# User@Host: ${username}[${username}] @  [${privateIp(random)}]  Id: ${thread}\n# Query_time: ${fixed(seconds, 6)}  Lock_time: 0.000${random.int(10, 99)} Rows_sent: ${random.int(1, 500)}  Rows_examined: ${random.int(10_000, 900_000)}\nSELECT * FROM ${random.pick(tables)} WHERE status = 'pending' ORDER BY created_at;`,
      },
    ];
  }
  if (roll < 0.7) {
    return [
      {
        level: "info",
        message: line(
          "Note",
          "010914",
          "Server",
          `Aborted connection ${thread} to db: '${database}' user: '${username}' host: '${privateIp(random)}' (Got timeout reading communication packets).`,
        ),
      },
    ];
  }
  if (roll < 0.85) {
    return [
      {
        level: "debug",
        message: line(
          "Note",
          "013360",
          "Server",
          `Plugin mysql_native_password reported: ''mysql_native_password' is deprecated and will be removed in a future release. Please use caching_sha2_password instead'`,
        ),
      },
    ];
  }
  if (roll < 0.97) {
    return [
      {
        level: "warn",
        message: line(
          "Warning",
          "010055",
          "Server",
          `IP address '${privateIp(random)}' could not be resolved: Name or service not known`,
        ),
      },
    ];
  }
  return [
    { level: "error", message: line("ERROR", "012574", "InnoDB", `Unable to lock ./ibdata1 error: 11`) },
  ];
};

// --- caches ------------------------------------------------------------------------------------------------------

const redis: EventWriter = (random, at, pod) => {
  const replica = /-[1-9]\d*$/.test(pod);
  const role = replica ? "S" : "M";
  const prefix = (pid: number, roleOf = role) => `${pid}:${roleOf} ${redisTime(at)}`;
  const roll = random.next();
  if (roll < 0.3 && !replica) {
    const child = random.int(100, 30_000);
    return [
      {
        level: "info",
        message: `${prefix(1)} * ${random.pick([1, 10, 100])}${random.pick(["", "0"])} changes in ${random.pick([60, 300, 3600])} seconds. Saving...`,
      },
      { level: "info", message: `${prefix(1)} * Background saving started by pid ${child}`, offsetMs: 2 },
      { level: "info", message: `${prefix(child, "C")} * DB saved on disk`, offsetMs: 180 },
      {
        level: "info",
        message: `${prefix(child, "C")} * Fork CoW for RDB: current ${random.int(1, 9)} MB, peak ${random.int(1, 9)} MB, average ${random.int(1, 5)} MB`,
        offsetMs: 181,
      },
      { level: "info", message: `${prefix(1)} * Background saving terminated with success`, offsetMs: 260 },
    ];
  }
  if (roll < 0.75) {
    return [
      {
        level: "debug",
        message: `${prefix(1)} - Accepted ${privateIp(random)}:${random.int(32_768, 60_999)}`,
      },
    ];
  }
  if (roll < 0.85 && replica) {
    return [
      {
        level: "info",
        message: `${prefix(1)} * MASTER <-> REPLICA sync: Master accepted a Partial Resynchronization.`,
      },
    ];
  }
  if (roll < 0.97) {
    return [
      {
        level: "debug",
        message: `${prefix(1)} - Client closed connection id=${random.int(10, 90_000)} addr=${privateIp(random)}:${random.int(32_768, 60_999)} laddr=10.0.0.5:6379 fd=${random.int(8, 200)} name= age=${random.int(0, 3600)} idle=0 flags=N db=0`,
      },
    ];
  }
  return [
    {
      level: "warn",
      message: `${prefix(1)} # WARNING: maxmemory is close to the limit, evicting keys with policy volatile-lru`,
    },
  ];
};

const memcached: EventWriter = (random) => {
  const fd = random.int(20, 300);
  const key = `${random.pick(["session", "user", "cart", "page"])}:${random.chars(6, hexDigits)}`;
  const roll = random.next();
  if (roll < 0.2) {
    return [
      { level: "debug", message: `<${fd} new auto-negotiating client connection` },
      { level: "debug", message: `${fd}: Client using the ascii protocol`, offsetMs: 1 },
    ];
  }
  if (roll < 0.6) {
    const hit = random.chance(0.85);
    return [
      { level: "info", message: `<${fd} get ${key}` },
      ...(hit ? [{ level: "info" as const, message: `>${fd} sending key ${key}`, offsetMs: 1 }] : []),
      { level: "info", message: `>${fd} END`, offsetMs: 1 },
    ];
  }
  if (roll < 0.97) {
    return [
      {
        level: "info",
        message: `<${fd} set ${key} 0 ${random.pick([300, 900, 3600])} ${random.int(40, 4_000)}`,
      },
      { level: "info", message: `>${fd} STORED`, offsetMs: 1 },
    ];
  }
  return [{ level: "warn", message: `>${fd} SERVER_ERROR out of memory storing object` }];
};

// --- queue, storage, nosql, serverless ----------------------------------------------------------------------------

const queue: EventWriter = (random, at, _pod, resource) => {
  const { maxReceiveCount, deadLetterQueue } = configOf(resource, "queue");
  const time = at.toISOString();
  const roll = random.next();
  const messageId = uuidOf(random);
  if (roll < 0.45) {
    const count = random.int(1, 10);
    return [
      {
        level: "info",
        message: `time="${time}" level=info msg="received messages" queue=${resource.name} count=${count} wait_time_seconds=20`,
      },
      {
        level: "info",
        message: `time="${time}" level=info msg="deleted message batch" queue=${resource.name} successful=${count} failed=0`,
        offsetMs: random.int(20, 800),
      },
    ];
  }
  if (roll < 0.75) {
    return [
      {
        level: "debug",
        message: `time="${time}" level=debug msg="empty receive" queue=${resource.name} wait_time_seconds=20`,
      },
    ];
  }
  if (roll < 0.92) {
    return [
      {
        level: "info",
        message: `time="${time}" level=info msg="queue attributes" queue=${resource.name} ApproximateNumberOfMessages=${random.int(0, 400)} ApproximateNumberOfMessagesNotVisible=${random.int(0, 40)} ApproximateAgeOfOldestMessage=${random.int(0, 120)}s`,
      },
    ];
  }
  if (roll < 0.98 || !deadLetterQueue) {
    return [
      {
        level: "warn",
        message: `time="${time}" level=warning msg="message visibility timeout expired before delete" queue=${resource.name} message_id=${messageId} receive_count=${random.int(2, maxReceiveCount)}`,
      },
    ];
  }
  return [
    {
      level: "error",
      message: `time="${time}" level=error msg="message moved to dead-letter queue" queue=${resource.name} dead_letter_queue=${resource.name}-dlq message_id=${messageId} receive_count=${maxReceiveCount}`,
    },
  ];
};

const s3Access: EventWriter = (random, at, _pod, resource) => {
  const { bucketName } = configOf(resource, "file-storage");
  const operation = random.pick([
    "REST.GET.OBJECT",
    "REST.GET.OBJECT",
    "REST.GET.OBJECT",
    "REST.PUT.OBJECT",
    "REST.HEAD.OBJECT",
    "REST.GET.BUCKET",
  ]);
  const key =
    operation === "REST.GET.BUCKET"
      ? "-"
      : `${random.pick(["uploads", "exports", "avatars", "reports"])}/${random.chars(12, hexDigits)}.${random.pick(["jpg", "pdf", "csv", "json"])}`;
  const roll = random.next();
  const status = roll < 0.9 ? 200 : roll < 0.96 ? 404 : roll < 0.99 ? 403 : 503;
  const method = operation.split(".")[1] ?? "GET";
  const bytes = status === 200 && method !== "HEAD" ? random.int(200, 5_000_000) : 0;
  const account = accountIdOf(resource.environmentName);
  const message = [
    random.chars(64, hexDigits),
    bucketName,
    `[${commonLogTime(at)}]`,
    privateIp(random),
    `arn:aws:iam::${account}:role/${resource.environmentName}-app`,
    random.chars(16, hexDigits).toUpperCase(),
    operation,
    key,
    `"${method} /${bucketName}${key === "-" ? "?list-type=2" : `/${key}`} HTTP/1.1"`,
    status,
    status === 200 ? "-" : status === 404 ? "NoSuchKey" : status === 403 ? "AccessDenied" : "SlowDown",
    bytes || "-",
    bytes || "-",
    random.int(4, 90),
    random.int(2, 40),
    '"-"',
    '"aws-sdk-js/3.700.0 ua/2.1 os/linux lang/js md/nodejs#20.18.0"',
    "-",
    `${random.chars(56)}=`,
    "SigV4",
    "TLS_AES_128_GCM_SHA256",
    "AuthHeader",
    // The Host header: the simulated endpoint's host, never a real S3 one.
    `${resource.name}.${resource.environmentName}.${simulatedDomain}`,
    "TLSv1.3",
    "-",
    "-",
  ].join(" ");
  return [{ level: status >= 500 ? "error" : status >= 400 ? "warn" : "info", message }];
};

const dynamodb: EventWriter = (random, at, _pod, resource) => {
  const { tableName, billingMode } = configOf(resource, "nosql-database");
  const operation = random.pick(["GetItem", "GetItem", "Query", "PutItem", "UpdateItem", "BatchGetItem"]);
  const roll = random.next();
  const record = (extra: Record<string, unknown>) =>
    JSON.stringify({
      eventTime: at.toISOString(),
      eventName: operation,
      tableName,
      requestId: random.chars(52, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
      ...extra,
    });
  if (roll < 0.95) {
    const write = operation === "PutItem" || operation === "UpdateItem";
    return [
      {
        level: "info",
        message: record({
          consumedCapacity: {
            [write ? "writeCapacityUnits" : "readCapacityUnits"]: write ? 1 : random.pick([0.5, 1, 2.5, 4]),
          },
          latencyMs: random.int(2, 18),
          statusCode: 200,
        }),
      },
    ];
  }
  if (roll < 0.99) {
    return [
      {
        level: "warn",
        message: record({
          errorCode: "ConditionalCheckFailedException",
          errorMessage: "The conditional request failed",
          statusCode: 400,
        }),
      },
    ];
  }
  return [
    billingMode === "provisioned"
      ? {
          level: "error",
          message: record({
            errorCode: "ProvisionedThroughputExceededException",
            errorMessage:
              "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
            statusCode: 400,
          }),
        }
      : {
          level: "error",
          message: record({
            errorCode: "ThrottlingException",
            errorMessage: "Throughput exceeds the current capacity of your table or index.",
            statusCode: 400,
          }),
        },
  ];
};

const lambda: EventWriter = (random, at, _pod, resource) => {
  const { memoryMb, timeoutSeconds, runtime } = configOf(resource, "serverless");
  const requestId = uuidOf(random);
  const coldStart = random.chance(0.05);
  const timedOut = random.chance(0.01);
  const failed = !timedOut && random.chance(0.03);
  const duration = timedOut ? timeoutSeconds * 1000 + random.int(1, 60) : 2 + random.next() * 180;
  const end = Math.ceil(duration);
  const lines: EventLine[] = [];
  if (coldStart) {
    lines.push({
      level: "info",
      message: `INIT_START Runtime Version: ${runtime}.v${random.int(20, 60)}\tRuntime Version ARN: arn:aws:lambda:${resource.region}::runtime:${random.chars(64, hexDigits)}`,
      offsetMs: -random.int(150, 400),
    });
  }
  lines.push({ level: "info", message: `START RequestId: ${requestId} Version: $LATEST` });
  const appLevel = failed ? "ERROR" : random.pick(["INFO", "INFO", "INFO", "DEBUG", "WARN"]);
  const appMessage = failed
    ? `Invoke Error \t{"errorType":"TypeError","errorMessage":"Cannot read properties of undefined (reading 'id')","stack":["TypeError: Cannot read properties of undefined (reading 'id')","    at Runtime.handler (/var/task/index.mjs:14:32)"]}`
    : appLevel === "WARN"
      ? `Retrying downstream call attempt=2 after ${random.int(50, 400)} ms`
      : appLevel === "DEBUG"
        ? `event received: {"source":"aws.events","detail-type":"Scheduled Event"}`
        : `processed ${random.int(1, 25)} records`;
  if (!timedOut) {
    lines.push({
      level: failed ? "error" : appLevel === "WARN" ? "warn" : appLevel === "DEBUG" ? "debug" : "info",
      message: `${new Date(at.getTime() + Math.floor(duration / 2)).toISOString()}\t${requestId}\t${appLevel}\t${appMessage}`,
      offsetMs: Math.floor(duration / 2),
    });
  }
  if (timedOut) {
    lines.push({
      level: "error",
      message: `${new Date(at.getTime() + end).toISOString()} ${requestId} Task timed out after ${fixed(duration / 1000, 2)} seconds`,
      offsetMs: end,
    });
  }
  lines.push({ level: "info", message: `END RequestId: ${requestId}`, offsetMs: end });
  const used = Math.min(memoryMb, Math.round(60 + random.next() * memoryMb * 0.4));
  lines.push({
    level: "info",
    message: `REPORT RequestId: ${requestId}\tDuration: ${fixed(duration, 2)} ms\tBilled Duration: ${end} ms\tMemory Size: ${memoryMb} MB\tMax Memory Used: ${used} MB${coldStart ? `\tInit Duration: ${fixed(150 + random.next() * 250, 2)} ms` : ""}`,
    offsetMs: end,
  });
  return lines;
};

// --- clusters, network, certificates -----------------------------------------------------------------------------

const klog = (level: Level, at: Date, pid: number, source: string, message: string): EventLine => ({
  level,
  message: `${level === "error" ? "E" : level === "warn" ? "W" : "I"}${klogTime(at)} ${String(pid).padStart(7)} ${source}] ${message}`,
});

const kubelet: EventWriter = (random, at, pod) => {
  const pid = pidOf(pod, 2_000);
  const workload = `default/${random.pick(["web", "api", "worker"])}-${random.chars(9, "bcdfghjklmnpqrstvwxz2456789")}-${random.chars(5, "bcdfghjklmnpqrstvwxz2456789")}`;
  const roll = random.next();
  if (roll < 0.35)
    return [klog("info", at, pid, "kubelet.go:2454", `"SyncLoop UPDATE" source="api" pods=["${workload}"]`)];
  if (roll < 0.55)
    return [
      klog(
        "info",
        at,
        pid,
        "kubelet.go:2552",
        `"SyncLoop (PLEG): event for pod" pod="${workload}" event={"ID":"${uuidOf(random)}","Type":"ContainerStarted","Data":"${random.chars(64, hexDigits)}"}`,
      ),
    ];
  if (roll < 0.75)
    return [
      {
        ...klog(
          "info",
          at,
          pid,
          "kubelet_node_status.go:502",
          `"Fast updating node status as it just became ready" node="${pod}"`,
        ),
        level: "debug",
      },
    ];
  if (roll < 0.88)
    return [
      klog(
        "info",
        at,
        pid,
        "reconciler_common.go:258",
        `"operationExecutor.VerifyControllerAttachedVolume started for volume \\"kube-api-access-${random.chars(5, "bcdfghjklmnpqrstvwxz2456789")}\\"" pod="${workload}"`,
      ),
    ];
  if (roll < 0.97)
    return [
      klog(
        "warn",
        at,
        pid,
        "prober.go:107",
        `"Probe failed" probeType="Readiness" pod="${workload}" containerName="app" probeResult="failure" output="Get \\"http://${privateIp(random)}:8080/healthz\\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"`,
      ),
    ];
  return [
    klog(
      "error",
      at,
      pid,
      "pod_workers.go:1298",
      `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"app\\" with CrashLoopBackOff: \\"back-off 40s restarting failed container=app pod=${workload.split("/")[1]}\\"" pod="${workload}"`,
    ),
  ];
};

const apiserver: EventWriter = (random, at) => {
  const roll = random.next();
  const resource = random.pick(["pods", "deployments", "services", "configmaps", "leases", "events"]);
  if (roll < 0.5) {
    return [
      klog(
        "info",
        at,
        1,
        "httplog.go:132",
        `"HTTP" verb="${random.pick(["GET", "LIST", "WATCH", "PATCH"])}" URI="/api/v1/namespaces/default/${resource}?limit=500" latency="${fixed(1 + random.next() * 40)}ms" userAgent="kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0" audit-ID="${uuidOf(random)}" srcIP="${privateIp(random)}:${random.int(32_768, 60_999)}" resp=200`,
      ),
    ];
  }
  if (roll < 0.7)
    return [
      klog(
        "info",
        at,
        1,
        "controller.go:615",
        `quota admission added evaluator for: ${resource === "deployments" ? "deployments.apps" : resource}`,
      ),
    ];
  if (roll < 0.85) {
    return [
      {
        ...klog(
          "info",
          at,
          1,
          "trace.go:236",
          `Trace[${random.chars(9, digits)}]: "List" accept:application/json, */*,audit-id:${uuidOf(random)},client:${privateIp(random)},protocol:HTTP/2.0,resource:${resource},scope:cluster,url:/api/v1/${resource},verb:LIST (${at.toUTCString()}) (total time: ${random.int(500, 1500)}ms):`,
        ),
        level: "debug",
      },
    ];
  }
  if (roll < 0.98)
    return [
      klog(
        "warn",
        at,
        1,
        "dispatcher.go:210",
        `Failed calling webhook, failing open vpa.k8s.io: failed calling webhook "vpa.k8s.io": Post "https://vpa-webhook.kube-system.svc:443/?timeout=10s": context deadline exceeded`,
      ),
    ];
  return [
    klog(
      "error",
      at,
      1,
      "status.go:71",
      `apiserver received an error that is not an metav1.Status: context.deadlineExceededError{}: context deadline exceeded`,
    ),
  ];
};

const flowLog: EventWriter = (random, at, pod, resource) => {
  const account = accountIdOf(resource.environmentName);
  const rejected = random.chance(0.08);
  const start = epochSeconds(at) - 60;
  const protocol = random.pick([6, 6, 6, 17]);
  const port = protocol === 17 ? 53 : random.pick([443, 5432, 6379, 8080, 22]);
  const packets = rejected ? random.int(1, 3) : random.int(2, 900);
  return [
    {
      level: rejected ? "warn" : "info",
      message: `2 ${account} ${pod} ${privateIp(random)} ${rejected ? `${random.int(1, 223)}.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}` : privateIp(random)} ${random.int(32_768, 60_999)} ${port} ${protocol} ${packets} ${packets * random.int(40, 1400)} ${start} ${epochSeconds(at)} ${rejected ? "REJECT" : "ACCEPT"} OK`,
    },
  ];
};

const acm: EventWriter = (random, at, _pod, resource) => {
  const { domain, validationMethod } = configOf(resource, "tls");
  // The same ARN the certificate API answers (environment-neighbours.ts): ACM certificate ids are uuids.
  const arn = `arn:aws:acm:${resource.region}:${accountIdOf(resource.environmentName)}:certificate/${resource.id}`;
  const roll = random.next();
  if (roll < 0.6) {
    return [
      {
        level: "info",
        message: `time="${at.toISOString()}" level=info msg="certificate status" CertificateArn=${arn} DomainName=${domain} Status=ISSUED RenewalEligibility=ELIGIBLE InUseBy=${random.int(0, 3)}`,
      },
    ];
  }
  if (roll < 0.9) {
    return [
      {
        level: "debug",
        message: `time="${at.toISOString()}" level=debug msg="${validationMethod === "dns" ? "DNS validation record verified" : "validation e-mail domain verified"}" CertificateArn=${arn} DomainName=${domain}${validationMethod === "dns" ? ` ResourceRecord=_${random.chars(32, hexDigits)}.${domain.replace(/^\*\./, "")}. CNAME` : ""}`,
      },
    ];
  }
  return [
    {
      level: "warn",
      message: `time="${at.toISOString()}" level=warning msg="certificate in use by a listener with an outdated security policy" CertificateArn=${arn} DomainName=${domain} SecurityPolicy=ELBSecurityPolicy-2016-08`,
    },
  ];
};

// --- applications ------------------------------------------------------------------------------------------------

const application: EventWriter = (random, at, _pod, resource) => {
  const json = randomFrom("log-style", resource.id).chance(0.5);
  const roll = random.next();
  const method = random.pick(["GET", "GET", "GET", "POST", "PUT", "DELETE"]);
  const path = fillPath(random, random.pick(paths));
  const status =
    roll < 0.88
      ? method === "POST"
        ? 201
        : 200
      : roll < 0.93
        ? 304
        : roll < 0.975
          ? random.pick([400, 401, 404, 422])
          : random.pick([500, 502, 503]);
  const seconds = 0.002 + random.next() * random.pick([0.05, 0.1, 0.4, 1.2]);
  const bytes = random.int(120, 48_000);
  const level: Level = status >= 500 ? "error" : status >= 400 ? "warn" : "info";
  if (random.chance(0.15)) {
    const message = random.pick([
      "cache miss, loading from database",
      "refreshing feature flags",
      "connection pool stats",
      "job heartbeat",
    ]);
    return [
      {
        level: "debug",
        message: json
          ? JSON.stringify({
              level: 20,
              time: at.getTime(),
              pid: 1,
              hostname: _pod,
              msg: message,
              ...(message === "connection pool stats"
                ? { total: 10, idle: random.int(0, 10), waiting: 0 }
                : {}),
            })
          : `${at.toISOString()} DEBUG ${message}`,
      },
    ];
  }
  if (json) {
    return [
      {
        level,
        message: JSON.stringify({
          level: level === "error" ? 50 : level === "warn" ? 40 : 30,
          time: at.getTime(),
          pid: 1,
          hostname: _pod,
          reqId: `req-${random.chars(4, hexDigits)}`,
          req: { method, url: path, remoteAddress: privateIp(random) },
          res: { statusCode: status },
          responseTime: Number(fixed(seconds * 1000, 3)),
          msg: status >= 500 ? "request errored" : "request completed",
        }),
      },
    ];
  }
  return [
    {
      level,
      message: `${privateIp(random)} - - [${commonLogTime(at)}] "${method} ${path} HTTP/1.1" ${status} ${bytes} "-" "${random.pick(userAgents)}" ${fixed(seconds)}`,
    },
  ];
};

/** The writer for a resource's type (and engine); how many seconds apart a pod writes on average. */
export function runtimeWriterOf(resource: DriverResource): { write: EventWriter; everySeconds: number } {
  switch (resource.serviceType) {
    case "database":
      return {
        write: configOf(resource, "database").engine === "postgres" ? postgres : mysql,
        everySeconds: 6,
      };
    case "cache":
      return {
        write: configOf(resource, "cache").engine === "memcached" ? memcached : redis,
        everySeconds: 5,
      };
    case "queue":
      return { write: queue, everySeconds: 5 };
    case "file-storage":
      return { write: s3Access, everySeconds: 5 };
    case "nosql-database":
      return { write: dynamodb, everySeconds: 5 };
    case "serverless":
      return { write: lambda, everySeconds: 6 };
    case "kubernetes":
      return { write: kubelet, everySeconds: 6 };
    case "control-plane":
      return { write: apiserver, everySeconds: 5 };
    case "network":
      return { write: flowLog, everySeconds: 4 };
    case "tls":
      return { write: acm, everySeconds: 20 };
    case "application":
      return { write: application, everySeconds: 3 };
  }
}
