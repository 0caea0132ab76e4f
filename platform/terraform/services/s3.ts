import type { Tag } from "@aws-sdk/client-s3";
import { attributes, tagsOf, type ScannedResource } from "../model";
import type { AwsClients } from "../aws-clients";
import { collect, isAwsError, mapWithConcurrency, type ServiceScanner } from "./service-scanner";

export type S3Bucket = { name: string; region: string; tags: Tag[] };
export type S3Inventory = { buckets: S3Bucket[] };

const service = "s3";

/** GetBucketLocation answers null for us-east-1 and "EU" for the oldest Irish buckets. */
export function bucketRegion(locationConstraint: string | undefined | null): string {
  if (!locationConstraint) return "us-east-1";
  if (locationConstraint === "EU") return "eu-west-1";
  return locationConstraint;
}

async function bucketTags(clients: AwsClients, bucket: string): Promise<Tag[]> {
  const { GetBucketTaggingCommand } = await import("@aws-sdk/client-s3");
  try {
    return (await (await clients.s3()).send(new GetBucketTaggingCommand({ Bucket: bucket }))).TagSet ?? [];
  } catch (error) {
    if (isAwsError(error, "NoSuchTagSet", "NoSuchTagSetError")) return [];
    throw error;
  }
}

export const s3Scanner: ServiceScanner<S3Inventory> = {
  service,
  permissions: ["s3:ListAllMyBuckets", "s3:GetBucketLocation", "s3:GetBucketTagging"],

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
      tags: await bucketTags(clients, bucket.name),
    }));
    return { buckets };
  },

  toResources(raw) {
    return raw.buckets.map(
      (bucket): ScannedResource => ({
        service,
        type: "aws_s3_bucket",
        awsId: bucket.name,
        importId: bucket.name,
        nameHint: bucket.name,
        body: attributes({ bucket: bucket.name, tags: tagsOf(bucket.tags) }),
      }),
    );
  },
};
