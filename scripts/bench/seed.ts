// Seeds the benchmark's data into a fresh DATA_DIR before the stack starts (PGlite allows one process at a time):
// the demo accounts, then an environment `bench` in Acme Corp with BENCH_SERVICES services (default 1,000) and
// BENCH_LOG_LINES log lines (default 100,000) written straight into the database with the platform's own schema.
// Every config and settings object is checked against the contract's schemas, so the API serves them as it would
// serve services created through it.
//
//   node --import tsx scripts/bench/seed.ts <dataDir> <output.json>
//
// Writes what the benchmark needs to know (tenant, environment, the service ids to open) to <output.json>.
import { createHash, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { type ServiceType } from "#contract/service-catalogue";
import { serviceSettingsSchema, defaultServiceSettings, type ServiceSettings } from "#contract/services";
import { cacheEngines, databaseEngines, serviceConfigSchemas } from "#contract/service-configs";
import { defaultApplicationConfig } from "#contract/application-config";
import type { Stage } from "#contract/stages";
import { openDb } from "../../platform/db/index";
import {
  environments,
  organizations,
  resourceHistory,
  resourceLogs,
  resources,
  serverlessUploads,
} from "../../platform/db/schema";
import { ensureRoles } from "../../platform/db/roles";
import { seedDemoData } from "../../platform/seed/demo-data";
import { secretCipherFor } from "../../platform/lib/cipher";

const [dataDir, outputFile] = process.argv.slice(2);
if (!dataDir || !outputFile) {
  console.error("usage: node --import tsx scripts/bench/seed.ts <dataDir> <output.json>");
  process.exit(2);
}
const SERVICE_COUNT = Number(process.env.BENCH_SERVICES ?? 1000);
const LOG_LINE_COUNT = Number(process.env.BENCH_LOG_LINES ?? 100_000);
/** The service whose details page and log search are measured: it gets this share of all log lines. */
const HOT_SERVICE_NAME = "checkout-api";
const HOT_SERVICE_LOG_SHARE = 0.2;
const ENVIRONMENT_NAME = "bench";
const ACTOR = "Ada Lovelace";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// A small deterministic PRNG (mulberry32): the same data every run, so figures compare between runs.
let seed = 20_261_122;
function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const hex = (length: number) =>
  Array.from({ length }, () => "0123456789abcdef"[Math.floor(random() * 16)]).join("");
const podSuffix = () =>
  Array.from({ length: 5 }, () => "bcdfghjklmnpqrstvwxz2456789"[Math.floor(random() * 27)]).join("");

// ---------------------------------------------------------------------------------------------------------------
// Services

const domains = [
  "checkout",
  "payments",
  "orders",
  "inventory",
  "search",
  "catalog",
  "billing",
  "auth",
  "notifications",
  "shipping",
  "analytics",
  "recommendations",
  "reviews",
  "pricing",
  "accounts",
  "media",
  "reporting",
  "ledger",
  "fraud",
  "support",
];
/** Type, its share of the fleet, and the suffix its names end with. */
const typeMix: [ServiceType, number, string][] = [
  ["application", 30, "api"],
  ["database", 12, "db"],
  ["cache", 10, "cache"],
  ["queue", 10, "queue"],
  ["serverless", 12, "fn"],
  ["file-storage", 7, "files"],
  ["nosql-database", 6, "table"],
  ["kubernetes", 4, "cluster"],
  ["control-plane", 2, "control-plane"],
  ["network", 2, "vpc"],
  ["tls", 5, "cert"],
];
const typeWeightTotal = typeMix.reduce((sum, [, weight]) => sum + weight, 0);
function pickType(): [ServiceType, string] {
  let roll = random() * typeWeightTotal;
  for (const [type, weight, suffix] of typeMix) {
    roll -= weight;
    if (roll < 0) return [type, suffix];
  }
  return ["application", "api"];
}

function configFor(
  type: ServiceType,
  name: string,
  index: number,
  uploadId: string,
): Record<string, unknown> {
  switch (type) {
    case "database": {
      const engine = pick(["postgres", "postgres", "mysql", "mariadb"] as const);
      return {
        engine,
        version: pick(databaseEngines[engine]),
        instanceSize: pick(["db.t4g.micro", "db.t4g.medium", "db.m7g.large", "db.r7g.large"]),
        storageGb: pick([20, 50, 100, 250, 500]),
        multiAz: random() < 0.4,
        username: pick(["app", "admin", "service"]),
        backupRetentionDays: pick([1, 7, 14, 30]),
      };
    }
    case "cache": {
      const engine = pick(["redis", "redis", "valkey", "memcached"] as const);
      return {
        engine,
        version: pick(cacheEngines[engine]),
        nodeSize: pick(["cache.t4g.micro", "cache.t4g.small", "cache.m7g.large"]),
        nodes: between(1, 3),
        encryptionInTransit: random() < 0.8,
      };
    }
    case "queue":
      return {
        queueType: random() < 0.2 ? "fifo" : "standard",
        visibilityTimeoutSeconds: pick([30, 60, 300]),
        messageRetentionDays: pick([4, 7, 14]),
        deadLetterQueue: random() < 0.8,
        maxReceiveCount: pick([3, 5, 10]),
      };
    case "file-storage":
      return {
        bucketName: `acme-bench-${name}`.slice(0, 63),
        storageClass: pick(["standard", "standard", "infrequent-access", "archive"]),
        versioning: random() < 0.7,
        publicAccess: random() < 0.1,
      };
    case "nosql-database":
      return {
        tableName: name.replace(/-/g, "_"),
        partitionKey: pick(["id", "tenantId", "userId"]),
        sortKey: pick(["", "createdAt", "sk"]),
        billingMode: random() < 0.7 ? "on-demand" : "provisioned",
        readCapacityUnits: pick([5, 10, 50]),
        writeCapacityUnits: pick([5, 10, 25]),
      };
    case "serverless":
      return {
        runtime: pick(["nodejs22.x", "nodejs20.x", "python3.13", "python3.12", "java21"]),
        handler: pick(["index.handler", "app.handler", "main.lambda_handler"]),
        memoryMb: pick([128, 256, 512, 1024]),
        timeoutSeconds: pick([10, 30, 60, 300]),
        uploadId,
      };
    case "kubernetes": {
      const minNodes = between(1, 4);
      return {
        version: pick(["1.33", "1.32", "1.31"]),
        nodeInstanceType: pick(["t3.medium", "t3.large", "m7i.large", "m7i.xlarge"]),
        minNodes,
        maxNodes: minNodes + between(0, 8),
      };
    }
    case "control-plane":
      return {
        version: pick(["1.33", "1.32"]),
        endpointAccess: pick(["public", "private", "public-and-private"]),
        controlPlaneLogging: random() < 0.7,
      };
    case "network":
      return {
        cidrBlock: `10.${index % 256}.0.0/16`,
        availabilityZones: between(2, 3),
        natGateways: random() < 0.5 ? "single" : "one-per-zone",
      };
    case "tls":
      return {
        domain: `${name}.acme.example.com`,
        subjectAlternativeNames: random() < 0.5 ? [`www.${name}.acme.example.com`] : [],
        validationMethod: random() < 0.9 ? "dns" : "email",
      };
    case "application":
      return {
        ...defaultApplicationConfig,
        source: { kind: "image", image: `ghcr.io/acme/${name}:1.${between(0, 30)}.${between(0, 9)}` },
      };
  }
}

function settingsFor(type: ServiceType): ServiceSettings {
  const minInstances = between(1, 3);
  const port = type === "application" ? pick([3000, 8080, 8000]) : defaultServiceSettings.networking.port;
  return {
    ...defaultServiceSettings,
    envvars:
      type === "application" || type === "serverless"
        ? [
            { name: "NODE_ENV", value: "production" },
            { name: "LOG_LEVEL", value: pick(["info", "debug", "warn"]) },
            { name: "DATABASE_URL", value: "${DATABASE_URL}" },
          ]
        : [],
    scaling: {
      minInstances,
      maxInstances: minInstances + between(0, 6),
      targetCpuPercent: pick([60, 70, 80]),
    },
    hardware: { cpu: pick(["0.25", "0.5", "1", "2"]), memoryMb: pick([512, 1024, 2048, 4096]) },
    networking: { port, public: type === "application" && random() < 0.5, customDomain: "" },
    healthCheck: { ...defaultServiceSettings.healthCheck, port },
  };
}

const monthlyCostCents: Record<ServiceType, [number, number]> = {
  application: [1_500, 25_000],
  database: [1_300, 120_000],
  cache: [1_200, 40_000],
  queue: [0, 2_000],
  "file-storage": [100, 15_000],
  "nosql-database": [200, 30_000],
  serverless: [0, 5_000],
  kubernetes: [7_300, 150_000],
  "control-plane": [7_300, 7_300],
  network: [3_200, 9_800],
  tls: [0, 0],
};

function endpointFor(type: ServiceType, name: string, config: Record<string, unknown>): string | null {
  switch (type) {
    case "application":
      return `https://${name}.${ENVIRONMENT_NAME}.acme.example.com`;
    case "database":
      return `${name}.${hex(12)}.us-east-1.rds.amazonaws.com`;
    case "cache":
      return `${name}.${hex(6)}.cache.amazonaws.com`;
    case "queue":
      return `https://sqs.us-east-1.amazonaws.com/123456789012/${name}`;
    case "file-storage":
      return `${String(config.bucketName)}.s3.us-east-1.amazonaws.com`;
    case "serverless":
      return `https://${hex(10)}.lambda-url.us-east-1.on.aws`;
    case "kubernetes":
    case "control-plane":
      return `https://${hex(32).toUpperCase()}.gr7.us-east-1.eks.amazonaws.com`;
    case "nosql-database":
      return `dynamodb.us-east-1.amazonaws.com/${name.replace(/-/g, "_")}`;
    case "network":
    case "tls":
      return null;
  }
}

/** Stage mix of a living environment: mostly deployed, some failed, drafts, canceled, and drafts on deployed ones. */
function pickStage(): { stage: Stage; deployed: boolean; pendingDraft: boolean } {
  const roll = random();
  if (roll < 0.82) return { stage: "STAGE_COMPLETED", deployed: true, pendingDraft: false };
  if (roll < 0.86) return { stage: "STAGE_COMPLETED", deployed: true, pendingDraft: true };
  if (roll < 0.92) return { stage: "STAGE_FAILED", deployed: random() < 0.5, pendingDraft: false };
  if (roll < 0.96) return { stage: "STAGE_DRAFT", deployed: false, pendingDraft: false };
  return { stage: "STAGE_CANCELED", deployed: false, pendingDraft: false };
}

const failureMessages = [
  "Health check failed: /healthz answered 503 for 5 consecutive checks",
  "Image pull failed: manifest unknown",
  "Quota exceeded: VPC endpoints per region (50)",
  "Deployment timed out after 900 seconds waiting for instances to become healthy",
];

// ---------------------------------------------------------------------------------------------------------------
// Log lines

type LogTemplate = [level: "error" | "warn" | "info" | "debug", weight: number, render: () => string];
const ms = () => between(2, 900);
const paths = ["/api/orders", "/api/cart", "/api/products", "/api/users/me", "/api/checkout", "/healthz"];
const logTemplates: Record<ServiceType, LogTemplate[]> = {
  application: [
    ["info", 60, () => `${pick(["GET", "GET", "POST", "PUT"])} ${pick(paths)} 200 ${ms()}ms`],
    ["info", 10, () => `POST /api/checkout 201 ${ms()}ms order=${hex(8)}`],
    ["debug", 10, () => `cache hit key=product:${between(1000, 9999)} ttl=${between(10, 300)}s`],
    [
      "warn",
      6,
      () => `slow query took ${between(1000, 5000)}ms: SELECT * FROM orders WHERE customer_id = $1`,
    ],
    ["warn", 4, () => `upstream request timeout after 30000ms (payments-api), retrying ${between(1, 3)}/3`],
    ["error", 3, () => `ETIMEDOUT: connection timeout to redis:6379 after ${between(1000, 5000)}ms`],
    ["error", 2, () => `Unhandled rejection: TypeError: Cannot read properties of undefined (reading 'id')`],
    ["info", 5, () => `GET /api/orders 499 ${between(30000, 31000)}ms client closed request`],
  ],
  database: [
    [
      "info",
      50,
      () => `LOG:  checkpoint complete: wrote ${between(10, 5000)} buffers; distance=${between(1, 9999)} kB`,
    ],
    ["info", 25, () => `LOG:  automatic vacuum of table "app.public.orders": index scans: ${between(0, 3)}`],
    [
      "warn",
      10,
      () => `LOG:  duration: ${between(1000, 9000)}.${between(100, 999)} ms  statement: SELECT ...`,
    ],
    ["error", 5, () => `FATAL:  canceling statement due to statement timeout`],
    ["error", 3, () => `FATAL:  password authentication failed for user "reporting"`],
    ["info", 7, () => `LOG:  connection authorized: user=app database=app SSL enabled`],
  ],
  cache: [
    [
      "info",
      60,
      () =>
        `${between(1, 9)}:M ${new Date().toUTCString()} * ${between(1, 900)} changes in 60 seconds. Saving...`,
    ],
    ["info", 25, () => `${between(1, 9)}:M * Background saving terminated with success`],
    ["warn", 10, () => `${between(1, 9)}:M # Client id=${between(1, 9999)} closed for idle timeout`],
    [
      "error",
      5,
      () =>
        `${between(1, 9)}:M # Connection with replica ${`10.0.${between(0, 9)}.${between(2, 250)}`}:6379 lost (timeout)`,
    ],
  ],
  queue: [
    ["info", 80, () => `Received ${between(1, 10)} messages, deleted ${between(1, 10)} (batch ${hex(8)})`],
    ["warn", 15, () => `Message ${hex(8)}-${hex(4)} visibility timeout expired, returned to queue`],
    ["error", 5, () => `Message ${hex(8)}-${hex(4)} moved to dead-letter queue after 5 receives`],
  ],
  "file-storage": [
    [
      "info",
      85,
      () =>
        `${pick(["PUT", "GET", "GET", "DELETE"])} /uploads/${hex(12)}.jpg 200 ${between(100, 900000)} bytes`,
    ],
    ["warn", 10, () => `GET /exports/${hex(8)}.csv 403 AccessDenied`],
    ["error", 5, () => `PUT /backups/${hex(8)}.tar.gz 500 RequestTimeout: Your socket connection timed out`],
  ],
  "nosql-database": [
    ["info", 80, () => `Query consumed ${between(1, 50)} RCU, returned ${between(0, 100)} items`],
    ["warn", 15, () => `ProvisionedThroughputExceededException on PutItem, retry ${between(1, 3)}`],
    ["error", 5, () => `RequestTimeout on BatchWriteItem after ${between(5000, 10000)}ms`],
  ],
  serverless: [
    [
      "info",
      40,
      () => `START RequestId: ${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)} Version: $LATEST`,
    ],
    [
      "info",
      40,
      () =>
        `REPORT RequestId: ${hex(8)}-${hex(4)} Duration: ${between(1, 3000)}.${between(10, 99)} ms Billed Duration: ${between(1, 3000)} ms Memory Size: 256 MB Max Memory Used: ${between(60, 250)} MB`,
    ],
    ["error", 10, () => `Task timed out after ${pick([10, 30, 60])}.00 seconds`],
    [
      "warn",
      10,
      () =>
        `INIT_REPORT Init Duration: ${between(100, 3000)}.${between(10, 99)} ms Phase: init Status: timeout`,
    ],
  ],
  kubernetes: [
    [
      "info",
      60,
      () =>
        `Successfully assigned default/${hex(6)} to ip-10-0-${between(0, 9)}-${between(2, 250)}.ec2.internal`,
    ],
    ["info", 20, () => `Scaled up replica set web-${hex(9)} to ${between(1, 9)}`],
    [
      "warn",
      15,
      () =>
        `Readiness probe failed: Get "http://10.0.${between(0, 9)}.${between(2, 250)}:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    ],
    ["error", 5, () => `Back-off restarting failed container app in pod web-${hex(9)}-${podSuffix()}`],
  ],
  "control-plane": [
    [
      "info",
      80,
      () =>
        `kube-apiserver: audit: verb=list resource=pods user=system:serviceaccount:kube-system:${pick(["coredns", "aws-node"])}`,
    ],
    ["warn", 15, () => `etcd: apply request took too long (${between(100, 900)}ms) to execute`],
    [
      "error",
      5,
      () =>
        `kube-apiserver: Timeout: request did not complete within requested timeout - context deadline exceeded`,
    ],
  ],
  network: [
    [
      "info",
      90,
      () =>
        `ACCEPT 10.0.${between(0, 9)}.${between(2, 250)} -> 10.0.${between(0, 9)}.${between(2, 250)}:${pick([443, 5432, 6379])} tcp ${between(1, 90)} packets`,
    ],
    ["warn", 10, () => `REJECT 203.0.113.${between(1, 250)} -> 10.0.0.${between(2, 250)}:22 tcp 1 packets`],
  ],
  tls: [
    ["info", 90, () => `Certificate status check: ISSUED, expires in ${between(30, 390)} days`],
    ["warn", 10, () => `DNS validation record not found yet for _${hex(32)}.acme.example.com (timeout 72h)`],
  ],
};

function renderLine(type: ServiceType): { level: "error" | "warn" | "info" | "debug"; message: string } {
  const templates = logTemplates[type];
  const total = templates.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [level, weight, render] of templates) {
    roll -= weight;
    if (roll < 0) return { level, message: render() };
  }
  const [level, , render] = templates[0] as LogTemplate;
  return { level, message: render() };
}

// ---------------------------------------------------------------------------------------------------------------

async function insertInBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += size) await insert(rows.slice(start, start + size));
}

const startedAt = Date.now();
const now = new Date();
const phase = (name: string) =>
  process.env.BENCH_DEBUG && console.info(`seed: ${name} at ${Date.now() - startedAt} ms`);
const database = await openDb({ dataDir });
try {
  const { db } = database;
  phase("migrated");
  await ensureRoles(db);
  await seedDemoData(db, { secrets: secretCipherFor({ dataDir }) });
  phase("demo data");
  const [acme] = await db.select().from(organizations).where(eq(organizations.id, "org_acme"));
  if (!acme) throw new Error("the demo organization Acme Corp is missing");
  const existing = await db
    .select({ id: environments.id })
    .from(environments)
    .where(eq(environments.name, ENVIRONMENT_NAME));
  if (existing.length)
    throw new Error(`an environment named ${ENVIRONMENT_NAME} exists already: use a fresh DATA_DIR`);

  const [environment] = await db
    .insert(environments)
    .values({
      tenantId: acme.tenantId,
      name: ENVIRONMENT_NAME,
      cloudProvider: "AWS",
      region: "us-east-1",
      enabledAddons: ["observability", "log-retention"],
      createdAt: new Date(now.getTime() - 90 * DAY),
    })
    .returning();
  if (!environment) throw new Error("the bench environment was not created");

  // One small archive that every serverless function points at (the smallest valid zip: an empty one).
  const emptyZip = Buffer.from("504b0506000000000000000000000000000000000000", "hex");
  const [upload] = await db
    .insert(serverlessUploads)
    .values({
      environmentId: environment.id,
      fileName: "function.zip",
      sizeBytes: emptyZip.length,
      sha256: createHash("sha256").update(emptyZip).digest("hex"),
      content: emptyZip.toString("base64"),
    })
    .returning();
  if (!upload) throw new Error("the serverless upload was not created");

  // Services, created over the last 90 days; the hot one is an application that every run opens.
  type ServiceRow = typeof resources.$inferInsert & {
    id: string;
    deployed: boolean;
    pods: { name: string; status: string }[];
  };
  const services: ServiceRow[] = [];
  const names = new Set<string>();
  for (let index = 0; index < SERVICE_COUNT; index++) {
    const [type, suffix] = index === 0 ? (["application", "api"] as [ServiceType, string]) : pickType();
    let name = index === 0 ? HOT_SERVICE_NAME : `${domains[index % domains.length]}-${suffix}`;
    for (let replica = 2; names.has(name); replica++)
      name = `${domains[index % domains.length]}-${suffix}-${replica}`;
    names.add(name);
    const config = serviceConfigSchemas[type].parse(configFor(type, name, index, upload.id)) as Record<
      string,
      unknown
    >;
    const settings = serviceSettingsSchema.parse(settingsFor(type));
    const { stage, deployed, pendingDraft } =
      index === 0 ? { stage: "STAGE_COMPLETED" as Stage, deployed: true, pendingDraft: false } : pickStage();
    const createdAt = new Date(now.getTime() - between(2, 90 * 24) * HOUR);
    const deployedAt = deployed ? new Date(createdAt.getTime() + between(5, 30) * 60_000) : null;
    const podCount = index === 0 ? 3 : settings.scaling.minInstances;
    const replicaSet = hex(9);
    const pods = deployed
      ? Array.from({ length: podCount }, () => ({
          name: `${name}-${replicaSet}-${podSuffix()}`,
          status: "Running",
        }))
      : [];
    const [low, high] = monthlyCostCents[type];
    const failed = stage === "STAGE_FAILED";
    services.push({
      id: randomUUID(),
      environmentId: environment.id,
      name,
      serviceType: type,
      stage,
      version: between(1, 12),
      config,
      settings,
      draft: pendingDraft
        ? {
            config,
            settings: {
              ...settings,
              scaling: { ...settings.scaling, maxInstances: settings.scaling.maxInstances + 1 },
            },
          }
        : null,
      retries: failed ? between(0, 3) : 0,
      message: failed ? pick(failureMessages) : null,
      monthlyCost: stage === "STAGE_DRAFT" || stage === "STAGE_CANCELED" ? 0 : between(low, high),
      endpoint: deployed ? endpointFor(type, name, config) : null,
      pods,
      sealedAttributes: null,
      // Runtime lines up to now are in the table already: the driver only adds what comes after.
      logsWrittenUntil: deployed ? now : null,
      deployedAt,
      createdAt,
      updatedAt: deployedAt ?? createdAt,
      deployed,
    });
  }
  await insertInBatches(services, 200, (batch) =>
    db.insert(resources).values(batch.map(({ deployed: _deployed, ...row }) => row)),
  );

  phase("services");
  const history: (typeof resourceHistory.$inferInsert)[] = [];
  for (const service of services) {
    const createdAt = service.createdAt as Date;
    if (service.stage === "STAGE_DRAFT") {
      history.push({
        resourceId: service.id,
        action: "Save",
        actor: ACTOR,
        at: createdAt,
        outcome: null,
        podNames: [],
      });
      continue;
    }
    const finished = new Date(createdAt.getTime() + between(3, 25) * 60_000);
    const outcome: Stage =
      service.stage === "STAGE_CANCELED"
        ? "STAGE_CANCELED"
        : service.stage === "STAGE_FAILED" && !service.deployed
          ? "STAGE_FAILED"
          : "STAGE_COMPLETED";
    history.push({
      resourceId: service.id,
      action: "Create",
      actor: ACTOR,
      at: createdAt,
      outcome,
      finishedAt: finished,
      podNames: outcome === "STAGE_COMPLETED" ? service.pods.map((pod) => pod.name) : [],
    });
    if (service.deployed && random() < 0.5) {
      const at = new Date(finished.getTime() + between(1, 48) * HOUR);
      history.push({
        resourceId: service.id,
        action: "Relaunch",
        actor: pick([ACTOR, "Bob Stone"]),
        at,
        outcome: service.stage === "STAGE_FAILED" ? "STAGE_FAILED" : "STAGE_COMPLETED",
        finishedAt: new Date(at.getTime() + between(3, 15) * 60_000),
        podNames: service.pods.map((pod) => pod.name),
        diff: [{ path: "settings.scaling.maxInstances", before: 2, after: 3 }],
      });
    }
    if (service.draft) {
      history.push({
        resourceId: service.id,
        action: "Save",
        actor: ACTOR,
        at: new Date(now.getTime() - HOUR),
        outcome: null,
        podNames: [],
      });
    }
  }
  await insertInBatches(history, 500, (batch) => db.insert(resourceHistory).values(batch));

  phase("history");
  // Log lines over the last 24 hours, spread over the running services' pods; the hot service gets its share.
  const running = services.filter((service) => service.deployed);
  const hot = services[0] as ServiceRow;
  const hotLines = Math.round(LOG_LINE_COUNT * HOT_SERVICE_LOG_SHARE);
  const lines: (typeof resourceLogs.$inferInsert)[] = [];
  for (let index = 0; index < LOG_LINE_COUNT; index++) {
    const service = index < hotLines ? hot : (running[index % running.length] as ServiceRow);
    const { level, message } = renderLine(service.serviceType as ServiceType);
    lines.push({
      resourceId: service.id,
      at: new Date(now.getTime() - Math.floor(random() * DAY)),
      podName: pick(service.pods).name,
      level,
      message,
    });
  }
  // Ids follow time, as they do when lines are written as they come.
  lines.sort((a, b) => (a.at as Date).getTime() - (b.at as Date).getTime());
  // One array parameter per column (unnest) rather than one parameter per value: several times faster on PGlite.
  await insertInBatches(lines, 10_000, (batch) => {
    const column = <K extends keyof (typeof lines)[number]>(key: K) =>
      sql.param(
        batch.map((line) => (line[key] instanceof Date ? (line[key] as Date).toISOString() : line[key])),
      );
    return db.execute(
      sql`insert into ${resourceLogs} (resource_id, at, pod_name, level, message)
        select * from unnest(${column("resourceId")}::uuid[], ${column("at")}::timestamptz[], ${column("podName")}::text[],
          ${column("level")}::text[], ${column("message")}::text[])`,
    );
  });

  phase("log lines");
  const timeoutLines = lines.filter(
    (line) => line.resourceId === hot.id && /timeout/i.test(line.message),
  ).length;
  const summary = {
    tenantId: acme.tenantId,
    organizationId: acme.id,
    environmentId: environment.id,
    environmentName: ENVIRONMENT_NAME,
    services: services.length,
    logLines: lines.length,
    history: history.length,
    hotService: { id: hot.id, name: hot.name, logLines: hotLines, timeoutLines },
    seededInMs: Date.now() - startedAt,
  };
  writeFileSync(outputFile, `${JSON.stringify(summary, null, 2)}\n`);
  console.info(
    `seed: ${summary.services} services, ${summary.logLines} log lines (${hotLines} in ${hot.name}) in ${summary.seededInMs} ms`,
  );
} finally {
  await database.close();
}
