import { randomUUID } from "node:crypto";
import { CloudFormationClient, CreateStackCommand } from "@aws-sdk/client-cloudformation";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAwsAccount, type SeededAccount } from "../../tests/setup/aws-account";
import { motoCredentials } from "../../tests/setup/moto-server";
import { setUpMoto } from "../testing/aws";
import { createFilesApp } from "../http/files";
import { createOperations } from "../operations/operations";
import { ephemeralSecretCipher } from "../lib/cipher";
import { testPlatformConfig } from "../testing/http-harness";
import { defaultTerraformConfig, type TerraformConfig } from "../lib/config";
import type { OpenDatabase } from "../db/index";
import { users } from "../db/schema";
import { openTestDb } from "../testing/db";
import { readArchive } from "./archive";
import { archiveStoreFor } from "./archive-store";
import { publicFilePaths } from "./download-links";
import { createTerraformJobs, type TerraformJobs } from "./jobs";
import { importIdsByType, parseProject, unresolvedReferences } from "../testing/terraform-checks";

const region = "us-west-2";
const moto = setUpMoto();
let seeded: SeededAccount;
let database: OpenDatabase;
let userId: string;
const opened: TerraformJobs[] = [];
const savedEnvironment = { ...process.env };

function jobsWith(overrides: Partial<TerraformConfig>) {
  const config = testPlatformConfig({
    terraform: {
      ...defaultTerraformConfig,
      scanner: "assume-role",
      awsEndpoint: moto.endpoint,
      awsRegion: region,
      roleWaitSeconds: 60,
      rolePollSeconds: 0.2,
      ...overrides,
    },
  });
  const jobs = createTerraformJobs({ db: database.db, config });
  opened.push(jobs);
  const engine = createOperations({ db: database.db, config, secrets: ephemeralSecretCipher() });
  return { jobs, files: createFilesApp({ jobs, db: database.db, engine }) };
}

/** What the user does in the AWS console: deploys the quick-create link's stack with its parameters. */
async function deployStackFrom(
  redirectURL: string,
  files: ReturnType<typeof createFilesApp>,
  externalId?: string,
) {
  const query = new URLSearchParams(new URL(redirectURL).hash.split("?")[1]);
  const templateUrl = new URL(query.get("templateURL") ?? "");
  expect(templateUrl.pathname).toBe(publicFilePaths.roleTemplate());
  const template = await (await files.request(templateUrl.pathname)).text();
  const parameters = ["RoleName", "ExternalId", "TrustedAccountId"].map((key) => ({
    ParameterKey: key,
    ParameterValue: key === "ExternalId" && externalId ? externalId : (query.get(`param_${key}`) ?? ""),
  }));
  await new CloudFormationClient({ region, endpoint: moto.endpoint, credentials: motoCredentials }).send(
    new CreateStackCommand({
      StackName: query.get("stackName") ?? "",
      TemplateBody: template,
      Parameters: parameters,
      Capabilities: ["CAPABILITY_NAMED_IAM"],
    }),
  );
}

beforeAll(async () => {
  // The platform's own identity comes from the default credential chain, as in production.
  process.env.AWS_ACCESS_KEY_ID = motoCredentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = motoCredentials.secretAccessKey;
  seeded = await seedAwsAccount({ endpoint: moto.endpoint, region, suffix: "jobs" });
  database = await openTestDb();
  userId = `user_${randomUUID()}`;
  await database.db
    .insert(users)
    .values({ id: userId, email: `${userId}@example.test`, name: "Jobs", passwordHash: "x" });
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((jobs) => jobs.close()));
  await database?.close();
  process.env = savedEnvironment;
});

