import type { BucketLocationConstraint, Transition } from "@aws-sdk/client-s3";
import type * as S3Sdk from "@aws-sdk/client-s3";
import type { ServiceConfig } from "#contract/service-configs";
import { configOf } from "../configs";
import { ownedBy, partitionOf, tagList, tagRecord, tagsOf } from "./naming";
import type { ApplyResult, DestroyResult, ProvisionContext, Provisioner } from "./provisioner";
import type { Observation } from "../driver";
import {
  ProvisionError,
  isAwsError,
  runSteps,
  unlessMissing,
  type State,
  type Step,
  failingAs,
  changePlanOf,
} from "./common";

/**
 * File storage: an S3 bucket named as the configuration says (bucket names are global, so a name another account
 * holds fails with AWS's BucketAlreadyExists), with default encryption (SSE-S3), versioning as configured, public
 * access blocked unless `publicAccess` (then a bucket policy lets anyone read objects) and a lifecycle rule for
 * the storage class. A bucket cannot be renamed: a new name creates the new bucket first, then deletes the old one,
 * which must be empty (a replacement never deletes objects: it is refused, saying so). Deleting the service (which
 * its user confirmed) empties the bucket and deletes it. No secret: workloads reach the bucket through their IAM roles.
 */

/** The lifecycle rule the storage class becomes; `standard` has none. */
const STORAGE_CLASS_RULE_ID = "cloud-console-storage-class";
/** S3 moves objects to Standard-IA 30 days after creation at the earliest; archived objects go the first night. */
const transitions: Record<Exclude<ServiceConfig<"file-storage">["storageClass"], "standard">, Transition> = {
  "infrequent-access": { Days: 30, StorageClass: "STANDARD_IA" },
  archive: { Days: 0, StorageClass: "GLACIER" },
};
const MISSING = ["NoSuchBucket", "NotFound"];
/** Objects deleted per call while a bucket is emptied (the most DeleteObjects takes). */
const DELETE_BATCH = 1000;

type S3 = { client: S3Sdk.S3Client; sdk: typeof S3Sdk };

async function s3Of(context: ProvisionContext): Promise<S3> {
  return { client: await context.aws.s3(), sdk: await import("@aws-sdk/client-s3") };
}

/**
 * Whether a bucket of this name exists in this account, and whether this service created it (by its tags). A
 * bucket of another account is not this account's business: CreateBucket answers BucketAlreadyExists for it.
 */
async function bucketOwnership(
  s3: S3,
  context: ProvisionContext,
  bucket: string,
): Promise<"ours" | "account" | "none"> {
  const { Buckets = [] } = await s3.client.send(new s3.sdk.ListBucketsCommand({ Prefix: bucket }));
  if (!Buckets.some((listed) => listed.Name === bucket)) return "none";
  const answer = await unlessMissing(
    () => s3.client.send(new s3.sdk.GetBucketTaggingCommand({ Bucket: bucket })),
    "NoSuchTagSet",
  );
  return ownedBy(context, tagRecord(answer?.TagSet)) ? "ours" : "account";
}

function publicReadPolicy(bucket: string, partition: string): string {
  return JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "PublicRead",
        Effect: "Allow",
        Principal: "*",
        Action: "s3:GetObject",
        Resource: `arn:${partition}:s3:::${bucket}/*`,
      },
    ],
  });
}

/** Deletes up to DELETE_BATCH object versions; answers how many were left to delete (0 once empty). */
async function deleteSomeObjects(s3: S3, bucket: string): Promise<number> {
  const listing = await s3.client.send(
    new s3.sdk.ListObjectVersionsCommand({ Bucket: bucket, MaxKeys: DELETE_BATCH }),
  );
  const objects = [...(listing.Versions ?? []), ...(listing.DeleteMarkers ?? [])].map((version) => ({
    Key: version.Key ?? "",
    VersionId: version.VersionId,
  }));
  if (objects.length === 0) return 0;
  await s3.client.send(
    new s3.sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
  );
  return objects.length;
}

/**
 * Refuses to replace a bucket that holds objects (versions included): a replacement deletes the old bucket, and
 * its data must never go silently. Its owner empties it, or keeps the bucket name.
 */
async function refuseReplacingNonEmpty(s3: S3, bucket: string): Promise<void> {
  const listing = await unlessMissing(
    () => s3.client.send(new s3.sdk.ListObjectVersionsCommand({ Bucket: bucket, MaxKeys: DELETE_BATCH })),
    ...MISSING,
  );
  const count = listing?.Versions?.length ?? 0;
  if (count === 0) return;
  const objects = `${listing?.IsTruncated ? "more than " : ""}${count} object${count === 1 ? "" : "s"}`;
  throw new ProvisionError(
    `The bucket ${bucket} holds ${objects} (versions included); a replacement would delete them. Empty it first or keep the bucket name.`,
    "BucketNotEmpty",
    `Replacing the bucket ${bucket}`,
  );
}

