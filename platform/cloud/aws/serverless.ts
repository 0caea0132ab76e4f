import type * as IamSdk from "@aws-sdk/client-iam";
import type * as LambdaSdk from "@aws-sdk/client-lambda";
import { configOf } from "../configs";
import { deleteLogGroup, ensureLogGroup, logGroupsOutput } from "./log-groups";
import { awsNameOf, ownedBy, partitionOf, tagList, tagRecord, tagsOf } from "./naming";
import type { ApplyResult, DestroyResult, ProvisionContext, Provisioner } from "./provisioner";
import type { Observation } from "../driver";
import {
  ProvisionError,
  boundedWait,
  isAwsError,
  runSteps,
  unlessMissing,
  type Step,
  failingAs,
  changePlanOf,
} from "./common";

/**
 * A serverless function: a Lambda function running the uploaded archive with its own execution role (trusting
 * lambda.amazonaws.com, with AWSLambdaBasicExecutionRole so it can write its logs). Runtime, handler, memory,
 * time-out and code all change in place. A public service (settings.networking.public) gets a function URL anyone
 * may call, which is then its endpoint; otherwise the endpoint is the function's ARN, for callers with IAM rights.
 * The service's variables (settings.envvars) are the function's environment variables, changed in place. Its log
 * group /aws/lambda/<function> is created with the function, tagged, and deleted with it.
 * No secret: the platform mints no access keys.
 */

const POLL_MS = 3_000;
/** A new role takes a few seconds to be usable by Lambda; longer than this and something else is wrong. */
const ROLE_PROPAGATION_LIMIT_MS = 2 * 60_000;
const PUBLIC_URL_STATEMENT = "cloud-console-public-url";
const LAMBDA_MISSING = ["ResourceNotFoundException"];
const IAM_MISSING = ["NoSuchEntityException", "NoSuchEntity"];

type Lambda = { client: LambdaSdk.LambdaClient; sdk: typeof LambdaSdk };
type Iam = { client: IamSdk.IAMClient; sdk: typeof IamSdk };

async function clientsOf(context: ProvisionContext): Promise<{ lambda: Lambda; iam: Iam }> {
  return {
    lambda: { client: await context.aws.lambda(), sdk: await import("@aws-sdk/client-lambda") },
    iam: { client: await context.aws.iam(), sdk: await import("@aws-sdk/client-iam") },
  };
}

/** Function and role names have at most 64 characters. */
function namesOf(context: ProvisionContext) {
  return {
    functionName: awsNameOf(context.resource, { maxLength: 64 }),
    roleName: awsNameOf(context.resource, { maxLength: 64, suffix: "-lambda" }),
  };
}

/** Where Lambda writes a function's logs. */
const logGroupOf = (functionName: string) => `/aws/lambda/${functionName}`;

/** The service's variables as the function's environment (Lambda sorts nothing: compared as sorted entries). */
const variablesOf = (context: ProvisionContext): Record<string, string> =>
  Object.fromEntries(context.resource.settings.envvars.map((variable) => [variable.name, variable.value]));

const sameVariables = (current: Record<string, string> | undefined, wanted: Record<string, string>) =>
  JSON.stringify(Object.entries(current ?? {}).sort()) === JSON.stringify(Object.entries(wanted).sort());

const trustPolicy = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
});

const basicExecutionPolicyArn = (region: string) =>
  `arn:${partitionOf(region).partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole`;

async function getRole(iam: Iam, roleName: string) {
  const answer = await unlessMissing(
    () => iam.client.send(new iam.sdk.GetRoleCommand({ RoleName: roleName })),
    ...IAM_MISSING,
  );
  return answer?.Role;
}

async function getFunction(lambda: Lambda, functionName: string) {
  return unlessMissing(
    () => lambda.client.send(new lambda.sdk.GetFunctionCommand({ FunctionName: functionName })),
    ...LAMBDA_MISSING,
  );
}

function refusedName(kind: string, name: string): ProvisionError {
  return new ProvisionError(
    `${kind} named ${name} already exists in this account and was not created for this service`,
    "ResourceConflictException",
  );
}

