import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The IAM actions a set of source files asks AWS for: every SDK command class (`CreateDBInstanceCommand`), paginator
 * (`paginateListClusters`) and waiter (`waitUntil…`) named in them, resolved to the `@aws-sdk/client-*` package
 * that exports it and mapped to IAM's name for it. Read from the source text rather than at run time, so a call
 * the tests never reach still counts.
 */

/** The IAM service prefix of each SDK client (not always its name: logs, tag, elasticloadbalancing, ...). */
const iamPrefixes: Record<string, string> = {
  "@aws-sdk/client-acm": "acm",
  "@aws-sdk/client-application-auto-scaling": "application-autoscaling",
  "@aws-sdk/client-cloudwatch": "cloudwatch",
  "@aws-sdk/client-cloudwatch-logs": "logs",
  "@aws-sdk/client-dynamodb": "dynamodb",
  "@aws-sdk/client-ec2": "ec2",
  "@aws-sdk/client-ecr": "ecr",
  "@aws-sdk/client-ecs": "ecs",
  "@aws-sdk/client-eks": "eks",
  "@aws-sdk/client-elastic-load-balancing-v2": "elasticloadbalancing",
  "@aws-sdk/client-elasticache": "elasticache",
  "@aws-sdk/client-iam": "iam",
  "@aws-sdk/client-lambda": "lambda",
  "@aws-sdk/client-rds": "rds",
  "@aws-sdk/client-resource-groups-tagging-api": "tag",
  "@aws-sdk/client-route-53": "route53",
  "@aws-sdk/client-s3": "s3",
  "@aws-sdk/client-secrets-manager": "secretsmanager",
  "@aws-sdk/client-sns": "sns",
  "@aws-sdk/client-sqs": "sqs",
  "@aws-sdk/client-sts": "sts",
};

/**
 * S3 operations whose IAM action has another name (AWS's "Actions, resources and condition keys for Amazon S3"):
 * most S3 calls are authorized by an action named after the permission, not the operation.
 */
const s3Actions: Record<string, string[]> = {
  HeadBucket: ["s3:ListBucket"],
  ListBuckets: ["s3:ListAllMyBuckets"],
  ListObjectVersions: ["s3:ListBucketVersions"],
  ListObjectsV2: ["s3:ListBucket"],
  DeleteObjects: ["s3:DeleteObject", "s3:DeleteObjectVersion"],
  PutBucketLifecycleConfiguration: ["s3:PutLifecycleConfiguration"],
  GetBucketLifecycleConfiguration: ["s3:GetLifecycleConfiguration"],
  DeleteBucketLifecycle: ["s3:PutLifecycleConfiguration"],
  PutBucketEncryption: ["s3:PutEncryptionConfiguration"],
  GetBucketEncryption: ["s3:GetEncryptionConfiguration"],
  PutPublicAccessBlock: ["s3:PutBucketPublicAccessBlock"],
  GetPublicAccessBlock: ["s3:GetBucketPublicAccessBlock"],
  DeletePublicAccessBlock: ["s3:PutBucketPublicAccessBlock"],
  DeleteBucketTagging: ["s3:PutBucketTagging"],
  PutObject: ["s3:PutObject"],
  GetObject: ["s3:GetObject"],
  HeadObject: ["s3:GetObject"],
};

/** The IAM actions of one SDK operation of `client`. */
export function iamActionsOf(client: string, operation: string): string[] {
  const prefix = iamPrefixes[client];
  if (!prefix) throw new Error(`No IAM prefix known for ${client}: add it to iamPrefixes`);
  if (prefix === "s3" && s3Actions[operation]) return s3Actions[operation];
  return [`${prefix}:${operation}`];
}

const require = createRequire(import.meta.url);
const exportsOf = new Map<string, Set<string>>();
function exportedNames(client: string): Set<string> {
  let names = exportsOf.get(client);
  if (!names) {
    names = new Set(Object.keys(require(client) as object));
    exportsOf.set(client, names);
  }
  return names;
}

const clientPattern = /["'](@aws-sdk\/client-[a-z0-9-]+)["']/g;
const callPattern = /\b(?:(\w+)Command|paginate(\w+)|waitUntil(\w+))\b/g;

/** The SDK client packages `text` imports (statically, dynamically or as types). */
function clientsIn(text: string): string[] {
  return [...new Set([...text.matchAll(clientPattern)].map((match) => match[1] ?? ""))];
}

export type SdkCall = { file: string; client: string; operation: string; actions: string[] };

/**
 * Every SDK operation named in `files`. A name is looked up in the clients the file imports, then (for a file
 * that receives a client's module from another, as network-teardown.ts does) in the clients any of the files
 * imports; a name that several of them export fails loudly rather than guessing.
 */
export function sdkCallsIn(files: string[]): SdkCall[] {
  const texts = files.map((file) => ({ file, text: readFileSync(file, "utf8") }));
  const everyClient = [...new Set(texts.flatMap(({ text }) => clientsIn(text)))];
  const calls: SdkCall[] = [];
  for (const { file, text } of texts) {
    const own = clientsIn(text);
    for (const match of text.matchAll(callPattern)) {
      const [name] = match;
      const operation = match[1] ?? match[2] ?? match[3] ?? "";
      // Waiters poll the describe call they are named after (waitUntilDBInstanceAvailable → DescribeDBInstances).
      if (match[3] !== undefined) throw new Error(`${file}: map the waiter ${name} to the call it polls`);
      const exporting = (candidates: string[]) =>
        candidates.filter((client) => exportedNames(client).has(name));
      let clients = exporting(own);
      if (clients.length === 0) clients = exporting(everyClient);
      if (clients.length === 0) continue; // Not an SDK name (a class of the product's own named …Command).
      if (clients.length > 1) throw new Error(`${file}: ${name} is exported by ${clients.join(" and ")}`);
      const client = clients[0] ?? "";
      calls.push({ file, client, operation, actions: iamActionsOf(client, operation) });
    }
  }
  return calls;
}

/** The TypeScript sources of `directory` (not its tests), with their paths. */
export function sourcesIn(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".ts") && !/\.test\.ts$/.test(name))
    .map((name) => path.join(directory, name));
}
