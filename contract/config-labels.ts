import type { CreatableServiceType } from "./service-catalogue";

/**
 * The words of each type's configuration fields and choices: one catalogue for the create forms, the configuration
 * tab and a change's plan, so that a plan says "Queue type: Standard → FIFO" in the words the user chose it in
 * (issue 24 §1). It holds no schema, so a page that only shows a plan does not download every type's rules. An
 * application's words are in application-labels.ts: the create pages of the other types do without them (their
 * first-visit budget, decision 014).
 */

/**
 * Each field's label by its key in the configuration of a type other than an application, where it is not simply
 * the key's words ("instanceSize" reads "Instance size" without an entry).
 */
const serviceFieldLabels: Record<string, string> = {
  storageGb: "Storage (GB)",
  multiAz: "Multi-AZ",
  username: "Master username",
  backupRetentionDays: "Backup retention (days)",
  visibilityTimeoutSeconds: "Visibility timeout (seconds)",
  messageRetentionDays: "Message retention (days)",
  deadLetterQueue: "Dead-letter queue",
  maxReceiveCount: "Maximum receives",
  memoryMb: "Memory (MB)",
  timeoutSeconds: "Timeout (seconds)",
  minNodes: "Minimum nodes",
  maxNodes: "Maximum nodes",
  cidrBlock: "CIDR block",
  natGateways: "NAT gateways",
  subjectAlternativeNames: "Alternative names",
};

/** Where a type names a field its own way. */
const typeFieldLabels: Partial<Record<CreatableServiceType, Record<string, string>>> = {
  kubernetes: { version: "Kubernetes version" },
  "control-plane": { version: "Kubernetes version" },
};

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
};

/** A key's words when the catalogue has none: "maxReceiveCount" → "Max receive count". */
export function wordsOf(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label of the configuration field `key` ("storageGb") of `serviceType`. */
export function configFieldLabel(serviceType: CreatableServiceType, key: string): string {
  return typeFieldLabels[serviceType]?.[key] ?? serviceFieldLabels[key] ?? wordsOf(key);
}

/** The words of the choice `value` of the field `key` ("fifo" → "FIFO"); a choice not named here as it is. */
export function configChoiceLabel(key: string, value: string): string {
  return choiceLabels[key]?.[value] ?? value;
}

/** A select's options for the choices `values` of the field at `key`, in the catalogue's words. */
export function configOptions(key: string, values: readonly string[]) {
  return values.map((value) => ({ value, label: configChoiceLabel(key, value) }));
}