async function apply(context: ProvisionContext): Promise<ApplyResult> {
  const config = configOf(context.resource, "serverless");
  const isPublic = context.resource.settings.networking.public;
  const { functionName, roleName } = namesOf(context);
  const { lambda, iam } = await clientsOf(context);
  const wantedConfiguration = {
    Runtime: config.runtime,
    Handler: config.handler,
    MemorySize: config.memoryMb,
    Timeout: config.timeoutSeconds,
  };
  const variables = variablesOf(context);
  const logGroup = logGroupOf(functionName);
  const steps: Step[] = [
    {
      progress: "Creating the execution role",
      async run() {
        const role = await getRole(iam, roleName);
        if (role && !ownedBy(context, tagRecord(role.Tags))) throw refusedName("An IAM role", roleName);
        if (role) return { state: { roleName, roleArn: role.Arn ?? "" } };
        const created = await iam.client.send(
          new iam.sdk.CreateRoleCommand({
            RoleName: roleName,
            AssumeRolePolicyDocument: trustPolicy,
            Description: `Execution role of the Lambda function ${functionName}`,
            Tags: tagList(tagsOf(context, "execution-role", roleName)),
          }),
        );
        context.log("info", `Created IAM role ${roleName}`);
        return { state: { roleName, roleArn: created.Role?.Arn ?? "" }, waitMs: 0 };
      },
    },
    {
      progress: "Attaching AWSLambdaBasicExecutionRole",
      async run() {
        const policyArn = basicExecutionPolicyArn(context.aws.region);
        const { AttachedPolicies = [] } = await iam.client.send(
          new iam.sdk.ListAttachedRolePoliciesCommand({ RoleName: roleName }),
        );
        if (AttachedPolicies.some((policy) => policy.PolicyArn === policyArn)) return;
        await iam.client.send(
          new iam.sdk.AttachRolePolicyCommand({ RoleName: roleName, PolicyArn: policyArn }),
        );
      },
    },
    {
      // Before the function: Lambda would otherwise create it untagged on the first invocation.
      progress: "Creating the log group",
      run: () => ensureLogGroup(context, logGroup),
    },
    {
      progress: "Creating the function",
      async run(state) {
        const found = await getFunction(lambda, functionName);
        if (found && !ownedBy(context, found.Tags)) throw refusedName("A Lambda function", functionName);
        if (found) {
          return {
            state: { functionName, functionArn: found.Configuration?.FunctionArn ?? "", roleWaitSince: "" },
          };
        }
        const archive = await context.archive?.();
        if (!archive) {
          throw new ProvisionError(
            "the function's archive is not available: upload it again",
            "ArchiveMissing",
          );
        }
        try {
          const created = await lambda.client.send(
            new lambda.sdk.CreateFunctionCommand({
              FunctionName: functionName,
              ...wantedConfiguration,
              Role: state.roleArn,
              Code: { ZipFile: archive },
              PackageType: "Zip",
              Environment: { Variables: variables },
              Tags: tagsOf(context, "function", functionName),
            }),
          );
          context.log(
            "info",
            `Created Lambda function ${functionName} (${config.runtime}, ${config.memoryMb} MB)`,
          );
          return {
            state: {
              functionName,
              functionArn: created.FunctionArn ?? "",
              codeUploadId: config.uploadId,
              roleWaitSince: "",
            },
            waitMs: 0,
          };
        } catch (error) {
          // IAM is eventually consistent: Lambda refuses a role created seconds ago until it can assume it.
          const roleNotReady =
            isAwsError(error, "InvalidParameterValueException") &&
            error instanceof Error &&
            error.message.includes("cannot be assumed");
          if (!roleNotReady) throw error;
          return boundedWait(state, "roleWaitSince", {
            now: context.now,
            limitMs: ROLE_PROPAGATION_LIMIT_MS,
            waitMs: POLL_MS,
            progress: "Waiting for the execution role to be usable by Lambda",
            reason: error.message,
            code: "InvalidParameterValueException",
          });
        }
      },
    },
    {
      progress: "Waiting for the function to become active",
      async run() {
        const current = await lambda.client.send(
          new lambda.sdk.GetFunctionConfigurationCommand({ FunctionName: functionName }),
        );
        if (current.State === "Failed" || current.LastUpdateStatus === "Failed") {
          const reason = current.State === "Failed" ? current.StateReason : current.LastUpdateStatusReason;
          const code =
            current.State === "Failed" ? current.StateReasonCode : current.LastUpdateStatusReasonCode;
          throw new ProvisionError(`the function failed: ${reason ?? "no reason given"}`, code ?? null);
        }
        if (current.State === "Pending" || current.LastUpdateStatus === "InProgress") {
          return {
            waitMs: POLL_MS,
            progress: `Waiting for the function to become active (${current.State})`,
          };
        }
      },
    },
    {
      progress: "Updating the function's code",
      async run(state) {
        if (state.codeUploadId === config.uploadId) return;
        const archive = await context.archive?.();
        if (!archive) {
          throw new ProvisionError(
            "the function's archive is not available: upload it again",
            "ArchiveMissing",
          );
        }
        await lambda.client.send(
          new lambda.sdk.UpdateFunctionCodeCommand({ FunctionName: functionName, ZipFile: archive }),
        );
        context.log("info", `Updated the code of Lambda function ${functionName}`);
        return { state: { codeUploadId: config.uploadId }, waitMs: 0 };
      },
    },
    {
      progress: "Updating the function's configuration",
      async run(state) {
        const current = await lambda.client.send(
          new lambda.sdk.GetFunctionConfigurationCommand({ FunctionName: functionName }),
        );
        const same =
          current.Runtime === wantedConfiguration.Runtime &&
          current.Handler === wantedConfiguration.Handler &&
          current.MemorySize === wantedConfiguration.MemorySize &&
          current.Timeout === wantedConfiguration.Timeout &&
          current.Role === state.roleArn &&
          sameVariables(current.Environment?.Variables, variables);
        if (same) return;
        await lambda.client.send(
          new lambda.sdk.UpdateFunctionConfigurationCommand({
            FunctionName: functionName,
            ...wantedConfiguration,
            Role: state.roleArn,
            Environment: { Variables: variables },
          }),
        );
        context.log("info", `Updated the configuration of Lambda function ${functionName}`);
        return { waitMs: 0 };
      },
    },
    {
      progress: isPublic ? "Creating the function URL" : "Removing the function URL",
      async run() {
        const url = await unlessMissing(
          () =>
            lambda.client.send(new lambda.sdk.GetFunctionUrlConfigCommand({ FunctionName: functionName })),
          ...LAMBDA_MISSING,
        );
        if (isPublic && !url) {
          const created = await lambda.client.send(
            new lambda.sdk.CreateFunctionUrlConfigCommand({ FunctionName: functionName, AuthType: "NONE" }),
          );
          await addPublicUrlPermission(lambda, functionName);
          context.log("info", `Created the public function URL ${created.FunctionUrl}`);
          return { state: { functionUrl: created.FunctionUrl ?? "" } };
        }
        if (!isPublic && url) {
          await lambda.client.send(
            new lambda.sdk.DeleteFunctionUrlConfigCommand({ FunctionName: functionName }),
          );
          await unlessMissing(
            () =>
              lambda.client.send(
                new lambda.sdk.RemovePermissionCommand({
                  FunctionName: functionName,
                  StatementId: PUBLIC_URL_STATEMENT,
                }),
              ),
            ...LAMBDA_MISSING,
          );
          context.log("info", `Removed the function URL ${url.FunctionUrl}`);
        }
        return { state: { functionUrl: isPublic ? (url?.FunctionUrl ?? "") : "" } };
      },
    },
  ];
  const result = await runSteps(steps, context.state);
  if (!result.done) return result;
  const found = await getFunction(lambda, functionName);
  const functionArn = found?.Configuration?.FunctionArn ?? result.state.functionArn ?? "";
  const functionUrl = result.state.functionUrl;
  return {
    done: true,
    state: result.state,
    endpoint: functionUrl || functionArn,
    secrets: {},
    outputs: {
      functionName,
      functionArn,
      roleArn: result.state.roleArn ?? "",
      ...(functionUrl ? { functionUrl } : {}),
      ...logGroupsOutput([logGroup]),
    },
  };
}