/**
 * Deletes the bucket named by `state[key]`. When the service is deleted (`emptying`: the user confirmed the
 * deletion), its objects go first, one batch per call; when a new name replaces it, one that holds objects is
 * refused instead.
 */
function deleteBucketStep(
  s3: S3,
  context: ProvisionContext,
  key: string,
  progress: string,
  { emptying }: { emptying: boolean },
): Step {
  return {
    progress,
    async run(state) {
      const bucket = state[key];
      if (!bucket) return;
      if (!emptying) await refuseReplacingNonEmpty(s3, bucket);
      const deleted = await unlessMissing(() => deleteSomeObjects(s3, bucket), ...MISSING);
      if (deleted) {
        return { waitMs: 0, progress: `Emptying the bucket ${bucket} (${deleted} objects deleted)` };
      }
      await unlessMissing(
        () => s3.client.send(new s3.sdk.DeleteBucketCommand({ Bucket: bucket })),
        ...MISSING,
      );
      context.log("info", `Deleted S3 bucket ${bucket}`);
      return { state: { [key]: "" } };
    },
  };
}

async function apply(context: ProvisionContext): Promise<ApplyResult> {
  const config = configOf(context.resource, "file-storage");
  const bucket = config.bucketName;
  const { region } = context.aws;
  const { partition, dnsSuffix } = partitionOf(region);
  const s3 = await s3Of(context);
  const steps: Step[] = [
    {
      progress: `Creating the bucket ${bucket}`,
      async run(state) {
        // A renamed bucket: the old one goes once the new one stands.
        const previous: State =
          state.bucketName && state.bucketName !== bucket ? { previousBucketName: state.bucketName } : {};
        const ownership = await bucketOwnership(s3, context, bucket);
        if (ownership === "ours") return { state: { ...previous, bucketName: bucket } };
        // Refused before the new bucket exists, so that keeping the old name leaves nothing behind.
        if (previous.previousBucketName) await refuseReplacingNonEmpty(s3, previous.previousBucketName);
        if (ownership === "account") {
          throw new ProvisionError(
            `the bucket ${bucket} already exists in this account and was not created for this service; choose another bucket name`,
            "BucketAlreadyOwnedByYou",
          );
        }
        const tags = tagList(tagsOf(context, "bucket", bucket));
        try {
          await s3.client.send(
            new s3.sdk.CreateBucketCommand({
              Bucket: bucket,
              ObjectOwnership: "BucketOwnerEnforced",
              CreateBucketConfiguration: {
                ...(region === "us-east-1" ? {} : { LocationConstraint: region as BucketLocationConstraint }),
                Tags: tags,
              },
            }),
          );
        } catch (error) {
          // The bucket list lags a bucket created a moment ago (by a call whose state was lost).
          const ours =
            isAwsError(error, "BucketAlreadyOwnedByYou") &&
            (await bucketOwnership(s3, context, bucket)) === "ours";
          if (!ours) throw error;
          return { state: { ...previous, bucketName: bucket } };
        }
        // Endpoints that ignore tags at creation (older regions' behaviour, moto) get them right away.
        await s3.client.send(
          new s3.sdk.PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet: tags } }),
        );
        context.log("info", `Created S3 bucket ${bucket} in ${region}`);
        return { state: { ...previous, bucketName: bucket }, waitMs: 0 };
      },
    },
    {
      progress: "Turning on default encryption",
      async run() {
        await s3.client.send(
          new s3.sdk.PutBucketEncryptionCommand({
            Bucket: bucket,
            ServerSideEncryptionConfiguration: {
              Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
            },
          }),
        );
      },
    },
    {
      progress: config.publicAccess ? "Applying the public bucket policy" : "Blocking public access",
      async run() {
        const block = !config.publicAccess;
        // Public: the block must be off before S3 takes a public policy. Private: the policy goes first.
        if (block) await s3.client.send(new s3.sdk.DeleteBucketPolicyCommand({ Bucket: bucket }));
        await s3.client.send(
          new s3.sdk.PutPublicAccessBlockCommand({
            Bucket: bucket,
            PublicAccessBlockConfiguration: {
              BlockPublicAcls: block,
              IgnorePublicAcls: block,
              BlockPublicPolicy: block,
              RestrictPublicBuckets: block,
            },
          }),
        );
        if (!block) {
          await s3.client.send(
            new s3.sdk.PutBucketPolicyCommand({
              Bucket: bucket,
              Policy: publicReadPolicy(bucket, partition),
            }),
          );
        }
      },
    },
    {
      progress: config.versioning ? "Enabling versioning" : "Configuring versioning",
      async run() {
        const { Status } = await s3.client.send(new s3.sdk.GetBucketVersioningCommand({ Bucket: bucket }));
        // A bucket that was ever versioned can only suspend versioning, never turn it off.
        const wanted = config.versioning ? "Enabled" : Status ? "Suspended" : undefined;
        if (!wanted || wanted === Status) return;
        await s3.client.send(
          new s3.sdk.PutBucketVersioningCommand({
            Bucket: bucket,
            VersioningConfiguration: { Status: wanted },
          }),
        );
        context.log("info", `Versioning of S3 bucket ${bucket}: ${wanted}`);
      },
    },
    {
      progress: "Setting the storage class",
      async run() {
        if (config.storageClass === "standard") {
          await s3.client.send(new s3.sdk.DeleteBucketLifecycleCommand({ Bucket: bucket }));
          return;
        }
        await s3.client.send(
          new s3.sdk.PutBucketLifecycleConfigurationCommand({
            Bucket: bucket,
            LifecycleConfiguration: {
              Rules: [
                {
                  ID: STORAGE_CLASS_RULE_ID,
                  Status: "Enabled",
                  Filter: { Prefix: "" },
                  Transitions: [transitions[config.storageClass]],
                },
              ],
            },
          }),
        );
      },
    },
    deleteBucketStep(s3, context, "previousBucketName", "Deleting the renamed bucket", { emptying: false }),
  ];
  const result = await runSteps(steps, context.state);
  if (!result.done) return result;
  // us-east-1 answers no location constraint.
  const { LocationConstraint } = await s3.client.send(
    new s3.sdk.GetBucketLocationCommand({ Bucket: bucket }),
  );
  const bucketRegion = LocationConstraint || "us-east-1";
  return {
    done: true,
    state: result.state,
    endpoint: `${bucket}.s3.${bucketRegion}.${dnsSuffix}`,
    secrets: {},
    outputs: { bucketName: bucket, bucketArn: `arn:${partition}:s3:::${bucket}`, region: bucketRegion },
  };
}

