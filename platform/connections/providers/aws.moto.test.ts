import { createServer, type AddressInfo } from "node:net";
import { CreateRepositoryCommand, ECRClient, PutImageCommand } from "@aws-sdk/client-ecr";
import {
  CreateAccessKeyCommand,
  CreateRoleCommand,
  CreateUserCommand,
  IAMClient,
  PutRolePolicyCommand,
  PutUserPolicyCommand,
} from "@aws-sdk/client-iam";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, MOTO_ACCOUNT_ID, motoCredentials } from "../../../tests/setup/moto-server";
import { setUpMoto } from "../../testing/aws";
import { readOnlyRoleTemplate } from "../../terraform/role-access";
import { ProviderRequestError, type CheckResult, type Credentials, type ProviderContext } from "../providers";
import { aws } from "./aws";
import { awsEcr } from "./aws-ecr";
import { expectingNoLeak } from "../../testing/provider-requests";

/**
 * The AWS and ECR providers against moto_server with IAM enforced (moto's reset-auth): unknown keys, wrong
 * secrets and trust policies that do not accept the external id are refused by moto as AWS refuses them.
 */

const region = "eu-west-1";
const externalId = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const roleName = "CloudConsoleReadOnly-connection";
const roleArn = `arn:aws:iam::${MOTO_ACCOUNT_ID}:role/${roleName}`;
const savedEnvironment = { ...process.env };

const moto = setUpMoto();
let platformUserArn: string;
/** The customer's IAM user with ECR read access, and one that may do nothing. */
let deployerKeys: { accessKeyId: string; secretAccessKey: string };
let idleKeys: { accessKeyId: string; secretAccessKey: string };
let platformSecret: string;
let pushed: { web: { latest: string; v1: string } };

function context(overrides: Partial<ProviderContext> = {}): ProviderContext {
  return {
    awsEndpoint: moto.endpoint,
    awsExternalId: externalId,
    organizationName: "Acme",
    appUrl: "http://localhost:3000",
    connection: () => Promise.resolve(undefined),
    ...overrides,
  };
}

function awsKeys(
  keys: { accessKeyId: string; secretAccessKey: string },
  accountId = MOTO_ACCOUNT_ID,
): Credentials {
  return {
    kind: "AWS",
    method: "keys",
    fields: { ACCOUNT_ID: accountId, ACCESS_KEY_ID: keys.accessKeyId, REGION: region },
    secrets: { SECRET_ACCESS_KEY: keys.secretAccessKey },
  };
}

function awsRole(arn: string, accountId = MOTO_ACCOUNT_ID): Credentials {
  return {
    kind: "AWS",
    method: "role",
    fields: { ACCOUNT_ID: accountId, ROLE_ARN: arn, REGION: region },
    secrets: {},
  };
}

const secretsInPlay = () => [
  deployerKeys.secretAccessKey,
  idleKeys.secretAccessKey,
  platformSecret,
  "wrong-secret-0123456789abcdef",
];

const check = (credentials: Credentials, options: Partial<ProviderContext> = {}): Promise<CheckResult> =>
  expectingNoLeak(secretsInPlay, () =>
    (credentials.kind === "AWS_ECR" ? awsEcr : aws).check(credentials, context(options)),
  );

async function createUser(iam: IAMClient, name: string, actions: string[]) {
  const { User } = await iam.send(new CreateUserCommand({ UserName: name }));
  await iam.send(
    new PutUserPolicyCommand({
      UserName: name,
      PolicyName: "access",
      PolicyDocument: JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: actions, Resource: "*" }],
      }),
    }),
  );
  const { AccessKey } = await iam.send(new CreateAccessKeyCommand({ UserName: name }));
  return {
    arn: User?.Arn ?? "",
    accessKeyId: AccessKey?.AccessKeyId ?? "",
    secretAccessKey: AccessKey?.SecretAccessKey ?? "",
  };
}

