import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsRoleSetupSchema, connectionPaths } from "#contract/connections";
import { defaultTerraformConfig } from "../lib/config";
import { attachablePolicies, tagOnCreateActions } from "../connections/deploy-role";
import { memoryArchiveStore } from "../terraform/archive-store";
import { createTerraformJobs } from "../terraform/jobs";
import { scanPermissions } from "../terraform/scanner";
import { sdkCallsIn, sourcesIn, type SdkCall } from "../testing/aws-iam-actions";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";
import { createFilesApp } from "./files";

/**
 * The template an AWS connection's role method deploys (issue 24 §2), as the connection page links it: it must
 * allow every call made with the connection's credentials, or a real account refuses the deployment (moto does
 * not enforce IAM, so only this comparison sees it).
 */

/** The code that runs with an AWS connection's credentials: deployments and drift checks, telemetry, exports, ECR. */
const connectionCode = [
  ...sourcesIn("platform/cloud/aws"),
  "platform/deployments/aws-telemetry.ts",
  "platform/terraform/environment-scan.ts",
  "platform/connections/providers/aws.ts",
  "platform/connections/providers/aws-ecr.ts",
];
/**
 * Request parameters that make AWS authorize a second action besides the call's own (the "Dependent actions" of
 * AWS's Service Authorization Reference): a DB instance deleted with a final snapshot also needs
 * rds:CreateDBSnapshot; an ElastiCache group or cluster deleted with one, elasticache:CreateSnapshot.
 */
const dependentActionsOf: Record<string, string> = {
  FinalDBSnapshotIdentifier: "rds:CreateDBSnapshot",
  FinalSnapshotIdentifier: "elasticache:CreateSnapshot",
};
/** The dependent actions the connection code's requests ask for, by the parameters they pass. */
const dependentActions = () => {
  const code = connectionCode.map((file) => readFileSync(file, "utf8")).join("\n");
  return Object.entries(dependentActionsOf)
    .filter(([parameter]) => new RegExp(`\\b${parameter}:`).test(code))
    .map(([, action]) => action);
};
/** Calls in those files made with the platform's own credentials, not the connection's. */
const platformOwnCalls = new Set(["sts:AssumeRole"]);

type Statement = { Sid?: string; Action: string | string[]; Condition?: unknown };
type Template = {
  Resources: Record<
    string,
    { Type: string; Properties: { Policies?: { PolicyDocument: { Statement: Statement[] } }[] } }
  >;
};

const statementsOf = (template: Template): Statement[] =>
  Object.values(template.Resources)
    .filter((resource) => resource.Type === "AWS::IAM::Role")
    .flatMap((role) => role.Properties.Policies ?? [])
    .flatMap((policy) => policy.PolicyDocument.Statement);
const actionsOf = (statement: Statement) =>
  typeof statement.Action === "string" ? [statement.Action] : statement.Action;

let api: TestApi;
let owner: TestMember;
let template: Template;
let launchParameters: URLSearchParams;
let calls: SdkCall[];

beforeAll(async () => {
  api = await openTestApi({ terraform: { ...defaultTerraformConfig, platformAccountId: "111122223333" } });
  owner = await api.createMember({ role: "admin" });
  const response = await api.call("GET", connectionPaths.awsRoleSetup(owner.organization.tenantId), {
    token: owner.user.token,
  });
  expect(response.status).toBe(200);
  const setup = awsRoleSetupSchema.parse(await response.json());
  launchParameters = new URLSearchParams(new URL(setup.launchStackUrl).hash.split("?")[1]);

  const jobs = createTerraformJobs({ db: api.db, config: api.config, store: memoryArchiveStore() });
  const files = createFilesApp({ jobs, db: api.db, engine: api.engine });
  const served = await files.request(new URL(setup.templateUrl).pathname);
  expect(served.status).toBe(200);
  template = (await served.json()) as Template;
  await jobs.close();
  calls = sdkCallsIn(connectionCode).filter(
    (call) => !call.actions.every((action) => platformOwnCalls.has(action)),
  );
});
afterAll(async () => {
  await api.close();
});

describe("the role an AWS connection deploys through", () => {
  it("allows every AWS call made with the connection's credentials", () => {
    const allowed = new Set(statementsOf(template).flatMap(actionsOf));
    const missing = calls.flatMap((call) =>
      call.actions
        .filter((action) => !allowed.has(action))
        .map((action) => `${action} (${call.operation} in ${call.file})`),
    );
    expect([...new Set(missing)].sort()).toEqual([]);
  });

  it("allows nothing else: each action is a call of the code, an export's read or what AWS asks besides", () => {
    const called = new Set(calls.flatMap((call) => call.actions));
    const besides = new Set([
      ...scanPermissions(),
      ...Object.values(tagOnCreateActions),
      "iam:AttachRolePolicy",
      "iam:DetachRolePolicy",
      "iam:PassRole",
      "iam:CreateServiceLinkedRole",
      ...dependentActions(),
    ]);
    const granted = statementsOf(template).flatMap(actionsOf);
    expect(granted.filter((action) => !called.has(action) && !besides.has(action))).toEqual([]);
  });

  it("allows what AWS authorizes besides a call: the final snapshot a DB instance is deleted with", () => {
    const allowed = new Set(statementsOf(template).flatMap(actionsOf));
    expect(dependentActions()).toContain("rds:CreateDBSnapshot");
    expect(dependentActions().filter((action) => !allowed.has(action))).toEqual([]);
  });

  it("may tag what it creates, in every service it creates in", () => {
    const creating = new Set(
      calls
        .flatMap((call) => call.actions)
        .filter((action) => /:(Create|Request|Register|Allocate)/.test(action))
        .map((action) => action.split(":")[0] ?? ""),
    );
    creating.delete("s3"); // S3 tags a bucket with s3:PutBucketTagging, a call of its own.
    const allowed = new Set(statementsOf(template).flatMap(actionsOf));
    expect([...creating].filter((service) => !allowed.has(tagOnCreateActions[service] ?? service))).toEqual(
      [],
    );
  });

  it("deletes data only where the organization's tag is, attaches only the provisioners' policies and passes roles only to their services", () => {
    const bySid = Object.fromEntries(statementsOf(template).map((statement) => [statement.Sid, statement]));
    expect(bySid.DeleteOwnOnly).toMatchObject({
      Action: expect.arrayContaining(["rds:DeleteDBInstance", "dynamodb:DeleteTable", "ec2:DeleteVpc"]),
      Condition: {
        StringEquals: { "aws:ResourceTag/cloud-console:organization": { Ref: "OrganizationId" } },
      },
    });
    expect(launchParameters.get("param_OrganizationId")).toBe(owner.organization.organizationId);
    expect(launchParameters.get("param_RoleName")).toMatch(/^CloudConsoleDeploy-[0-9a-f]{12}$/);

    const attach = bySid.AttachOnlyTheProvisionersPolicies;
    expect(actionsOf(attach ?? { Action: [] })).toEqual(["iam:AttachRolePolicy", "iam:DetachRolePolicy"]);
    expect(JSON.stringify(attach?.Condition)).toContain("AmazonEKSClusterPolicy");
    expect(attachablePolicies).toContain("service-role/AWSLambdaBasicExecutionRole");
    expect(bySid.PassRolesToTheirServices?.Condition).toMatchObject({
      StringEquals: { "iam:PassedToService": expect.arrayContaining(["lambda.amazonaws.com"]) },
    });
  });
});