describe("a job that assumes the read-only role", () => {
  it("waits for the CloudFormation stack, then scans and offers the archive", async () => {
    const { jobs, files } = jobsWith({});
    const created = await jobs.create(userId, { accountId: seeded.accountId, region });
    expect(created.status).toBe("INITIATING");
    expect(created.redirectURL).toMatch(
      /^https:\/\/console\.aws\.amazon\.com\/cloudformation\/home\?region=us-west-2#\/stacks\/quickcreate\?/,
    );
    expect(created.downloadURL).toBeNull();
    expect(created.downloadURLExpirationTime).toBe(0);

    await deployStackFrom(created.redirectURL, files);
    await jobs.settled(created.id);

    const job = await jobs.find(userId, created.id);
    expect(job?.status).toBe("COMPLETED");
    expect(job?.details).toBeNull();
    const expectedExpiry = Date.now() / 1000 + defaultTerraformConfig.downloadTtlSeconds;
    expect(job?.downloadURLExpirationTime).toBeGreaterThan(expectedExpiry - 60);
    expect(job?.downloadURLExpirationTime).toBeLessThanOrEqual(expectedExpiry);

    const download = new URL(job?.downloadURL ?? "");
    const response = await files.request(`${download.pathname}${download.search}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    const archive = readArchive(new Uint8Array(await response.arrayBuffer()));
    const root = `terraform-${seeded.accountId}-${region}`;
    const projectFiles = Object.fromEntries(
      Object.entries(archive).map(([path, content]) => [path.slice(root.length + 1), content]),
    );
    const project = await parseProject(projectFiles);
    expect(unresolvedReferences(project)).toEqual([]);
    // The stack's own role is the product's, not the user's infrastructure: it is not exported.
    expect(importIdsByType(project)).toEqual(
      Object.fromEntries(Object.entries(seeded.importIds).map(([type, ids]) => [type, [...ids].sort()])),
    );
  });

  it("fails with details when the role does not require the job's external id", async () => {
    const { jobs, files } = jobsWith({});
    const created = await jobs.create(userId, { accountId: seeded.accountId, region });
    await deployStackFrom(created.redirectURL, files, "an-external-id-of-someone-else");
    await jobs.settled(created.id);
    const job = await jobs.find(userId, created.id);
    expect(job?.status).toBe("FAILED");
    expect(job?.details).toBe(
      `The role ${created.roleName} in account ${seeded.accountId} does not require this generation's external ` +
        `id, so Cloud Console will not use it. Delete the stack ${created.roleName} and generate new Terraform.`,
    );
    expect(job?.downloadURL).toBeNull();
  });

  it("fails with details when no role appears before the deadline", async () => {
    const { jobs } = jobsWith({ roleWaitSeconds: 1 });
    const created = await jobs.create(userId, { accountId: seeded.accountId, region });
    await jobs.settled(created.id);
    const job = await jobs.find(userId, created.id);
    expect(job?.status).toBe("FAILED");
    expect(job?.details).toMatch(
      new RegExp(
        `^The role ${created.roleName} in account ${seeded.accountId} could not be assumed within 1 second \\(last answer: NoSuchEntity`,
      ),
    );
  });
});

describe("a job that scans with the platform's own credentials", () => {
  it("completes for the platform's own account", async () => {
    const { jobs } = jobsWith({ scanner: "credentials" });
    const created = await jobs.create(userId, { accountId: seeded.accountId, region });
    await jobs.settled(created.id);
    expect((await jobs.find(userId, created.id))?.status).toBe("COMPLETED");
  });

  it("refuses another account", async () => {
    const { jobs } = jobsWith({ scanner: "credentials" });
    const created = await jobs.create(userId, { accountId: "000000000042", region });
    await jobs.settled(created.id);
    const job = await jobs.find(userId, created.id);
    expect(job?.status).toBe("FAILED");
    expect(job?.details).toBe(
      `The platform's AWS credentials belong to account ${seeded.accountId}, not 000000000042: it can only ` +
        "generate Terraform for its own account.",
    );
  });
});

describe("archives kept in an S3 bucket", () => {
  it("are stored, read back and deleted", async () => {
    const bucket = "generated-archives";
    await new S3Client({ region, endpoint: moto.endpoint, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: bucket, CreateBucketConfiguration: { LocationConstraint: region } }),
    );
    const store = archiveStoreFor({
      dataDir: "memory",
      terraform: {
        ...defaultTerraformConfig,
        archiveBucket: bucket,
        awsRegion: region,
        awsEndpoint: moto.endpoint,
      },
    });
    const key = `${randomUUID()}.zip`;
    expect(await store.get(key)).toBeNull();
    await store.put(key, new Uint8Array([80, 75, 5, 6]));
    expect(await store.get(key)).toEqual(new Uint8Array([80, 75, 5, 6]));
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });
});
