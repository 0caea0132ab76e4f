import * as z from "zod";
import { applicationConfigFieldsSchema, defaultApplicationConfig } from "./application-config";
import { type ServiceType } from "./service-catalogue";
import { choice, domainSchema, int } from "./services";
import { requiredText } from "./required-text";
import { messages, servicePatterns } from "./validation";

/**
 * Each service type's configuration (what its create form and configuration tab edit) and what a create page starts
 * with. A module of its own so that the pages that only list or show services do not download every type's rules
 * (the first-visit budget, decision 014): only the create and configuration forms, and the platform, import it.
 */
/** An IPv4 network in CIDR notation whose address has no bits beyond its prefix, /16 to /24. */
export const cidrBlockSchema = requiredText("CIDR block", { max: 18 }).refine((value) => {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(value);
  if (!match) return false;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((octet) => octet > 255) || prefix < 16 || prefix > 24) return false;
  const address = octets.reduce((sum, octet) => sum * 256 + octet, 0);
  return address % 2 ** (32 - prefix) === 0;
}, "CIDR block must be an IPv4 network such as 10.0.0.0/16, with a prefix from /16 to /24");

// ---------------------------------------------------------------------------------------------------------------
// Each type's configuration: catalogues, schema and defaults

export const databaseEngines = {
  postgres: ["17", "16", "15"],
  mysql: ["8.4", "8.0"],
  mariadb: ["11.4", "10.11"],
};
export const databaseInstanceSizes = [
  "db.t4g.micro",
  "db.t4g.small",
  "db.t4g.medium",
  "db.m7g.large",
  "db.m7g.xlarge",
  "db.r7g.large",
] as const;
export const databaseConfigSchema = z
  .object({
    engine: choice("Engine", ["postgres", "mysql", "mariadb"]),
    version: requiredText("Version", { max: 10 }),
    instanceSize: choice("Instance size", databaseInstanceSizes),
    storageGb: int("Storage (GB)", 20, 16_384),
    multiAz: z.boolean(),
    username: requiredText("Master username", { max: 16 }).regex(
      servicePatterns.lowercaseStartingWithLetter.regex,
      servicePatterns.lowercaseStartingWithLetter.message,
    ),
    backupRetentionDays: int("Backup retention (days)", 0, 35),
  })
  .refine((config) => databaseEngines[config.engine].includes(config.version), {
    path: ["version"],
    message: "Version is not offered for this engine",
  });

export const cacheEngines = { redis: ["7.1", "6.2"], valkey: ["8.0", "7.2"], memcached: ["1.6"] };
export const cacheNodeSizes = [
  "cache.t4g.micro",
  "cache.t4g.small",
  "cache.t4g.medium",
  "cache.m7g.large",
  "cache.r7g.large",
] as const;
export const cacheConfigSchema = z
  .object({
    engine: choice("Engine", ["redis", "valkey", "memcached"]),
    version: requiredText("Version", { max: 10 }),
    nodeSize: choice("Node size", cacheNodeSizes),
    nodes: int("Nodes", 1, 6),
    encryptionInTransit: z.boolean(),
  })
  .refine((config) => cacheEngines[config.engine].includes(config.version), {
    path: ["version"],
    message: "Version is not offered for this engine",
  });

export const queueConfigSchema = z.object({
  queueType: choice("Queue type", ["standard", "fifo"]),
  visibilityTimeoutSeconds: int("Visibility timeout (seconds)", 0, 43_200),
  messageRetentionDays: int("Message retention (days)", 1, 14),
  deadLetterQueue: z.boolean(),
  maxReceiveCount: int("Maximum receives", 1, 1000),
});

export const storageClasses = ["standard", "infrequent-access", "archive"] as const;
export const fileStorageConfigSchema = z.object({
  bucketName: requiredText("Bucket name", { min: 3, max: 63 }).regex(
    servicePatterns.lowercaseWithPeriods.regex,
    servicePatterns.lowercaseWithPeriods.message,
  ),
  storageClass: choice("Storage class", storageClasses),
  versioning: z.boolean(),
  publicAccess: z.boolean(),
});

export const nosqlDatabaseConfigSchema = z
  .object({
    tableName: requiredText("Table name", { min: 3, max: 255 }).regex(
      servicePatterns.identifier.regex,
      servicePatterns.identifier.message,
    ),
    partitionKey: requiredText("Partition key", { max: 255 }).regex(
      servicePatterns.identifier.regex,
      servicePatterns.identifier.message,
    ),
    sortKey: z
      .string()
      .trim()
      .max(255, `Sort key ${messages.max(255)}`)
      .regex(new RegExp(`${servicePatterns.identifier.regex.source}|^$`), servicePatterns.identifier.message),
    billingMode: choice("Billing mode", ["on-demand", "provisioned"]),
    readCapacityUnits: int("Read capacity units", 1, 40_000),
    writeCapacityUnits: int("Write capacity units", 1, 40_000),
  })
  .refine((config) => config.sortKey !== config.partitionKey, {
    path: ["sortKey"],
    message: "Sort key must differ from the partition key",
  });