/** A role trusting the platform's user, as the CloudFormation stack's role trusts the platform's account. */
async function createRole(iam: IAMClient, name: string, condition?: Record<string, Record<string, string>>) {
  const template = readOnlyRoleTemplate().Resources.ReadOnlyRole.Properties;
  await iam.send(
    new CreateRoleCommand({
      RoleName: name,
      AssumeRolePolicyDocument: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { AWS: platformUserArn },
            Action: "sts:AssumeRole",
            ...(condition ? { Condition: condition } : {}),
          },
        ],
      }),
    }),
  );
  // Exactly the template's permissions: what a role created by the quick-create link may do.
  for (const policy of template.Policies) {
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: name,
        PolicyName: policy.PolicyName,
        PolicyDocument: JSON.stringify(policy.PolicyDocument),
      }),
    );
  }
}

async function pushImage(
  ecr: ECRClient,
  repositoryName: string,
  tag: string,
  layer: string,
): Promise<string> {
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.docker.distribution.manifest.v2+json",
    config: {
      mediaType: "application/vnd.docker.container.image.v1+json",
      size: 7023,
      digest: `sha256:${layer.repeat(64).slice(0, 64)}`,
    },
    layers: [
      {
        mediaType: "application/vnd.docker.image.rootfs.diff.tar.gzip",
        size: 32654,
        digest: `sha256:${layer.repeat(64).slice(0, 64)}`,
      },
    ],
  });
  const { image } = await ecr.send(
    new PutImageCommand({ repositoryName, imageManifest: manifest, imageTag: tag }),
  );
  return image?.imageId?.imageDigest ?? "";
}

beforeAll(async () => {
  const setup = { region, endpoint: moto.endpoint, credentials: motoCredentials };
  const iam = new IAMClient(setup);
  const platform = await createUser(iam, "cloud-console-platform", ["sts:AssumeRole"]);
  platformUserArn = platform.arn;
  platformSecret = platform.secretAccessKey;
  deployerKeys = await createUser(iam, "deployer", [
    "ecr:GetAuthorizationToken",
    "ecr:DescribeRepositories",
    "ecr:DescribeImages",
  ]);
  idleKeys = await createUser(iam, "idle", ["s3:ListAllMyBuckets"]);
  await createRole(iam, roleName, { StringEquals: { "sts:ExternalId": externalId } });
  await createRole(iam, "CloudConsoleReadOnly-elsewhere", {
    StringEquals: { "sts:ExternalId": "an-external-id-of-another-organization" },
  });
  await createRole(iam, "OpenToThePlatform");
  iam.destroy();

  const ecr = new ECRClient(setup);
  await ecr.send(new CreateRepositoryCommand({ repositoryName: "web" }));
  await ecr.send(new CreateRepositoryCommand({ repositoryName: "team/api" }));
  const v1 = await pushImage(ecr, "web", "v1", "a");
  const latest = await pushImage(ecr, "web", "latest", "b");
  pushed = { web: { v1, latest } };
  ecr.destroy();

  // The platform's own identity comes from the default credential chain, as in production.
  process.env.AWS_ACCESS_KEY_ID = platform.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = platform.secretAccessKey;
  // From now on moto checks every request's key, signature and IAM policy (trust policies included).
  const enforced = await fetch(`${moto.endpoint}/moto-api/reset-auth`, { method: "POST", body: "0" });
  expect(enforced.ok).toBe(true);
}, 120_000);

afterAll(async () => {
  process.env = savedEnvironment;
});

