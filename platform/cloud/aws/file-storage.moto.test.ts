import { randomUUID } from "node:crypto";
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  DeletePublicAccessBlockCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { describe, expect, it } from "vitest";
import { motoCredentials } from "../../../tests/setup/moto-server";
import { fileStorageProvisioner } from "./file-storage";
import {
  applyUntilDone,
  destroyUntilDone,
  resourceOf,
  setUpMoto,
  taggedResources,
  testRegion,
  testService,
} from "../../testing/aws";
import { expectListedSecrets } from "../../testing/aws-provisioning";

const moto = setUpMoto({ warmUp: true });
const { aws } = moto;

const uniqueBucket = (label: string) => `acme-${label}-${randomUUID().slice(0, 8)}`;

async function objectVersions(bucket: string) {
  const listing = await (await aws.s3()).send(new ListObjectVersionsCommand({ Bucket: bucket }));
  return (listing.Versions ?? []).map((version) => ({ Key: version.Key, VersionId: version.VersionId }));
}

async function bucketNames(): Promise<string[]> {
  const { Buckets = [] } = await (await aws.s3()).send(new ListBucketsCommand({}));
  return Buckets.map((bucket) => bucket.Name ?? "");
}

describe("file storage provisioner", () => {
  it("creates an encrypted, versioned, private bucket, changes it in place, renames it and deletes it", async () => {
    const bucket = uniqueBucket("assets");
    const service = testService(aws, resourceOf("file-storage", { bucketName: bucket }));
    const created = await applyUntilDone(fileStorageProvisioner, service);
    expectListedSecrets(fileStorageProvisioner, service.resource, created.secrets);
    const s3 = await aws.s3();

    expect(created.endpoint).toBe(`${bucket}.s3.${testRegion}.amazonaws.com`);
    expect(created.outputs).toEqual({
      bucketName: bucket,
      bucketArn: `arn:aws:s3:::${bucket}`,
      region: testRegion,
    });
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: bucket }))).Status).toBe("Enabled");
    const encryption = await s3.send(new GetBucketEncryptionCommand({ Bucket: bucket }));
    expect(
      encryption.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault,
    ).toEqual({
      SSEAlgorithm: "AES256",
    });
    expect(
      (await s3.send(new GetPublicAccessBlockCommand({ Bucket: bucket }))).PublicAccessBlockConfiguration,
    ).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });
    expect(await taggedResources(aws, service.resource.id)).toEqual([`arn:aws:s3:::${bucket}`]);

    // Two versions of one object and another object: deleting the bucket later must empty it first.
    for (const body of ["v1", "v2"]) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "report.csv", Body: body }));
    }
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "logo.png", Body: "png" }));

    const before = service.resource;
    service.resource = {
      ...before,
      config: { ...before.config, versioning: false, storageClass: "infrequent-access", publicAccess: true },
    };
    expect(fileStorageProvisioner.plan(before, service.resource)).toEqual({
      inPlace: ["config.publicAccess", "config.storageClass", "config.versioning"],
      replace: [],
    });
    await applyUntilDone(fileStorageProvisioner, service);
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: bucket }))).Status).toBe("Suspended");
    const lifecycle = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }));
    expect(lifecycle.Rules?.[0]?.Transitions).toEqual([{ Days: 30, StorageClass: "STANDARD_IA" }]);
    expect(
      Object.values(
        (await s3.send(new GetPublicAccessBlockCommand({ Bucket: bucket }))).PublicAccessBlockConfiguration ??
          {},
      ),
    ).toEqual([false, false, false, false]);
    const policy = await s3.send(new GetBucketPolicyCommand({ Bucket: bucket }));
    expect(JSON.parse(policy.Policy ?? "{}")).toMatchObject({
      Statement: [
        { Effect: "Allow", Principal: "*", Action: "s3:GetObject", Resource: `arn:aws:s3:::${bucket}/*` },
      ],
    });

    const renamedBucket = uniqueBucket("renamed");
    const original = service.resource;
    service.resource = { ...original, config: { ...original.config, bucketName: renamedBucket } };
    expect(fileStorageProvisioner.plan(original, service.resource)).toEqual({
      inPlace: [],
      replace: ["config.bucketName"],
    });
    // The bucket holds objects: a replacement would delete them, so it is refused and nothing changes.
    await expect(fileStorageProvisioner.apply(service.context())).rejects.toThrow(
      `The bucket ${bucket} holds 3 objects (versions included); a replacement would delete them. Empty it first or keep the bucket name.`,
    );
    expect(await bucketNames()).toContain(bucket);
    expect(await bucketNames()).not.toContain(renamedBucket);
    expect(await objectVersions(bucket)).toHaveLength(3);

    // Once its owner emptied it, the bucket is replaced.
    await s3.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: await objectVersions(bucket) } }),
    );
    const renamed = await applyUntilDone(fileStorageProvisioner, service);
    expect(renamed.endpoint).toBe(`${renamedBucket}.s3.${testRegion}.amazonaws.com`);
    const names = await bucketNames();
    expect(names).toContain(renamedBucket);
    expect(names).not.toContain(bucket);

    await destroyUntilDone(fileStorageProvisioner, service);
    expect(await bucketNames()).not.toContain(renamedBucket);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  }, 60_000);

  it("finds the bucket a call whose state was lost created, when applying and when deleting", async () => {
    const bucket = uniqueBucket("crash");
    const service = testService(aws, resourceOf("file-storage", { bucketName: bucket }));
    const first = await fileStorageProvisioner.apply(service.context());
    expect(first).toMatchObject({ done: false, state: { bucketName: bucket } });
    // The engine died before saving `first.state`.
    await applyUntilDone(fileStorageProvisioner, service);
    expect((await bucketNames()).filter((name) => name === bucket)).toHaveLength(1);

    service.state = {};
    await destroyUntilDone(fileStorageProvisioner, service);
    expect(await bucketNames()).not.toContain(bucket);
  });

  it("answers AWS's BucketAlreadyExists when another account holds the name, and leaves that bucket alone", async () => {
    const bucket = uniqueBucket("taken");
    // Another AWS account (moto keys an assumed role's credentials to the role's account).
    const sts = new STSClient({ region: testRegion, endpoint: moto.endpoint, credentials: motoCredentials });
    const { Credentials } = await sts.send(
      new AssumeRoleCommand({ RoleArn: "arn:aws:iam::210987654321:role/other", RoleSessionName: "other" }),
    );
    const other = new S3Client({
      region: testRegion,
      endpoint: moto.endpoint,
      forcePathStyle: true,
      credentials: {
        accessKeyId: Credentials?.AccessKeyId ?? "",
        secretAccessKey: Credentials?.SecretAccessKey ?? "",
        sessionToken: Credentials?.SessionToken ?? "",
      },
    });
    await other.send(
      new CreateBucketCommand({
        Bucket: bucket,
        CreateBucketConfiguration: { LocationConstraint: testRegion },
      }),
    );

    const service = testService(aws, resourceOf("file-storage", { bucketName: bucket }));
    await expect(applyUntilDone(fileStorageProvisioner, service)).rejects.toMatchObject({
      code: "BucketAlreadyExists",
      message: expect.stringMatching(
        new RegExp(`^Creating the bucket ${bucket} failed: AWS answered BucketAlreadyExists: .+`),
      ),
    });
    await destroyUntilDone(fileStorageProvisioner, service);
    await expect(other.send(new HeadBucketCommand({ Bucket: bucket }))).resolves.toBeDefined();
    other.destroy();
    sts.destroy();
  });

  it("reports public access unblocked outside the console, and a deleted bucket", async () => {
    const bucket = uniqueBucket("watched");
    const service = testService(aws, resourceOf("file-storage", { bucketName: bucket }));
    await applyUntilDone(fileStorageProvisioner, service);
    expect(await fileStorageProvisioner.observe(service.context())).toEqual({ state: "ok" });

    await (await aws.s3()).send(new DeletePublicAccessBlockCommand({ Bucket: bucket }));
    expect(await fileStorageProvisioner.observe(service.context())).toEqual({
      state: "degraded",
      message: `Public access to the S3 bucket ${bucket} is no longer blocked: it was changed outside the console`,
    });

    const deployed = service.state;
    await destroyUntilDone(fileStorageProvisioner, service);
    service.state = deployed;
    expect(await fileStorageProvisioner.observe(service.context())).toEqual({
      state: "missing",
      message: `The S3 bucket ${bucket} no longer exists: it was deleted outside the console`,
    });
  });
});
