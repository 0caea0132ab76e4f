import type { AwsCredentials } from "../cloud/aws/clients";
import { scanPermissions } from "./scanner";
import { decodePolicyDocument } from "./services/iam";
import { isAwsError, unansweredFailureOf } from "../cloud/aws/aws-errors";

/** The product's name, which names the role (SPEC §2.4: "delete the role named after the product"). */
export const PRODUCT_NAME = "Cloud Console";

/**
 * The trust policy of the roles the quick-create stacks make: the platform's account may assume them, and only
 * with the external id the stack was made for (CloudFormation parameters TrustedAccountId and ExternalId).
 */
export const externalIdTrustPolicy = {
  Version: "2012-10-17",
  Statement: [
    {
      Effect: "Allow",
      Principal: { AWS: { "Fn::Sub": "arn:${AWS::Partition}:iam::${TrustedAccountId}:root" } },
      Action: "sts:AssumeRole",
      Condition: { StringEquals: { "sts:ExternalId": { Ref: "ExternalId" } } },
    },
  ],
};
export const ROLE_NAME_PREFIX = "CloudConsoleReadOnly";

/** One role per job, so a new generation never collides with the stack of an earlier one. */
export function roleNameFor(jobId: string): string {
  return `${ROLE_NAME_PREFIX}-${jobId.replaceAll("-", "").slice(0, 12)}`;
}

/** Actions beyond the scan: the platform reads the role's trust policy to check it requires the external id. */
const verificationPermissions = ["iam:GetRole"];
/**
 * What an AWS connection (issue 13) uses the same role for: an ECR registry through it lists repositories and tags
 * and checks it may sign in. No image layer can be pulled with these alone (that takes ecr:BatchGetImage and
 * ecr:GetDownloadUrlForLayer).
 */
const connectionPermissions = ["ecr:DescribeImages", "ecr:GetAuthorizationToken"];

/**
 * The CloudFormation template of the read-only role: it trusts the platform's AWS account only with this job's
 * external id, and may list and describe exactly what the scan reads (no data: no s3:GetObject, no secrets).
 */
export function readOnlyRoleTemplate() {
  return {
    AWSTemplateFormatVersion: "2010-09-09",
    Description: `${PRODUCT_NAME}: read-only access that lists and describes your resources (Terraform generation, an AWS connection and its ECR registries). Delete this stack to revoke the access.`,
    Parameters: {
      RoleName: {
        Type: "String",
        Description: `Name of the role ${PRODUCT_NAME} assumes`,
        AllowedPattern: "[\\w+=,.@-]{1,64}",
      },
      ExternalId: {
        Type: "String",
        Description: `The external id ${PRODUCT_NAME} must present: it ties the role to one organization's AWS connection or one Terraform generation`,
        MinLength: 16,
      },
      TrustedAccountId: {
        Type: "String",
        Description: `The AWS account ${PRODUCT_NAME} runs in`,
        AllowedPattern: "\\d{12}",
      },
    },
    Resources: {
      ReadOnlyRole: {
        Type: "AWS::IAM::Role",
        Properties: {
          RoleName: { Ref: "RoleName" },
          Description: `${PRODUCT_NAME} read-only access (Terraform generation, AWS connections)`,
          MaxSessionDuration: 3600,
          AssumeRolePolicyDocument: externalIdTrustPolicy,
          Policies: [
            {
              PolicyName: "TerraformGenerationReadOnly",
              PolicyDocument: {
                Version: "2012-10-17",
                Statement: [
                  {
                    Effect: "Allow",
                    Action: [
                      ...new Set([
                        ...scanPermissions(),
                        ...verificationPermissions,
                        ...connectionPermissions,
                      ]),
                    ].sort(),
                    Resource: "*",
                  },
                ],
              },
            },
          ],
        },
      },
    },
    Outputs: { RoleArn: { Value: { "Fn::GetAtt": ["ReadOnlyRole", "Arn"] } } },
  };
}

/** The AWS console's quick-create page for the role's stack, with every parameter filled in. */
export function quickCreateLink({
  region,
  templateUrl,
  roleName,
  externalId,
  trustedAccountId,
  parameters: more = {},
}: {
  region: string;
  templateUrl: string;
  roleName: string;
  externalId: string;
  trustedAccountId: string;
  /** The template's other parameters, by name. */
  parameters?: Record<string, string>;
}): string {
  const parameters = new URLSearchParams({
    templateURL: templateUrl,
    stackName: roleName,
    param_RoleName: roleName,
    param_ExternalId: externalId,
    param_TrustedAccountId: trustedAccountId,
    ...Object.fromEntries(Object.entries(more).map(([name, value]) => [`param_${name}`, value])),
  });
  return `https://console.aws.amazon.com/cloudformation/home?region=${encodeURIComponent(region)}#/stacks/quickcreate?${parameters}`;
}

export function roleArn(accountId: string, roleName: string): string {
  return `arn:aws:iam::${accountId}:role/${roleName}`;
}