async function destroy(context: ProvisionContext): Promise<DestroyResult> {
  const s3 = await s3Of(context);
  const { bucketName } = configOf(context.resource, "file-storage");
  const result = await runSteps(
    [
      {
        // A call that crashed before its state was saved may have created the bucket; only ours is deleted.
        progress: "Finding the bucket",
        async run(state) {
          if (state.bucketName) return;
          const ours = (await bucketOwnership(s3, context, bucketName)) === "ours";
          return { state: { bucketName: ours ? bucketName : "" } };
        },
      },
      deleteBucketStep(s3, context, "bucketName", "Deleting the bucket", { emptying: true }),
      deleteBucketStep(s3, context, "previousBucketName", "Deleting the renamed bucket", { emptying: true }),
    ],
    context.state,
  );
  return result.done ? { done: true } : result;
}

async function observe(context: ProvisionContext): Promise<Observation> {
  const bucket = context.state.bucketName;
  if (!bucket) return { state: "ok" };
  const s3 = await s3Of(context);
  const found = await unlessMissing(
    () => s3.client.send(new s3.sdk.HeadBucketCommand({ Bucket: bucket })),
    ...MISSING,
  );
  if (!found) {
    return {
      state: "missing",
      message: `The S3 bucket ${bucket} no longer exists: it was deleted outside the console`,
    };
  }
  if (configOf(context.resource, "file-storage").publicAccess) return { state: "ok" };
  const answer = await unlessMissing(
    () => s3.client.send(new s3.sdk.GetPublicAccessBlockCommand({ Bucket: bucket })),
    "NoSuchPublicAccessBlockConfiguration",
  );
  const block = answer?.PublicAccessBlockConfiguration;
  const blocked = block && Object.values(block).every((value) => value === true);
  return blocked
    ? { state: "ok" }
    : {
        state: "degraded",
        message: `Public access to the S3 bucket ${bucket} is no longer blocked: it was changed outside the console`,
      };
}

export const fileStorageProvisioner: Provisioner = {
  secretAttributeNames: () => [],
  apply,
  destroy,
  plan: (before, after) =>
    changePlanOf(before, after, {
      replace: ["config.bucketName"],
      inPlace: ["config.storageClass", "config.versioning", "config.publicAccess"],
    }),
  observe: (context) => failingAs("Checking the bucket", () => observe(context)),
};