describe("AWS with access keys", () => {
  it("confirms the account and the user the keys belong to", async () => {
    const result = await check(awsKeys(deployerKeys));
    expect(result).toEqual({
      ok: true,
      message: `AWS confirmed account ${MOTO_ACCOUNT_ID} as arn:aws:iam::${MOTO_ACCOUNT_ID}:user/deployer.`,
      details: [`Account ${MOTO_ACCOUNT_ID}`, `Signed in as arn:aws:iam::${MOTO_ACCOUNT_ID}:user/deployer`],
    });
  });

  it("names both accounts when the keys belong to another one", async () => {
    const result = await check(awsKeys(deployerKeys, "111122223333"));
    expect(result).toMatchObject({
      ok: false,
      message: `These access keys belong to AWS account ${MOTO_ACCOUNT_ID}, not 111122223333: correct the account id or use keys of that account.`,
      field: "ACCOUNT_ID",
    });
  });

  it("points at the secret when it does not match the key", async () => {
    const result = await check(
      awsKeys({ accessKeyId: deployerKeys.accessKeyId, secretAccessKey: "wrong-secret-0123456789abcdef" }),
    );
    expect(result).toMatchObject({ ok: false, field: "SECRET_ACCESS_KEY" });
    expect(result.message).toMatch(/^The secret access key does not match the access key id/);
  });

  it("points at the key id when AWS does not know it", async () => {
    const result = await check(
      awsKeys({ accessKeyId: "AKIAUNKNOWNKEY000000", secretAccessKey: deployerKeys.secretAccessKey }),
    );
    expect(result).toMatchObject({ ok: false, field: "ACCESS_KEY_ID" });
    expect(result.message).toMatch(/^AWS does not know this access key id/);
  });

  it("says so when the endpoint refuses connections or its name does not resolve", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await check(awsKeys(deployerKeys), { awsEndpoint: closed })).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
    });
    expect(await check(awsKeys(deployerKeys), { awsEndpoint: "http://nothing.invalid" })).toEqual({
      ok: false,
      message:
        "Could not reach nothing.invalid: its name does not resolve (is this machine offline, or the address mistyped?).",
      details: [],
    });
  });

  it("gives up on an endpoint that never answers after 10 seconds", { timeout: 30_000 }, async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      expect(await check(awsKeys(deployerKeys), { awsEndpoint: `http://${host}` })).toEqual({
        ok: false,
        message: `${host} did not answer within 10 seconds.`,
        details: [],
      });
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      silent.close();
    }
  });
});

describe("AWS with a role", () => {
  it("assumes it with the organization's external id and confirms the account", async () => {
    const result = await check(awsRole(roleArn));
    expect(result.ok).toBe(true);
    expect(result.message).toMatch(
      new RegExp(
        `^AWS confirmed account ${MOTO_ACCOUNT_ID} as arn:aws:sts::${MOTO_ACCOUNT_ID}:assumed-role/${roleName}/cloud-console-check\\.$`,
      ),
    );
    expect(result.details).toEqual([
      `Account ${MOTO_ACCOUNT_ID}`,
      `Assumed arn:aws:sts::${MOTO_ACCOUNT_ID}:assumed-role/${roleName}/cloud-console-check`,
      `The role's trust policy requires the external id ${externalId}`,
    ]);
  });

  it("names both accounts when the role belongs to another one", async () => {
    const result = await check(awsRole(roleArn, "111122223333"));
    expect(result).toMatchObject({
      ok: false,
      message: `The role ${roleArn} belongs to AWS account ${MOTO_ACCOUNT_ID}, not 111122223333: correct the account id or the role ARN.`,
      field: "ACCOUNT_ID",
    });
  });

  it("says what to check when the role's trust policy refuses the organization's external id", async () => {
    const other = `arn:aws:iam::${MOTO_ACCOUNT_ID}:role/CloudConsoleReadOnly-elsewhere`;
    const result = await check(awsRole(other));
    expect(result).toEqual({
      ok: false,
      message:
        `AWS did not let Cloud Console assume ${other}: check that the role exists, that its trust policy trusts ` +
        `Cloud Console's AWS account and requires the external id ${externalId} (the CloudFormation stack below ` +
        "creates it so), and that the stack finished creating.",
      details: [],
      field: "ROLE_ARN",
    });
  });

  it("refuses a role that trusts the platform without requiring the external id", async () => {
    const result = await check(awsRole(`arn:aws:iam::${MOTO_ACCOUNT_ID}:role/OpenToThePlatform`));
    expect(result).toMatchObject({ ok: false, field: "ROLE_ARN" });
    expect(result.message).toBe(
      `The trust policy of the role OpenToThePlatform does not require this organization's external id ${externalId} ` +
        "(it names another one, or none), so Cloud Console will not use the role: create it with the CloudFormation stack below.",
    );
  });

  it("says when AWS refuses the platform's own credentials", async () => {
    process.env.AWS_SECRET_ACCESS_KEY = "wrong-secret-0123456789abcdef";
    try {
      const result = await check(awsRole(roleArn));
      expect(result.ok).toBe(false);
      expect(result.field).toBeUndefined();
      expect(result.message).toMatch(
        /^AWS refused this platform's own credentials \(SignatureDoesNotMatch: .*\): its operator must renew them, or connect with access keys instead\.$/,
      );
    } finally {
      process.env.AWS_SECRET_ACCESS_KEY = platformSecret;
    }
  });
});

