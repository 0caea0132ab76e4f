// Apart from config-form.ts, so that what shows a configuration key's label (a change's plan on the pre-deploy tab)
// does not bring every type's configuration schema into the details page's first visit.

/** Labels of the configuration keys; a key not named here is shown as its words ("maxReceiveCount" → "Max receive count"). */
const configLabels: Record<string, string> = {
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
  image: "Image",
};

export function labelOfKey(key: string): string {
  const known = configLabels[key];
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
