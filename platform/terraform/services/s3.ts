import type { PublicAccessBlockConfiguration, ServerSideEncryptionRule, Tag } from "@aws-sdk/client-s3";
import { attributes, block, Reference, tagsOf, type ScannedResource } from "../model";
import type { AwsClients } from "../../cloud/aws/clients";
import { isAwsError } from "../../cloud/aws/aws-errors";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";

export type S3Bucket = {
  name: string;
  region: string;
  tags: Tag[];
  /** Enabled or Suspended; absent for a bucket whose versioning was never turned on. */
  versioning?: string;
  /** Default encryption rules; absent when the bucket has none. */
  encryption?: ServerSideEncryptionRule[];
  /** The bucket's own public access block; absent when it has none. */
  publicAccessBlock?: PublicAccessBlockConfiguration;
};
export type S3Inventory = { buckets: S3Bucket[] };

const service = "s3";

/** GetBucketLocation answers null for us-east-1 and "EU" for the oldest Irish buckets. */
export function bucketRegion(locationConstraint: string | undefined | null): string {
  if (!locationConstraint) return "us-east-1";
  if (locationConstraint === "EU") return "eu-west-1";
  return locationConstraint;
}

/** The answer of a per-bucket read, or undefined when S3 says the bucket has no such configuration. */
async function optional<Result>(
  read: () => Promise<Result>,
  ...absent: string[]
): Promise<Result | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isAwsError(error, ...absent)) return undefined;
    throw error;
  }
}

/** Tags, versioning, default encryption and public access block of one bucket. */
async function bucketDetails(
  clients: AwsClients,
  bucket: string,
): Promise<Omit<S3Bucket, "name" | "region">> {
  const {
    GetBucketEncryptionCommand,
    GetBucketTaggingCommand,
    GetBucketVersioningCommand,
    GetPublicAccessBlockCommand,
  } = await import("@aws-sdk/client-s3");
  const client = await clients.s3();
  const [tagging, versioning, encryption, publicAccess] = await Promise.all([
    optional(
      () => client.send(new GetBucketTaggingCommand({ Bucket: bucket })),
      "NoSuchTagSet",
      "NoSuchTagSetError",
    ),
    client.send(new GetBucketVersioningCommand({ Bucket: bucket })),
    optional(
      () => client.send(new GetBucketEncryptionCommand({ Bucket: bucket })),
      "ServerSideEncryptionConfigurationNotFoundError",
    ),
    optional(
      () => client.send(new GetPublicAccessBlockCommand({ Bucket: bucket })),
      "NoSuchPublicAccessBlockConfiguration",
    ),
  ]);
  return {
    tags: tagging?.TagSet ?? [],
    ...(versioning.Status ? { versioning: versioning.Status } : {}),
    ...(encryption?.ServerSideEncryptionConfiguration?.Rules?.length
      ? { encryption: encryption.ServerSideEncryptionConfiguration.Rules }
      : {}),
    ...(publicAccess?.PublicAccessBlockConfiguration
      ? { publicAccessBlock: publicAccess.PublicAccessBlockConfiguration }
      : {}),
  };
}

/** The bucket's settings that Terraform (AWS provider 4 and later) manages as resources of their own. */
function bucketParts(bucket: S3Bucket): ScannedResource[] {
  const part = (type: string, body: ScannedResource["body"]): ScannedResource => ({
    service,
    type,
    awsId: bucket.name,
    importId: bucket.name,
    nameHint: bucket.name,
    body: [...attributes({ bucket: new Reference("aws_s3_bucket", bucket.name) }), ...body],
    partOf: { type: "aws_s3_bucket", awsId: bucket.name },
  });
  const parts: ScannedResource[] = [];
  if (bucket.versioning) {
    parts.push(
      part("aws_s3_bucket_versioning", [
        block("versioning_configuration", attributes({ status: bucket.versioning })),
      ]),
    );
  }
  if (bucket.encryption) {
    parts.push(
      part(
        "aws_s3_bucket_server_side_encryption_configuration",
        bucket.encryption.map((rule) =>
          block("rule", [
            ...attributes({ bucket_key_enabled: rule.BucketKeyEnabled || undefined }),
            ...(rule.ApplyServerSideEncryptionByDefault
              ? [
                  block(
                    "apply_server_side_encryption_by_default",
                    attributes({
                      sse_algorithm: rule.ApplyServerSideEncryptionByDefault.SSEAlgorithm,
                      kms_master_key_id: rule.ApplyServerSideEncryptionByDefault.KMSMasterKeyID,
                    }),
                  ),
                ]
              : []),
          ]),
        ),
      ),
    );
  }
  if (bucket.publicAccessBlock) {
    const settings = bucket.publicAccessBlock;
    parts.push(
      part(
        "aws_s3_bucket_public_access_block",
        attributes({
          block_public_acls: settings.BlockPublicAcls ?? false,
          block_public_policy: settings.BlockPublicPolicy ?? false,
          ignore_public_acls: settings.IgnorePublicAcls ?? false,
          restrict_public_buckets: settings.RestrictPublicBuckets ?? false,
        }),
      ),
    );
  }
  return parts;
}

export const s3Scanner: ServiceScanner<S3Inventory> = {
  service,
  permissions: [
    "s3:ListAllMyBuckets",
    "s3:GetBucketLocation",
    "s3:GetBucketTagging",
    "s3:GetBucketVersioning",
    "s3:GetEncryptionConfiguration",
    "s3:GetBucketPublicAccessBlock",
  ],

  /** Bucket names are global; only the buckets located in the scanned region are kept. */
  async read(clients) {
    const { GetBucketLocationCommand, paginateListBuckets } = await import("@aws-sdk/client-s3");
    const client = await clients.s3();
    const listed = await collect(paginateListBuckets({ client }, {}), (page) => page.Buckets);
    const located = await mapWithConcurrency(listed, 4, async (bucket) => {
      const name = bucket.Name ?? "";
      const location = await client.send(new GetBucketLocationCommand({ Bucket: name }));
      return { name, region: bucketRegion(location.LocationConstraint) };
    });
    const inRegion = located.filter((bucket) => bucket.name && bucket.region === clients.region);
    const buckets = await mapWithConcurrency(inRegion, 4, async (bucket) => ({
      ...bucket,
      ...(await bucketDetails(clients, bucket.name)),
    }));
    return { buckets };
  },

  toResources(raw) {
    return raw.buckets.flatMap((bucket): ScannedResource[] => [
      {
        service,
        type: "aws_s3_bucket",
        awsId: bucket.name,
        importId: bucket.name,
        nameHint: bucket.name,
        body: attributes({ bucket: bucket.name, tags: tagsOf(bucket.tags) }),
      },
      ...bucketParts(bucket),
    ]);
  },
};