export const serverlessRuntimes = [
  "nodejs22.x",
  "nodejs20.x",
  "python3.13",
  "python3.12",
  "java21",
  "provided.al2023",
] as const;
export const serverlessConfigSchema = z.object({
  runtime: choice("Runtime", serverlessRuntimes),
  handler: requiredText("Handler", { max: 128 }).regex(
    /^[A-Za-z0-9_.$:/-]+$/,
    "Handler must be a file and function such as index.handler",
  ),
  memoryMb: int("Memory (MB)", 128, 10_240),
  timeoutSeconds: int("Timeout (seconds)", 1, 900),
  /** The archive uploaded with POST infrastructure/serverless/upload. */
  uploadId: z
    .string({ error: "Upload a function archive (.zip)" })
    .min(1, "Upload a function archive (.zip)"),
});

export const kubernetesVersions = ["1.33", "1.32", "1.31"] as const;
export const kubernetesNodeTypes = [
  "t3.medium",
  "t3.large",
  "m7i.large",
  "m7i.xlarge",
  "c7i.xlarge",
] as const;
export const kubernetesConfigSchema = z
  .object({
    version: choice("Kubernetes version", kubernetesVersions),
    nodeInstanceType: choice("Node instance type", kubernetesNodeTypes),
    minNodes: int("Minimum nodes", 1, 100),
    maxNodes: int("Maximum nodes", 1, 100),
  })
  .refine((config) => config.minNodes <= config.maxNodes, {
    path: ["maxNodes"],
    message: "Maximum nodes must be at least the minimum",
  });

export const controlPlaneConfigSchema = z.object({
  version: choice("Kubernetes version", kubernetesVersions),
  endpointAccess: choice("Endpoint access", ["public", "private", "public-and-private"]),
  controlPlaneLogging: z.boolean(),
});

export const networkConfigSchema = z.object({
  cidrBlock: cidrBlockSchema,
  availabilityZones: int("Availability zones", 2, 3),
  natGateways: choice("NAT gateways", ["single", "one-per-zone"]),
});

export const tlsConfigSchema = z.object({
  domain: domainSchema("Domain", { wildcard: true }),
  subjectAlternativeNames: z
    .array(domainSchema("Alternative name", { wildcard: true }))
    .max(10, "At most 10 alternative names"),
  validationMethod: choice("Validation method", ["dns", "email"]),
});

export const serviceConfigSchemas = {
  database: databaseConfigSchema,
  cache: cacheConfigSchema,
  queue: queueConfigSchema,
  "file-storage": fileStorageConfigSchema,
  "nosql-database": nosqlDatabaseConfigSchema,
  serverless: serverlessConfigSchema,
  kubernetes: kubernetesConfigSchema,
  "control-plane": controlPlaneConfigSchema,
  network: networkConfigSchema,
  tls: tlsConfigSchema,
  // Without the Helm values' YAML check: contract/applications.ts's applicationConfigSchema checks it in full (it
  // brings a YAML parser the services pages do without).
  application: applicationConfigFieldsSchema,
} as const satisfies Record<ServiceType, z.ZodType>;
export type ServiceConfig<T extends ServiceType = ServiceType> = z.infer<(typeof serviceConfigSchemas)[T]>;

/** What a create page starts with; a serverless function's upload id comes from its upload. */
export const defaultServiceConfigs: { [T in ServiceType]: Omit<ServiceConfig<T>, "uploadId"> } = {
  database: {
    engine: "postgres",
    version: "17",
    instanceSize: "db.t4g.micro",
    storageGb: 20,
    multiAz: false,
    username: "admin",
    backupRetentionDays: 7,
  },
  cache: {
    engine: "redis",
    version: "7.1",
    nodeSize: "cache.t4g.micro",
    nodes: 1,
    encryptionInTransit: true,
  },
  queue: {
    queueType: "standard",
    visibilityTimeoutSeconds: 30,
    messageRetentionDays: 4,
    deadLetterQueue: true,
    maxReceiveCount: 5,
  },
  "file-storage": { bucketName: "", storageClass: "standard", versioning: true, publicAccess: false },
  "nosql-database": {
    tableName: "",
    partitionKey: "id",
    sortKey: "",
    billingMode: "on-demand",
    readCapacityUnits: 5,
    writeCapacityUnits: 5,
  },
  serverless: { runtime: "nodejs22.x", handler: "index.handler", memoryMb: 256, timeoutSeconds: 30 },
  kubernetes: { version: "1.33", nodeInstanceType: "t3.large", minNodes: 2, maxNodes: 5 },
  "control-plane": { version: "1.33", endpointAccess: "public-and-private", controlPlaneLogging: true },
  network: { cidrBlock: "10.0.0.0/16", availabilityZones: 3, natGateways: "single" },
  tls: { domain: "", subjectAlternativeNames: [], validationMethod: "dns" },
  application: defaultApplicationConfig,
};