type PolicyStatement = {
  Effect?: string;
  Action?: string | string[];
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

function allowsAssumeRole(statement: PolicyStatement): boolean {
  const actions = typeof statement.Action === "string" ? [statement.Action] : (statement.Action ?? []);
  return (
    statement.Effect === "Allow" &&
    actions.some((action) => ["sts:AssumeRole", "sts:*", "*"].includes(action))
  );
}

function externalIdsOf(statement: PolicyStatement): string[] {
  const value = statement.Condition?.StringEquals?.["sts:ExternalId"];
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * Whether a trust policy lets callers assume the role only with `externalId`: at least one statement allows
 * sts:AssumeRole with exactly that external id, and none allows it without one (the confused-deputy guard AWS
 * recommends for third parties).
 */
export function trustPolicyRequiresExternalId(document: unknown, externalId: string): boolean {
  const statements = (document as { Statement?: PolicyStatement | PolicyStatement[] } | null)?.Statement;
  const list = Array.isArray(statements) ? statements : statements ? [statements] : [];
  const assumable = list.filter(allowsAssumeRole);
  return (
    assumable.length > 0 &&
    assumable.every((statement) => {
      const ids = externalIdsOf(statement);
      return ids.length === 1 && ids[0] === externalId;
    })
  );
}

export type RoleAccess =
  | { kind: "assumed"; credentials: AwsCredentials }
  /** Not assumable yet (the stack is still being deployed, or never was): try again until the job's deadline. */
  | { kind: "waiting"; reason: string }
  /** Never going to work: the job fails with this reason. */
  | { kind: "rejected"; reason: string };

const platformCredentialErrors = [
  "InvalidClientTokenId",
  "SignatureDoesNotMatch",
  "UnrecognizedClientException",
  "CredentialsProviderError",
  "ExpiredTokenException",
];

/** AWS's answer as its code and message; no answer in words, with the code for support. */
function describe(error: unknown): string {
  const unanswered = unansweredFailureOf(error);
  if (unanswered) return unanswered;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Assumes the job's role with its external id, then reads the role's trust policy with the new credentials and
 * accepts it only if it requires that external id. AWS itself refuses a wrong external id at AssumeRole; the
 * second check also holds where the caller cannot rely on that (an endpoint that does not enforce trust policies).
 */
export async function assumeReadOnlyRole({
  accountId,
  roleName,
  externalId,
  region,
  sessionName,
  endpoint,
}: {
  accountId: string;
  roleName: string;
  externalId: string;
  region: string;
  sessionName: string;
  endpoint?: string;
}): Promise<RoleAccess> {
  const { AssumeRoleCommand, STSClient } = await import("@aws-sdk/client-sts");
  const { GetRoleCommand, IAMClient } = await import("@aws-sdk/client-iam");
  const sts = new STSClient({ region, ...(endpoint ? { endpoint } : {}) });
  let credentials: AwsCredentials;
  try {
    const answer = await sts.send(
      new AssumeRoleCommand({
        RoleArn: roleArn(accountId, roleName),
        RoleSessionName: sessionName,
        ExternalId: externalId,
        DurationSeconds: 3600,
      }),
    );
    const issued = answer.Credentials;
    if (!issued?.AccessKeyId || !issued.SecretAccessKey) {
      return { kind: "waiting", reason: "STS answered without credentials" };
    }
    credentials = {
      accessKeyId: issued.AccessKeyId,
      secretAccessKey: issued.SecretAccessKey,
      sessionToken: issued.SessionToken,
      expiration: issued.Expiration,
    };
  } catch (error) {
    if (isAwsError(error, ...platformCredentialErrors)) {
      return {
        kind: "rejected",
        reason: `The platform's own AWS credentials were refused (${describe(error)})`,
      };
    }
    return { kind: "waiting", reason: describe(error) };
  } finally {
    sts.destroy();
  }

  const iam = new IAMClient({ region, credentials, ...(endpoint ? { endpoint } : {}) });
  try {
    const { Role } = await iam.send(new GetRoleCommand({ RoleName: roleName }));
    const document = Role?.AssumeRolePolicyDocument;
    if (!document || !trustPolicyRequiresExternalId(decodePolicyDocument(document), externalId)) {
      return {
        kind: "rejected",
        reason:
          `The role ${roleName} in account ${accountId} does not require this generation's external id, so ` +
          `${PRODUCT_NAME} will not use it. Delete the stack ${roleName} and generate new Terraform.`,
      };
    }
    return { kind: "assumed", credentials };
  } catch (error) {
    return { kind: "waiting", reason: describe(error) };
  } finally {
    iam.destroy();
  }
}

/** The account of the platform's own credentials: the account the role's trust policy names. */
export async function callerAccountId({
  region,
  endpoint,
}: {
  region: string;
  endpoint?: string;
}): Promise<string> {
  const { GetCallerIdentityCommand, STSClient } = await import("@aws-sdk/client-sts");
  const sts = new STSClient({ region, ...(endpoint ? { endpoint } : {}) });
  try {
    const { Account } = await sts.send(new GetCallerIdentityCommand({}));
    if (!Account) throw new Error("STS GetCallerIdentity answered without an account");
    return Account;
  } finally {
    sts.destroy();
  }
}