/** Anyone may call a public URL (AuthType NONE needs this resource policy statement too). */
async function addPublicUrlPermission(lambda: Lambda, functionName: string): Promise<void> {
  try {
    await lambda.client.send(
      new lambda.sdk.AddPermissionCommand({
        FunctionName: functionName,
        StatementId: PUBLIC_URL_STATEMENT,
        Action: "lambda:InvokeFunctionUrl",
        Principal: "*",
        FunctionUrlAuthType: "NONE",
      }),
    );
  } catch (error) {
    // Added by a call whose state was lost.
    if (!isAwsError(error, "ResourceConflictException")) throw error;
  }
}

async function destroy(context: ProvisionContext): Promise<DestroyResult> {
  const { functionName, roleName } = namesOf(context);
  const { lambda, iam } = await clientsOf(context);
  const steps: Step[] = [
    {
      progress: "Deleting the function",
      async run() {
        const found = await getFunction(lambda, functionName);
        if (!found || !ownedBy(context, found.Tags)) return;
        await unlessMissing(
          () => lambda.client.send(new lambda.sdk.DeleteFunctionCommand({ FunctionName: functionName })),
          ...LAMBDA_MISSING,
        );
        context.log("info", `Deleted Lambda function ${functionName}`);
        return { state: { functionName: "", functionArn: "", functionUrl: "" }, waitMs: 0 };
      },
    },
    {
      progress: "Deleting the log group",
      run: () => deleteLogGroup(context, logGroupOf(functionName)),
    },
    {
      progress: "Deleting the execution role",
      async run() {
        const role = await getRole(iam, roleName);
        if (!role || !ownedBy(context, tagRecord(role.Tags))) return;
        const { AttachedPolicies = [] } = await iam.client.send(
          new iam.sdk.ListAttachedRolePoliciesCommand({ RoleName: roleName }),
        );
        for (const policy of AttachedPolicies) {
          await unlessMissing(
            () =>
              iam.client.send(
                new iam.sdk.DetachRolePolicyCommand({ RoleName: roleName, PolicyArn: policy.PolicyArn }),
              ),
            ...IAM_MISSING,
          );
        }
        await unlessMissing(
          () => iam.client.send(new iam.sdk.DeleteRoleCommand({ RoleName: roleName })),
          ...IAM_MISSING,
        );
        context.log("info", `Deleted IAM role ${roleName}`);
        return { state: { roleName: "", roleArn: "" } };
      },
    },
  ];
  const result = await runSteps(steps, context.state);
  return result.done ? { done: true } : result;
}

async function observe(context: ProvisionContext): Promise<Observation> {
  const { functionName, roleName } = namesOf(context);
  const { lambda, iam } = await clientsOf(context);
  const found = await getFunction(lambda, functionName);
  if (!found) {
    return {
      state: "missing",
      message: `The Lambda function ${functionName} no longer exists: it was deleted outside the console`,
    };
  }
  const state = found.Configuration?.State;
  if (state === "Failed") {
    return {
      state: "degraded",
      message: `The Lambda function failed: ${found.Configuration?.StateReason ?? state}`,
    };
  }
  if (!(await getRole(iam, roleName))) {
    return {
      state: "degraded",
      message: `The function's execution role ${roleName} was deleted outside the console: the function cannot run`,
    };
  }
  return { state: "ok" };
}

export const serverlessProvisioner: Provisioner = {
  secretAttributeNames: () => [],
  apply,
  destroy,
  plan: (before, after) =>
    changePlanOf(before, after, {
      replace: [],
      inPlace: [
        "config.runtime",
        "config.handler",
        "config.memoryMb",
        "config.timeoutSeconds",
        "config.uploadId",
        "settings.networking.public",
        "settings.envvars",
      ],
    }),
  observe: (context) => failingAs("Checking the function", () => observe(context)),
};
