import { createHash } from "node:crypto";
import {
  DeleteRoleCommand,
  DetachRolePolicyCommand,
  GetRoleCommand,
  ListAttachedRolePoliciesCommand,
  ListRolesCommand,
} from "@aws-sdk/client-iam";
import {
  CreateFunctionCommand,
  DeleteFunctionCommand,
  GetFunctionCommand,
  GetPolicyCommand,
  ListFunctionsCommand,
} from "@aws-sdk/client-lambda";
import { strToU8, zipSync } from "fflate";
import { DescribeLogGroupsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { describe, expect, it } from "vitest";
import { defaultServiceSettings } from "#contract/services";
import { MOTO_ACCOUNT_ID } from "../../../tests/setup/moto-server";
import { serverlessProvisioner } from "./serverless";
import {
  applyUntilDone,
  destroyUntilDone,
  resourceOf,
  setUpMoto,
  taggedResources,
  testRegion,
  testService,
  type TestService,
} from "../../testing/aws";
import { expectListedSecrets } from "../../testing/aws-provisioning";

// Real accounts have AWS's managed policies; moto loads them only when asked.
const { aws } = setUpMoto({ warmUp: true, settings: { MOTO_IAM_LOAD_MANAGED_POLICIES: "true" } });

const archives: Record<string, Uint8Array> = {
  "upload-1": zipSync({ "index.js": strToU8("exports.handler = async () => ({ statusCode: 200 });\n") }),
  "upload-2": zipSync({ "main.js": strToU8("exports.handler = async () => ({ statusCode: 204 });\n") }),
};
/** Lambda's CodeSha256: the base64 SHA-256 of the deployment package. */
const codeSha = (archive: Uint8Array | undefined) =>
  createHash("sha256")
    .update(archive ?? new Uint8Array())
    .digest("base64");

function functionService(name: string, config: Record<string, unknown> = {}): TestService {
  const service: TestService = testService(
    aws,
    resourceOf("serverless", { uploadId: "upload-1", ...config }, { name }),
    {
      archive: () => {
        const uploadId = String(service.resource.config.uploadId);
        const archive = archives[uploadId];
        return archive ? Promise.resolve(archive) : Promise.reject(new Error(`no upload ${uploadId}`));
      },
    },
  );
  return service;
}

async function lambdaFunction(name: string) {
  return (await aws.lambda()).send(new GetFunctionCommand({ FunctionName: name }));
}

async function functionNames(prefix: string) {
  const { Functions = [] } = await (await aws.lambda()).send(new ListFunctionsCommand({}));
  return Functions.map((entry) => entry.FunctionName ?? "").filter((name) => name.startsWith(prefix));
}

async function roleNames(prefix: string) {
  const { Roles = [] } = await (await aws.iam()).send(new ListRolesCommand({}));
  return Roles.map((role) => role.RoleName ?? "").filter((name) => name.startsWith(prefix));
}

async function logGroupNames(prefix: string) {
  const { logGroups = [] } = await (
    await aws.cloudWatchLogs()
  ).send(new DescribeLogGroupsCommand({ logGroupNamePrefix: prefix }));
  return logGroups.map((group) => group.logGroupName);
}

describe("serverless provisioner", () => {
  it("creates the function with its execution role, updates code and settings in place, opens a URL, and deletes it", async () => {
    const service = functionService("thumbnails");
    const variables = [{ name: "BUCKET", value: "thumbs" }];
    service.resource = {
      ...service.resource,
      settings: { ...service.resource.settings, envvars: variables },
    };
    const created = await applyUntilDone(serverlessProvisioner, service);
    expectListedSecrets(serverlessProvisioner, service.resource, created.secrets);
    const functionArn = `arn:aws:lambda:${testRegion}:${MOTO_ACCOUNT_ID}:function:staging-thumbnails`;
    const roleArn = `arn:aws:iam::${MOTO_ACCOUNT_ID}:role/staging-thumbnails-lambda`;

    expect(created.endpoint).toBe(functionArn);
    expect(created.outputs).toEqual({
      functionName: "staging-thumbnails",
      functionArn,
      roleArn,
      logGroups: "/aws/lambda/staging-thumbnails",
    });
    expect(await logGroupNames("/aws/lambda/staging-thumbnails")).toEqual(["/aws/lambda/staging-thumbnails"]);
    expect(created.secrets).toEqual({});
    const deployed = await lambdaFunction("staging-thumbnails");
    expect(deployed.Configuration).toMatchObject({
      Runtime: "nodejs22.x",
      Handler: "index.handler",
      MemorySize: 256,
      Timeout: 30,
      Role: roleArn,
      State: "Active",
      CodeSha256: codeSha(archives["upload-1"]),
      Environment: { Variables: { BUCKET: "thumbs" } },
    });
    const { Role } = await (
      await aws.iam()
    ).send(new GetRoleCommand({ RoleName: "staging-thumbnails-lambda" }));
    expect(JSON.parse(decodeURIComponent(Role?.AssumeRolePolicyDocument ?? "{}"))).toMatchObject({
      Statement: [
        { Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" },
      ],
    });
    const { AttachedPolicies } = await (
      await aws.iam()
    ).send(new ListAttachedRolePoliciesCommand({ RoleName: "staging-thumbnails-lambda" }));
    expect(AttachedPolicies?.map((policy) => policy.PolicyName)).toEqual(["AWSLambdaBasicExecutionRole"]);
    expect((await taggedResources(aws, service.resource.id)).sort()).toEqual(
      [
        functionArn,
        `arn:aws:logs:${testRegion}:${MOTO_ACCOUNT_ID}:log-group:/aws/lambda/staging-thumbnails`,
      ].sort(),
    );

    const before = service.resource;
    service.resource = {
      ...before,
      config: {
        ...before.config,
        handler: "main.handler",
        memoryMb: 512,
        timeoutSeconds: 60,
        uploadId: "upload-2",
      },
      settings: {
        ...before.settings,
        envvars: [
          { name: "BUCKET", value: "thumbnails-v2" },
          { name: "SIZES", value: "64,128" },
        ],
      },
    };
    expect(serverlessProvisioner.plan(before, service.resource)).toEqual({
      inPlace: [
        "config.handler",
        "config.memoryMb",
        "config.timeoutSeconds",
        "config.uploadId",
        "settings.envvars",
      ],
      replace: [],
    });
    await applyUntilDone(serverlessProvisioner, service);
    expect((await lambdaFunction("staging-thumbnails")).Configuration).toMatchObject({
      Handler: "main.handler",
      MemorySize: 512,
      Timeout: 60,
      CodeSha256: codeSha(archives["upload-2"]),
      Environment: { Variables: { BUCKET: "thumbnails-v2", SIZES: "64,128" } },
    });

    const private_ = service.resource;
    const publicSettings = { ...defaultServiceSettings.networking, public: true };
    service.resource = { ...private_, settings: { ...private_.settings, networking: publicSettings } };
    expect(serverlessProvisioner.plan(private_, service.resource)).toEqual({
      inPlace: ["settings.networking.public"],
      replace: [],
    });
    const opened = await applyUntilDone(serverlessProvisioner, service);
    expect(opened.endpoint).toMatch(/^https:\/\/.+\.lambda-url\.eu-west-1\.on\.aws\/?$/);
    expect(opened.outputs.functionUrl).toBe(opened.endpoint);
    const { Policy } = await (
      await aws.lambda()
    ).send(new GetPolicyCommand({ FunctionName: "staging-thumbnails" }));
    expect(JSON.parse(Policy ?? "{}")).toMatchObject({
      Statement: [
        expect.objectContaining({ Sid: "cloud-console-public-url", Action: "lambda:InvokeFunctionUrl" }),
      ],
    });

    service.resource = private_;
    const closed = await applyUntilDone(serverlessProvisioner, service);
    expect(closed.endpoint).toBe(functionArn);
    expect(closed.outputs.functionUrl).toBeUndefined();

    await destroyUntilDone(serverlessProvisioner, service);
    expect(await functionNames("staging-thumbnails")).toEqual([]);
    expect(await roleNames("staging-thumbnails")).toEqual([]);
    expect(await logGroupNames("/aws/lambda/staging-thumbnails")).toEqual([]);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  }, 60_000);

  it("finds the role and function a call whose state was lost created, when applying and when deleting", async () => {
    const service = functionService("crashy");
    expect(await serverlessProvisioner.apply(service.context())).toMatchObject({
      done: false,
      progress: "Creating the execution role",
    });
    // The engine died before saving the state: the role exists, the state does not say so.
    await applyUntilDone(serverlessProvisioner, service);
    expect(await roleNames("staging-crashy")).toEqual(["staging-crashy-lambda"]);
    expect(await functionNames("staging-crashy")).toEqual(["staging-crashy"]);

    service.state = {};
    await destroyUntilDone(serverlessProvisioner, service);
    expect(await functionNames("staging-crashy")).toEqual([]);
    expect(await roleNames("staging-crashy")).toEqual([]);
  });

  it("refuses a function name another owner's function holds, and says when the archive is gone", async () => {
    const { CreateRoleCommand } = await import("@aws-sdk/client-iam");
    await (
      await aws.iam()
    ).send(new CreateRoleCommand({ RoleName: "theirs", AssumeRolePolicyDocument: "{}" }));
    await (
      await aws.lambda()
    ).send(
      new CreateFunctionCommand({
        FunctionName: "staging-taken",
        Runtime: "nodejs22.x",
        Handler: "index.handler",
        Role: `arn:aws:iam::${MOTO_ACCOUNT_ID}:role/theirs`,
        Code: { ZipFile: archives["upload-1"] },
      }),
    );
    const taken = functionService("taken");
    await expect(applyUntilDone(serverlessProvisioner, taken)).rejects.toMatchObject({
      code: "ResourceConflictException",
      message:
        "Creating the function failed: A Lambda function named staging-taken already exists in this account and was not created for this service",
    });
    await destroyUntilDone(serverlessProvisioner, taken);
    expect(await functionNames("staging-taken")).toEqual(["staging-taken"]);
    expect(await roleNames("staging-taken")).toEqual([]);

    // The engine has no archive to hand over (the upload was deleted).
    const lost = testService(aws, resourceOf("serverless", { uploadId: "upload-gone" }, { name: "lost" }));
    await expect(applyUntilDone(serverlessProvisioner, lost)).rejects.toMatchObject({
      code: "ArchiveMissing",
      message: "Creating the function failed: the function's archive is not available: upload it again",
    });
    await destroyUntilDone(serverlessProvisioner, lost);
  });

  it("reports a deleted execution role as degraded and a deleted function as missing", async () => {
    const service = functionService("watched");
    await applyUntilDone(serverlessProvisioner, service);
    expect(await serverlessProvisioner.observe(service.context())).toEqual({ state: "ok" });

    const iam = await aws.iam();
    await iam.send(
      new DetachRolePolicyCommand({
        RoleName: "staging-watched-lambda",
        PolicyArn: "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
      }),
    );
    await iam.send(new DeleteRoleCommand({ RoleName: "staging-watched-lambda" }));
    expect(await serverlessProvisioner.observe(service.context())).toEqual({
      state: "degraded",
      message:
        "The function's execution role staging-watched-lambda was deleted outside the console: the function cannot run",
    });

    await (await aws.lambda()).send(new DeleteFunctionCommand({ FunctionName: "staging-watched" }));
    expect(await serverlessProvisioner.observe(service.context())).toEqual({
      state: "missing",
      message: "The Lambda function staging-watched no longer exists: it was deleted outside the console",
    });
  });
});
