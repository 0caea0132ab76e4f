import { CloudFormationClient, CreateStackCommand } from "@aws-sdk/client-cloudformation";
import { GetRolePolicyCommand, IAMClient } from "@aws-sdk/client-iam";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, MOTO_ACCOUNT_ID, motoCredentials } from "../../tests/setup/moto-server";
import { setUpMoto } from "../testing/aws";
import { testPlatformConfig } from "../testing/http-harness";
import { defaultTerraformConfig, type TerraformConfig } from "../lib/config";
import { publicFilePaths } from "../terraform/download-links";
import { roleArn } from "../terraform/role-access";
import { deployRoleTemplate } from "./deploy-role";
import { awsRoleSetup, AwsRoleSetupUnavailableError, type AwsRoleSetup } from "./aws-role-setup";
import type { Credentials, ProviderContext } from "./providers";
import { aws } from "./providers/aws";
import { awsEcr } from "./providers/aws-ecr";

/**
 * The AWS connection's role flow against moto_server: the setup's quick-create link deploys the deploy role's
 * template, and the AWS provider assumes the role it creates. moto lets anyone assume any role (it does not read
 * trust policies unless IAM is enforced), so what is real here is the provider's own reading of the trust policy.
 */

const region = "us-west-2";
const externalId = "9a8b7c6d5e4f30211203f4e5d6c7b8a9";
const organizationId = "5f0c2a8e-3b1d-4c6e-9a7f-2d4b6c8e0a1f";
const savedEnvironment = { ...process.env };
const moto = setUpMoto();

function config(terraform: Partial<TerraformConfig> = {}) {
  return testPlatformConfig({
    terraform: { ...defaultTerraformConfig, awsEndpoint: moto.endpoint, awsRegion: region, ...terraform },
  });
}

function context(organizationExternalId = externalId): ProviderContext {
  return {
    awsEndpoint: moto.endpoint,
    awsExternalId: organizationExternalId,
    organizationName: "Acme",
    appUrl: "http://localhost:3000",
    connection: () => Promise.resolve(undefined),
  };
}

function roleConnection(arn: string): Credentials {
  return {
    kind: "AWS",
    method: "role",
    fields: { ACCOUNT_ID: MOTO_ACCOUNT_ID, ROLE_ARN: arn, REGION: region },
    secrets: {},
  };
}

/** What the user does in the AWS console: deploys the quick-create link's stack with its parameters. */
async function deployStackFrom(setup: AwsRoleSetup): Promise<string> {
  const query = new URLSearchParams(new URL(setup.launchStackUrl).hash.split("?")[1]);
  const parameters = ["RoleName", "ExternalId", "TrustedAccountId", "OrganizationId"].map((key) => ({
    ParameterKey: key,
    ParameterValue: query.get(`param_${key}`) ?? "",
  }));
  const cloudFormation = new CloudFormationClient({
    region,
    endpoint: moto.endpoint,
    credentials: motoCredentials,
  });
  await cloudFormation.send(
    new CreateStackCommand({
      StackName: query.get("stackName") ?? "",
      TemplateBody: JSON.stringify(deployRoleTemplate()),
      Parameters: parameters,
      Capabilities: ["CAPABILITY_NAMED_IAM"],
    }),
  );
  cloudFormation.destroy();
  return roleArn(MOTO_ACCOUNT_ID, query.get("param_RoleName") ?? "");
}

beforeAll(async () => {
  // The platform's own identity comes from the default credential chain, as in production.
  process.env.AWS_ACCESS_KEY_ID = motoCredentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = motoCredentials.secretAccessKey;
}, 120_000);

afterAll(async () => {
  process.env = savedEnvironment;
});

