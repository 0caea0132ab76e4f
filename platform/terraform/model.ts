/**
 * What a scan produces: AWS resources described as Terraform resources (type, readable name, import id and the
 * arguments of their configuration), independent of how they were found (the AWS SDK or the demo inventory).
 */

/** One folder of the generated archive per service (AWS's grouping, so each folder is one small root module). */
export const serviceNames = [
  "vpc",
  "ec2",
  "s3",
  "rds",
  "elasticache",
  "dynamodb",
  "sqs",
  "sns",
  "lambda",
  "ecr",
  "eks",
  "ecs",
  "elbv2",
  "iam",
  "route53",
  "acm",
  "secretsmanager",
  "logs",
] as const;
export type ServiceName = (typeof serviceNames)[number];

/**
 * An argument that names another resource. The writer renders it as `aws_vpc.main.id` when the target is
 * exported to the same folder, and as `literal` (the AWS value) otherwise.
 */
export class Reference {
  constructor(
    readonly targetType: string,
    readonly targetId: string,
    readonly attribute: string = "id",
    readonly literal: string = targetId,
  ) {}
}

/** A Terraform function call such as `jsonencode({...})`. */
export class FunctionCall {
  constructor(
    readonly name: string,
    readonly args: HclValue[],
  ) {}
}

/** A bare expression the writer emits as is (for example `[filename, source_code_hash]` in `ignore_changes`). */
export class Expression {
  constructor(readonly text: string) {}
}

export type HclValue =
  | string
  | number
  | boolean
  | null
  | Reference
  | FunctionCall
  | Expression
  | HclValue[]
  | { [key: string]: HclValue };

export type HclAttribute = { kind: "attribute"; name: string; value: HclValue };
export type HclBlock = { kind: "block"; type: string; body: HclBody };
export type HclBody = (HclAttribute | HclBlock)[];

export type ScannedResource = {
  service: ServiceName;
  /** The Terraform resource type, e.g. aws_subnet. */
  type: string;
  /** The AWS identity other resources refer to it by (an id, a name or an ARN, as their arguments carry it). */
  awsId: string;
  /** What `terraform import` expects for this type. */
  importId: string;
  /** The human name the Terraform resource name is made from: the Name tag, or the resource's own name. */
  nameHint: string;
  body: HclBody;
  /**
   * The resource this one is a part of and cannot exist without (a route table's association, a bucket's
   * versioning): it carries no tags of its own, so an export limited to tagged resources keeps it with its owner.
   */
  partOf?: { type: string; awsId: string };
  /**
   * The resource's AWS tags, when the scan reads them with the resource (EKS, DynamoDB): an environment's export
   * recognizes its resources by them as well as by the Resource Groups Tagging API.
   */
  tags?: Record<string, string>;
};

/** A service the scan could not read (no permission, not enabled in the region), named in the archive's README. */
export type SkippedService = { service: ServiceName; reason: string };

export type Inventory = { resources: ScannedResource[]; skipped: SkippedService[] };

/** Attributes from a record, in its order; undefined values and empty lists or maps are left out. */
export function attributes(record: Record<string, HclValue | undefined>): HclAttribute[] {
  const result: HclAttribute[] = [];
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (isPlainMap(value) && Object.keys(value).length === 0) continue;
    result.push({ kind: "attribute", name, value });
  }
  return result;
}

export function block(type: string, body: HclBody): HclBlock {
  return { kind: "block", type, body };
}

export function isPlainMap(value: HclValue | undefined): value is { [key: string]: HclValue } {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Reference) &&
    !(value instanceof FunctionCall) &&
    !(value instanceof Expression)
  );
}

/** AWS tags as a Terraform `tags` map; AWS-managed `aws:` tags cannot be set and are left out. */
export function tagsOf(tags: { Key?: string; Value?: string }[] | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const { Key, Value } of tags ?? []) {
    if (Key && !Key.startsWith("aws:")) result[Key] = Value ?? "";
  }
  return result;
}

export function nameTagOf(tags: { Key?: string; Value?: string }[] | undefined): string | undefined {
  return tags?.find((tag) => tag.Key === "Name")?.Value || undefined;
}
