import { randomUUID } from "node:crypto";
import type { EC2Client } from "@aws-sdk/client-ec2";
import {
  DescribeAddressesCommand,
  DescribeInternetGatewaysCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
} from "@aws-sdk/client-ec2";
import type { IAMClient } from "@aws-sdk/client-iam";
import { CreateRoleCommand } from "@aws-sdk/client-iam";
import type { S3Client } from "@aws-sdk/client-s3";
import { CreateBucketCommand, PutBucketTaggingCommand } from "@aws-sdk/client-s3";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { CreateQueueCommand, ListQueuesCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import {
  terraformExportErrorMessages,
  terraformExportPaths,
  terraformExportResponseSchema,
  type TerraformExport,
} from "#contract/terraform-exports";
import { MOTO_ACCOUNT_ID } from "../../tests/setup/moto-server";
import { setUpMoto } from "../testing/aws";
import { defaultTerraformConfig } from "../lib/config";
import { TAG_ENVIRONMENT, TAG_ORGANIZATION, TAG_SERVICE } from "../cloud/aws/provisioner";
import { readArchive } from "../terraform/archive";
import { createTerraformJobs } from "../terraform/jobs";
import {
  importIdsByType,
  parseProject,
  unresolvedImports,
  unresolvedReferences,
  type ParsedProject,
} from "../testing/terraform-checks";
import { createFilesApp } from "./files";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * 'Export as Terraform' of an environment in an AWS connection (moto_server): the platform's own provisioners
 * deploy a network, a queue and a bucket; beside them stand an untagged bucket and another environment's bucket and
 * queue. The archive holds exactly what was deployed for the environment, with import blocks and references.
 */

const region = "us-west-2";
const moto = setUpMoto({ region });
let api: TestApi;
let files: ReturnType<typeof createFilesApp>;
let ec2: EC2Client;
let sqs: SQSClient;
let s3: S3Client;
let iam: IAMClient;
beforeAll(async () => {
  api = await openTestApi({ terraform: { ...defaultTerraformConfig, awsEndpoint: moto.endpoint } });
  files = createFilesApp({
    jobs: createTerraformJobs({ db: api.db, config: api.config }),
    db: api.db,
    engine: api.engine,
  });
  [ec2, sqs, s3, iam] = await Promise.all([moto.aws.ec2(), moto.aws.sqs(), moto.aws.s3(), moto.aws.iam()]);
});
afterAll(() => api?.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
let environmentName: string;
const bucketName = `exported-${randomUUID().slice(0, 8)}`;
const untaggedBucket = `untagged-${randomUUID().slice(0, 8)}`;
const otherBucket = `other-env-${randomUUID().slice(0, 8)}`;
const otherQueue = `other-env-queue-${randomUUID().slice(0, 8)}`;

const call = (method: string, path: string, json?: unknown, token = member.user.token) =>
  api.call(method, path, { token, json });

async function deploy(serviceType: "network" | "queue" | "file-storage", name: string, config: object) {
  const response = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType,
    name,
    config,
    launch: true,
  });
  expect(response.status).toBe(201);
  return resourceResponseSchema.parse(await response.json()).resource.id;
}

async function exportOf(response: Response): Promise<TerraformExport> {
  return terraformExportResponseSchema.parse(await response.json()).terraformExport;
}

/** What the platform created for the environment, as EC2 lists it by the environment's tag. */
async function taggedNetwork() {
  const Filters = [{ Name: `tag:${TAG_ENVIRONMENT}`, Values: [environmentId] }];
  const [vpcs, subnets, gateways, nats, tables, groups, addresses] = await Promise.all([
    ec2.send(new DescribeVpcsCommand({ Filters })),
    ec2.send(new DescribeSubnetsCommand({ Filters })),
    ec2.send(new DescribeInternetGatewaysCommand({ Filters })),
    ec2.send(new DescribeNatGatewaysCommand({ Filter: Filters })),
    ec2.send(new DescribeRouteTablesCommand({ Filters })),
    ec2.send(new DescribeSecurityGroupsCommand({ Filters })),
    ec2.send(new DescribeAddressesCommand({ Filters })),
  ]);
  const ids = <Item>(items: Item[] | undefined, id: (item: Item) => string | undefined) =>
    (items ?? []).map((item) => id(item) ?? "").sort();
  return {
    aws_vpc: ids(vpcs.Vpcs, (vpc) => vpc.VpcId),
    aws_subnet: ids(subnets.Subnets, (subnet) => subnet.SubnetId),
    aws_internet_gateway: ids(gateways.InternetGateways, (gateway) => gateway.InternetGatewayId),
    aws_nat_gateway: ids(nats.NatGateways, (gateway) => gateway.NatGatewayId),
    aws_eip: ids(addresses.Addresses, (address) => address.AllocationId),
    aws_route_table: ids(tables.RouteTables, (table) => table.RouteTableId),
    aws_route_table_association: (tables.RouteTables ?? [])
      .flatMap((table) =>
        (table.Associations ?? []).flatMap((association) =>
          association.SubnetId ? [`${association.SubnetId}/${table.RouteTableId}`] : [],
        ),
      )
      .sort(),
    aws_security_group: ids(groups.SecurityGroups, (group) => group.GroupId),
  };
}

beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  const environment = await api.createAwsEnvironment(member, region);
  environmentId = environment.id;
  environmentName = environment.name;

  await deploy("network", "main", defaultServiceConfigs.network);
  await deploy("queue", "orders", defaultServiceConfigs.queue);
  await deploy("file-storage", "assets", { ...defaultServiceConfigs["file-storage"], bucketName });
  await api.engine.runner.runUntilIdle();

  // Beside them: a bucket nobody tagged, and another environment's bucket and queue.
  const otherTags = {
    [TAG_ORGANIZATION]: member.organization.organizationId,
    [TAG_ENVIRONMENT]: randomUUID(),
    [TAG_SERVICE]: randomUUID(),
  };
  const location = { CreateBucketConfiguration: { LocationConstraint: region } } as const;
  await s3.send(new CreateBucketCommand({ Bucket: untaggedBucket, ...location }));
  await s3.send(new CreateBucketCommand({ Bucket: otherBucket, ...location }));
  await s3.send(
    new PutBucketTaggingCommand({
      Bucket: otherBucket,
      Tagging: { TagSet: Object.entries(otherTags).map(([Key, Value]) => ({ Key, Value })) },
    }),
  );
  await sqs.send(new CreateQueueCommand({ QueueName: otherQueue, tags: otherTags }));

  // IAM roles, which the Tagging API does not list: the environment's (as the serverless provisioner names and
  // tags a function's role), and one named like it but tagged for another environment.
  const assumeRolePolicy = JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" },
    ],
  });
  const roleTags = (environment: string) =>
    Object.entries({ ...otherTags, [TAG_ENVIRONMENT]: environment }).map(([Key, Value]) => ({ Key, Value }));
  await iam.send(
    new CreateRoleCommand({
      RoleName: `${environmentName}-thumbnails-lambda`,
      AssumeRolePolicyDocument: assumeRolePolicy,
      Tags: roleTags(environmentId),
    }),
  );
  await iam.send(
    new CreateRoleCommand({
      RoleName: `${environmentName}-impostor-lambda`,
      AssumeRolePolicyDocument: assumeRolePolicy,
      Tags: roleTags(randomUUID()),
    }),
  );
}, 120_000);