describe("Amazon ECR", () => {
  const ecrKeys = (keys: { accessKeyId: string; secretAccessKey: string }): Credentials => ({
    ...awsKeys(keys),
    kind: "AWS_ECR",
  });
  const throughConnection: Credentials = {
    id: "5d1f0a64-3c57-4b8e-9a51-0c6f7d9e2b13",
    kind: "AWS_ECR",
    method: "connection",
    fields: { AWS_CONNECTION_ID: "0b7d3c1e-9f2a-4e6b-8c5d-1a2b3c4d5e6f", REGION: region },
    secrets: {},
  };
  const connections = (credentials: Credentials) => ({
    connection: (id: string) =>
      Promise.resolve(id === throughConnection.fields.AWS_CONNECTION_ID ? credentials : undefined),
  });

  it("signs in with keys and counts the repositories", async () => {
    const result = await check(ecrKeys(deployerKeys));
    expect(result).toEqual({
      ok: true,
      message: `Amazon ECR accepted arn:aws:iam::${MOTO_ACCOUNT_ID}:user/deployer: 2 repositories in ${region} of account ${MOTO_ACCOUNT_ID}.`,
      details: [
        `Account ${MOTO_ACCOUNT_ID}`,
        `Signed in as arn:aws:iam::${MOTO_ACCOUNT_ID}:user/deployer`,
        `Registry ${MOTO_ACCOUNT_ID}.dkr.ecr.${region}.amazonaws.com`,
        "2 repositories",
      ],
    });
  });

  it("goes through an AWS connection's role, with the template's permissions", async () => {
    const result = await check(throughConnection, connections(awsRole(roleArn)));
    expect(result.ok).toBe(true);
    expect(result.message).toBe(
      `Amazon ECR accepted arn:aws:sts::${MOTO_ACCOUNT_ID}:assumed-role/${roleName}/cloud-console-check: 2 repositories in ${region} of account ${MOTO_ACCOUNT_ID}.`,
    );
    const repositories = await expectingNoLeak(secretsInPlay, () =>
      awsEcr.repositories!(throughConnection, context(connections(awsRole(roleArn)))),
    );
    expect(repositories.map((repository) => repository.name)).toEqual(["team/api", "web"]);
  });

  it("points at the AWS connection when it fails its own check, or is not one", async () => {
    const failing = await check(
      throughConnection,
      connections(awsKeys({ ...deployerKeys, secretAccessKey: "wrong-secret-0123456789abcdef" })),
    );
    expect(failing).toMatchObject({ ok: false, field: "AWS_CONNECTION_ID" });
    expect(failing.message).toMatch(
      /^The AWS connection chosen failed its check: The secret access key does not match the access key id/,
    );

    const gone = await check(throughConnection);
    expect(gone).toMatchObject({ ok: false, field: "AWS_CONNECTION_ID" });
    expect(gone.message).toBe(
      "The AWS connection chosen is not one of this organization's AWS connections (was it deleted?): choose another.",
    );
    const notAws = await check(throughConnection, connections({ ...ecrKeys(deployerKeys) }));
    expect(notAws).toMatchObject({ ok: false, field: "AWS_CONNECTION_ID", message: gone.message });
  });

  it("says which permissions are missing when ECR refuses the user", async () => {
    const result = await check(ecrKeys(idleKeys));
    expect(result).toEqual({
      ok: false,
      message: `AWS did not let arn:aws:iam::${MOTO_ACCOUNT_ID}:user/idle call ECR GetAuthorizationToken: grant it ecr:GetAuthorizationToken, ecr:DescribeRepositories and ecr:DescribeImages.`,
      details: [],
      field: "ACCESS_KEY_ID",
    });
  });

  it("lists the repositories with their addresses", async () => {
    const repositories = await expectingNoLeak(secretsInPlay, () =>
      awsEcr.repositories!(ecrKeys(deployerKeys), context()),
    );
    expect(repositories).toEqual([
      {
        name: "team/api",
        description: `${MOTO_ACCOUNT_ID}.dkr.ecr.${region}.amazonaws.com/team/api`,
        updatedAt: null,
      },
      { name: "web", description: `${MOTO_ACCOUNT_ID}.dkr.ecr.${region}.amazonaws.com/web`, updatedAt: null },
    ]);
  });

  it("reads a tag's manifest digest with ECR's pull credentials, and a missing tag or repository in a pull's words", async () => {
    const registry = `${MOTO_ACCOUNT_ID}.dkr.ecr.${region}.amazonaws.com`;
    const pulled = await awsEcr.manifest!(ecrKeys(deployerKeys), context(), "web", "v1");
    // What a container engine pulls with: GetAuthorizationToken's "AWS:<password>", for the registry's host.
    expect(pulled).toEqual({
      digest: pushed.web.v1,
      image: `${registry}/web:v1`,
      auth: { username: "AWS", password: `${MOTO_ACCOUNT_ID}-auth-token`, serveraddress: registry },
    });
    await expect(awsEcr.manifest!(ecrKeys(deployerKeys), context(), "web", "9.9.9")).rejects.toThrow(
      new RegExp(
        `^Failed to pull image "${registry}/web:9\\.9\\.9": MANIFEST_UNKNOWN: manifest unknown \\(ECR ImageNotFoundException: `,
      ),
    );
    await expect(awsEcr.manifest!(ecrKeys(deployerKeys), context(), "nothing", "v1")).rejects.toThrow(
      /NAME_UNKNOWN: repository name not known to registry \(ECR RepositoryNotFoundException: /,
    );
  });

  it("lists a repository's tags with their digests and push times", async () => {
    const tags = await expectingNoLeak(secretsInPlay, () =>
      awsEcr.tags!(ecrKeys(deployerKeys), context(), "web"),
    );
    expect(
      tags.map(({ name, digest }) => ({ name, digest })).sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: "latest", digest: pushed.web.latest },
      { name: "v1", digest: pushed.web.v1 },
    ]);
    for (const tag of tags) expect(Date.parse(tag.pushedAt ?? "")).toBeGreaterThan(Date.now() - 10 * 60_000);
    expect(
      await expectingNoLeak(secretsInPlay, () => awsEcr.tags!(ecrKeys(deployerKeys), context(), "team/api")),
    ).toEqual([]);
  });

  it("refuses listings in plain words", async () => {
    const missing = expectingNoLeak(secretsInPlay, () =>
      awsEcr.tags!(ecrKeys(deployerKeys), context(), "missing"),
    );
    await expect(missing).rejects.toBeInstanceOf(ProviderRequestError);
    await expect(missing).rejects.toThrow(
      `Account ${MOTO_ACCOUNT_ID} has no ECR repository named missing in ${region}.`,
    );
    const wrongSecret = ecrKeys({ ...deployerKeys, secretAccessKey: "wrong-secret-0123456789abcdef" });
    const refused = expectingNoLeak(secretsInPlay, () => awsEcr.repositories!(wrongSecret, context()));
    await expect(refused).rejects.toBeInstanceOf(ProviderRequestError);
    await expect(refused).rejects.toThrow(/^The secret access key does not match the access key id/);
  });
});