describe("awsRoleSetup", () => {
  it("links the console's quick-create page for the deploy role template, trusting the platform's account", async () => {
    const setup = await awsRoleSetup(config(), { externalId, organizationId });
    const templateUrl = `http://platform.test${publicFilePaths.deployRoleTemplate()}`;
    expect(setup).toMatchObject({ externalId, trustedAccountId: MOTO_ACCOUNT_ID, templateUrl });

    const link = new URL(setup.launchStackUrl);
    expect(`${link.origin}${link.pathname}${link.search}`).toBe(
      `https://console.aws.amazon.com/cloudformation/home?region=${region}`,
    );
    expect(link.hash.split("?")[0]).toBe("#/stacks/quickcreate");
    expect(Object.fromEntries(new URLSearchParams(link.hash.split("?")[1]))).toEqual({
      templateURL: templateUrl,
      stackName: "CloudConsoleDeploy-9a8b7c6d5e4f",
      param_RoleName: "CloudConsoleDeploy-9a8b7c6d5e4f",
      param_ExternalId: externalId,
      param_TrustedAccountId: MOTO_ACCOUNT_ID,
      param_OrganizationId: organizationId,
    });
  });

  it("uses the configured template address and platform account without asking STS", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const setup = await awsRoleSetup(
      config({
        awsEndpoint: closed,
        platformAccountId: "210987654321",
        templateUrl: "https://templates.example.com/read-only-role.json",
        deployTemplateUrl: "https://templates.example.com/deploy-role.json",
      }),
      { externalId, organizationId },
    );
    expect(setup).toMatchObject({
      trustedAccountId: "210987654321",
      templateUrl: "https://templates.example.com/deploy-role.json",
    });
    expect(setup.launchStackUrl).toContain("param_TrustedAccountId=210987654321");
  });

  it("says the role method cannot work on a platform without AWS credentials", async () => {
    const withCredentials = { ...process.env };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_SHARED_CREDENTIALS_FILE = "/nonexistent/credentials";
    process.env.AWS_CONFIG_FILE = "/nonexistent/config";
    process.env.AWS_EC2_METADATA_DISABLED = "true";
    try {
      const setup = awsRoleSetup(config({ awsRegion: "ap-southeast-2" }), { externalId, organizationId });
      await expect(setup).rejects.toBeInstanceOf(AwsRoleSetupUnavailableError);
      // In a user's words: the operator's side (AWS_PLATFORM_ACCOUNT_ID, credentials) is in the README.
      await expect(setup).rejects.toThrow(
        "Your administrator has not set up role access yet; use access keys.",
      );
      // The failed lookup is remembered: the next page does not wait on the credential chain again, even once
      // credentials appear (they take a restart, as the platform reads its environment at start).
      process.env.AWS_ACCESS_KEY_ID = motoCredentials.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = motoCredentials.secretAccessKey;
      await expect(
        awsRoleSetup(config({ awsRegion: "ap-southeast-2" }), { externalId, organizationId }),
      ).rejects.toBeInstanceOf(AwsRoleSetupUnavailableError);
      delete process.env.AWS_ACCESS_KEY_ID;
      delete process.env.AWS_SECRET_ACCESS_KEY;
      expect(await aws.check(roleConnection(roleArn(MOTO_ACCOUNT_ID, "AnyRole")), context())).toEqual({
        ok: false,
        message:
          "This platform has no AWS credentials of its own to assume the role with: its operator must give it some " +
          "(environment, shared files or an instance role), or connect with access keys instead.",
        details: [],
      });
    } finally {
      process.env = withCredentials;
    }
  });
});

describe("an AWS connection through the role", () => {
  it("assumes the role the quick-create stack created, which may deploy, and reaches ECR through it", async () => {
    const arn = await deployStackFrom(await awsRoleSetup(config(), { externalId, organizationId }));
    const iam = new IAMClient({ region, endpoint: moto.endpoint, credentials: motoCredentials });
    const { PolicyDocument } = await iam.send(
      new GetRolePolicyCommand({
        RoleName: "CloudConsoleDeploy-9a8b7c6d5e4f",
        PolicyName: "CloudConsoleDeploy",
      }),
    );
    iam.destroy();
    // moto answers the document as Python prints it, so it is read as text: the create actions are there, and the
    // delete statement names this organization's id.
    expect(PolicyDocument).toContain("'rds:CreateDBInstance'");
    expect(PolicyDocument).toContain(`'aws:ResourceTag/cloud-console:organization': '${organizationId}'`);
    const result = await aws.check(roleConnection(arn), context());
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(
        /^AWS confirmed account 123456789012 as arn:aws:sts::123456789012:assumed-role\/CloudConsoleDeploy-9a8b7c6d5e4f\//,
      ),
    });

    const registry: Credentials = {
      kind: "AWS_ECR",
      method: "connection",
      fields: { AWS_CONNECTION_ID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", REGION: region },
      secrets: {},
    };
    const ecr = await awsEcr.check(registry, {
      ...context(),
      connection: () => Promise.resolve(roleConnection(arn)),
    });
    expect(ecr).toMatchObject({ ok: true, details: expect.arrayContaining(["0 repositories"]) });
  });

  it("refuses another organization's role: its trust policy requires another external id", async () => {
    const otherExternalId = "00112233445566778899aabbccddeeff";
    const arn = await deployStackFrom(
      await awsRoleSetup(config(), { externalId: otherExternalId, organizationId }),
    );
    const result = await aws.check(roleConnection(arn), context(externalId));
    expect(result).toEqual({
      ok: false,
      message:
        `The trust policy of the role CloudConsoleDeploy-001122334455 does not require this organization's external ` +
        `id ${externalId} (it names another one, or none), so Cloud Console will not use the role: create it with ` +
        "the CloudFormation stack below.",
      details: [],
      field: "ROLE_ARN",
    });
  });

  it("says so when the role does not exist", async () => {
    const result = await aws.check(roleConnection(roleArn(MOTO_ACCOUNT_ID, "NeverCreated")), context());
    expect(result).toEqual({
      ok: false,
      message: "There is no role named NeverCreated in this account: check the role ARN.",
      details: [],
      field: "ROLE_ARN",
    });
  });
});