describe("exporting an environment deployed in AWS", () => {
  let created: TerraformExport;
  let finished: TerraformExport;
  let archive: Record<string, string>;
  let project: ParsedProject;
  let folder: string;

  beforeAll(async () => {
    const response = await call("POST", terraformExportPaths.create(tenantId, environmentId));
    expect(response.status).toBe(201);
    created = await exportOf(response);
    await api.engine.runner.runUntilIdle();
    const polled = await call("GET", terraformExportPaths.one(tenantId, environmentId, created.id));
    expect(polled.status).toBe(200);
    finished = await exportOf(polled);
    const link = new URL(finished.downloadURL ?? "http://missing.test/");
    const download = await files.request(`${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe(
      `attachment; filename="terraform-${environmentName}-${region}.zip"`,
    );
    archive = readArchive(new Uint8Array(await download.arrayBuffer()));
    folder = `terraform-${environmentName}-${region}`;
    project = await parseProject(
      Object.fromEntries(
        Object.entries(archive).map(([path, text]) => [path.slice(folder.length + 1), text]),
      ),
    );
  }, 120_000);

  it("runs as a job that ends with a download link that expires", () => {
    expect(created).toMatchObject({ environmentId, status: "IN_PROGRESS", downloadURL: null, details: null });
    expect(finished).toMatchObject({ id: created.id, status: "COMPLETED", details: null });
    expect(finished.downloadURL).toMatch(
      new RegExp(
        `^http://platform\\.test/files/environment-terraform/${created.id}\\.zip\\?expires=\\d+&signature=`,
      ),
    );
    const ttl = finished.downloadURLExpirationTime - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(defaultTerraformConfig.downloadTtlSeconds - 120);
    expect(ttl).toBeLessThanOrEqual(defaultTerraformConfig.downloadTtlSeconds);
    expect(finished.resourceCount).toBe(project.imports.length);
  });

  it("holds exactly the environment's resources, each with an import block of its AWS id", async () => {
    const queues =
      (await sqs.send(new ListQueuesCommand({ QueueNamePrefix: environmentName }))).QueueUrls ?? [];
    expect(queues).toHaveLength(2);
    expect(importIdsByType(project)).toEqual({
      ...(await taggedNetwork()),
      aws_sqs_queue: [...queues].sort(),
      aws_s3_bucket: [bucketName],
      aws_s3_bucket_versioning: [bucketName],
      aws_s3_bucket_server_side_encryption_configuration: [bucketName],
      aws_s3_bucket_public_access_block: [bucketName],
      aws_iam_role: [`${environmentName}-thumbnails-lambda`],
    });
    const text = Object.values(archive).join("\n");
    for (const stranger of [untaggedBucket, otherBucket, otherQueue, `${environmentName}-impostor-lambda`]) {
      expect(text).not.toContain(stranger);
    }
  });

  it("refers from one resource to another instead of repeating AWS ids", () => {
    expect(unresolvedReferences(project)).toEqual([]);
    expect(unresolvedImports(project)).toEqual([]);
    const subnets = project.files["vpc/subnet.tf"]?.resource as Record<string, Record<string, unknown[]>>;
    for (const [, [subnet]] of Object.entries(subnets.aws_subnet ?? {})) {
      expect((subnet as { vpc_id: string }).vpc_id).toMatch(/^\$\{aws_vpc\.[a-z0-9_]+\.id\}$/);
    }
    const queueFile = archive[`${folder}/sqs/sqs_queue.tf`] ?? "";
    expect(queueFile).toMatch(/deadLetterTargetArn\s*=\s*aws_sqs_queue\.[a-z0-9_]+_dlq\.arn/);
    const parts = archive[`${folder}/s3/s3_bucket_public_access_block.tf`] ?? "";
    expect(parts).toMatch(/bucket\s+=\s+aws_s3_bucket\.[a-z0-9_]+\.id/);
    expect(parts).toMatch(/block_public_acls\s+=\s+true/);
    expect(archive[`${folder}/s3/s3_bucket_versioning.tf`]).toMatch(/status = "Enabled"/);
  });

  it("says in its README which environment it holds", () => {
    expect(archive[`${folder}/README.md`]).toContain(
      `# Terraform for environment ${environmentName} (AWS account ${MOTO_ACCOUNT_ID} in ${region})`,
    );
  });

  it("refuses a download link whose signature was changed", async () => {
    const link = new URL(finished.downloadURL ?? "http://missing.test/");
    link.searchParams.set("signature", "forged");
    expect((await files.request(`${link.pathname}${link.search}`)).status).toBe(403);
    // A link to the marketplace tool's archives does not open an export.
    expect((await files.request(`/files/terraform/${created.id}.zip${link.search}`)).status).toBe(403);
  });

  it("shows the export to no other organization, and to no other environment", async () => {
    const stranger = await api.createMember({ role: "admin" });
    const strangerTenant = stranger.organization.tenantId;
    for (const response of [
      await call(
        "POST",
        terraformExportPaths.create(strangerTenant, environmentId),
        undefined,
        stranger.user.token,
      ),
      await call(
        "GET",
        terraformExportPaths.one(strangerTenant, environmentId, created.id),
        undefined,
        stranger.user.token,
      ),
    ]) {
      expect(response.status).toBe(404);
    }
    const sibling = await api.createEnvironment(tenantId);
    const elsewhere = await call("GET", terraformExportPaths.one(tenantId, sibling.id, created.id));
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { message: string }).message).toBe(
      terraformExportErrorMessages.exportNotFound,
    );
  });
});

it("refuses to export an environment that runs in no cloud account", async () => {
  const simulated = await api.createEnvironment(tenantId);
  const response = await call("POST", terraformExportPaths.create(tenantId, simulated.id));
  expect(response.status).toBe(409);
  expect(((await response.json()) as { message: string }).message).toBe(
    terraformExportErrorMessages.notInAwsAccount,
  );
});

it("lets a read-only member follow an export but not start one", async () => {
  const reader = await api.createMember({ role: "read-only" });
  await api.addMember(reader.user.id, member.organization.organizationId, "read-only");
  const refused = await call(
    "POST",
    terraformExportPaths.create(tenantId, environmentId),
    undefined,
    reader.user.token,
  );
  expect(refused.status).toBe(403);
});
