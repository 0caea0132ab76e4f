import type { ServiceType } from "./services";

/**
 * The words of each type's configuration fields and choices: one catalogue for the create forms, the configuration
 * tab and a change's plan, so that a plan says "Queue type: Standard → FIFO" in the words the user chose it in
 * (issue 24 §1). It holds no schema, so a page that only shows a plan does not download every type's rules.
 */

/** Each field's label by its path under `config` (an application's nested ones under their group's). */
const fieldLabels: Record<string, string> = {
  engine: "Engine",
  version: "Version",
  instanceSize: "Instance size",
  storageGb: "Storage (GB)",
  multiAz: "Multi-AZ",
  username: "Master username",
  backupRetentionDays: "Backup retention (days)",
  nodeSize: "Node size",
  nodes: "Nodes",
  encryptionInTransit: "Encryption in transit",
  queueType: "Queue type",
  visibilityTimeoutSeconds: "Visibility timeout (seconds)",
  messageRetentionDays: "Message retention (days)",
  deadLetterQueue: "Dead-letter queue",
  maxReceiveCount: "Maximum receives",
  bucketName: "Bucket name",
  storageClass: "Storage class",
  versioning: "Versioning",
  publicAccess: "Public access",
  tableName: "Table name",
  partitionKey: "Partition key",
  sortKey: "Sort key",
  billingMode: "Billing mode",
  readCapacityUnits: "Read capacity units",
  writeCapacityUnits: "Write capacity units",
  runtime: "Runtime",
  handler: "Handler",
  memoryMb: "Memory (MB)",
  timeoutSeconds: "Timeout (seconds)",
  nodeInstanceType: "Node instance type",
  minNodes: "Minimum nodes",
  maxNodes: "Maximum nodes",
  endpointAccess: "Endpoint access",
  controlPlaneLogging: "Control plane logging",
  cidrBlock: "CIDR block",
  availabilityZones: "Availability zones",
  natGateways: "NAT gateways",
  domain: "Domain",
  subjectAlternativeNames: "Alternative names",
  validationMethod: "Validation method",
  // An application's form.
  "source.kind": "Source",
  "source.image": "Image",
  "source.connectionId": "Connection",
  "source.repository": "Repository",
  "source.tag": "Tag",
  "source.branch": "Branch",
  "source.dockerfilePath": "Dockerfile path",
  "source.buildContext": "Build context",
  "source.chartRepositoryId": "Chart repository",
  "source.chart": "Chart",
  "source.version": "Chart version",
  "source.values": "Values (YAML)",
  ports: "Ports",
  envvars: "Environment variables",
  cpu: "CPU (vCPU)",
  scaling: "Scaling",
  "scaling.mode": "Scaling",
  "scaling.replicas": "Replicas",
  "scaling.minReplicas": "Minimum replicas",
  "scaling.maxReplicas": "Maximum replicas",
  "scaling.targetCpuPercent": "Target CPU (%)",
  healthCheck: "Health check",
  "healthCheck.path": "Path",
  "healthCheck.port": "Port",
  "healthCheck.intervalSeconds": "Interval (seconds)",
  "healthCheck.timeoutSeconds": "Timeout (seconds)",
  "healthCheck.healthyThreshold": "Healthy threshold",
  "healthCheck.unhealthyThreshold": "Unhealthy threshold",
  "domain.host": "Domain",
  "domain.certificateId": "TLS certificate",
  preDeployCommand: "Pre-deploy command",
  sidecars: "Sidecar containers",
};

/** Where a type names a field its own way. */
const typeFieldLabels: Partial<Record<ServiceType, Record<string, string>>> = {
  kubernetes: { version: "Kubernetes version" },
  "control-plane": { version: "Kubernetes version" },
};

/** Groups whose fields read with the group's name before theirs in a plan ("Health check: Path"). */
const groupedFields = new Set(["healthCheck"]);

/** The words of the choices a field offers; a choice not named here is shown as it is ("db.t4g.micro"). */
const choiceLabels: Record<string, Record<string, string>> = {
  engine: {
    postgres: "PostgreSQL",
    mysql: "MySQL",
    mariadb: "MariaDB",
    redis: "Redis",
    valkey: "Valkey",
    memcached: "Memcached",
  },
  queueType: { standard: "Standard", fifo: "FIFO" },
  storageClass: { standard: "Standard", "infrequent-access": "Infrequent access", archive: "Archive" },
  billingMode: { "on-demand": "On demand", provisioned: "Provisioned capacity" },
  endpointAccess: { public: "Public", private: "Private", "public-and-private": "Public and private" },
  natGateways: { single: "Single", "one-per-zone": "One per zone" },
  validationMethod: { dns: "DNS record", email: "Email" },
  "source.kind": {
    image: "Public image",
    registry: "Image from a connected registry",
    github: "GitHub repository",
    helm: "Helm chart",
  },
  "scaling.mode": { fixed: "Fixed replicas", autoscaling: "Autoscaling" },
};

/** A key's words when the catalogue has none: "maxReceiveCount" → "Max receive count". */
function wordsOf(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label of the field at `key` (its path under `config`: "storageGb", "healthCheck.path") of `serviceType`. */
export function configFieldLabel(serviceType: ServiceType, key: string): string {
  return typeFieldLabels[serviceType]?.[key] ?? fieldLabels[key] ?? wordsOf(key.split(".").at(-1) ?? key);
}

/** A select's options for the choices `values` of the field at `key`, in the catalogue's words. */
export function configOptions(key: string, values: readonly string[]) {
  return values.map((value) => ({ value, label: choiceLabels[key]?.[value] ?? value }));
}

/**
 * A changed path as a plan shows it: `config.storageGb` → "Storage (GB)", `config.healthCheck.path` → "Health
 * check: Path"; a settings path in its words (`settings.scaling.maxInstances` → "Max instances").
 */
export function changeLabel(serviceType: ServiceType, path: string): string {
  const [part, ...rest] = path.split(".");
  const key = rest.join(".");
  if (part !== "config") return wordsOf(rest.at(-1) ?? path);
  const group = rest[0] ?? "";
  const label = configFieldLabel(serviceType, key);
  return rest.length > 1 && groupedFields.has(group)
    ? `${configFieldLabel(serviceType, group)}: ${label}`
    : label;
}

/** A value as a plan shows it: a choice in the form's words, a switch as on or off, nothing as "none". */
export function changeValue(path: string, value: unknown): string {
  if (value === undefined || value === null || value === "") return "none";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string") return choiceLabels[path.replace(/^config\./, "")]?.[value] ?? value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    return value.map((item) => changeValue("", item)).join(", ");
  }
  if (typeof value === "object") {
    return Object.entries(value)
      .map(([key, inner]) => `${wordsOf(key).toLowerCase()} ${changeValue("", inner)}`)
      .join(" ");
  }
  return JSON.stringify(value);
}
