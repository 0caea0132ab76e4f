import type { ConnectionFieldName } from "#contract/connections";
import { createAwsClients, type AwsConnection, type AwsCredentials } from "../../cloud/aws/clients";
import { PRODUCT_NAME, trustPolicyRequiresExternalId } from "../../terraform/role-access";
import { decodePolicyDocument } from "../../terraform/services/iam";
import { isAwsError } from "../../cloud/aws/aws-errors";
import { PROVIDER_TIMEOUT_MS, unreachableMessage } from "../http";
import type { Credentials, Provider, ProviderContext } from "../providers";
import { checkWith, ProviderRefusal } from "../refusals";

/**
 * AWS (SPEC §3): a role the organization's CloudFormation stack created, assumed with the organization's external
 * id from the platform's own credentials, or an IAM user's access keys. Either way STS GetCallerIdentity must name
 * the account the user entered. AWS_ECR reaches AWS through the same code (`awsAccess`).
 */

export const DEFAULT_AWS_REGION = "us-east-1";
/**
 * Calls of a check try twice, each given half the provider time-out: a refused or unresolvable endpoint is
 * reported in about a second, a silent one after SPEC §9's 10 seconds, not after eight tries.
 */
const CHECK_ATTEMPTS = 2;
const checkCall = { maxAttempts: CHECK_ATTEMPTS, timeoutMs: PROVIDER_TIMEOUT_MS / CHECK_ATTEMPTS };

/** Credentials that GetCallerIdentity confirmed for the account the connection names. */
export type AwsAccess = { connection: AwsConnection; accountId: string; arn: string; details: string[] };

type SdkError = { $fault?: unknown; $metadata?: { httpStatusCode?: unknown } } | null;

/** Whether AWS answered (an error of the service) rather than the call failing before any answer. */
function answeredByAws(error: unknown): boolean {
  const { $fault, $metadata } = (error ?? {}) as NonNullable<SdkError>;
  return typeof $fault === "string" || typeof $metadata?.httpStatusCode === "number";
}

/**
 * Whether AWS refused the caller the action. An HTTP 403 counts whatever its body: an endpoint may answer it in
 * another protocol's format than the SDK reads (moto answers XML to ECR's JSON calls), and 403 means the same.
 */
export function isAccessDenied(error: unknown): boolean {
  return (
    isAwsError(error, "AccessDenied", "AccessDeniedException") ||
    (error as SdkError)?.$metadata?.httpStatusCode === 403
  );
}

function sdkErrorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The address a call went to, for "Could not reach …": moto in tests, else the service's regional endpoint. */
export function awsServiceUrl(service: "sts" | "iam" | "api.ecr", region: string, endpoint?: string): string {
  if (endpoint) return endpoint;
  return service === "iam" ? "https://iam.amazonaws.com" : `https://${service}.${region}.amazonaws.com`;
}

/**
 * A call's failure the caller did not name more precisely: an endpoint that could not be reached (no field to
 * fix: the platform chooses AWS's address), else AWS's own words pointing at `field`.
 */
export function awsRefusal(
  error: unknown,
  { url, action, field }: { url: string; action: string; field?: ConnectionFieldName },
): ProviderRefusal {
  if (!answeredByAws(error)) return new ProviderRefusal(unreachableMessage(url, error, PROVIDER_TIMEOUT_MS));
  return new ProviderRefusal(`AWS refused ${action} (${sdkErrorText(error)}).`, field);
}

/** Whose credentials these are: GetCallerIdentity, with AWS's refusal of a wrong key or secret named. */
async function callerIdentity(
  connection: AwsConnection,
  fields: { keyId?: ConnectionFieldName; secret?: ConnectionFieldName; other: ConnectionFieldName },
): Promise<{ accountId: string; arn: string }> {
  const clients = createAwsClients(connection);
  try {
    const { GetCallerIdentityCommand } = await import("@aws-sdk/client-sts");
    const answer = await (await clients.sts()).send(new GetCallerIdentityCommand({}));
    if (!answer.Account || !answer.Arn) {
      throw new ProviderRefusal("AWS STS answered GetCallerIdentity without an account.", fields.other);
    }
    return { accountId: answer.Account, arn: answer.Arn };
  } catch (error) {
    if (error instanceof ProviderRefusal) throw error;
    if (fields.keyId && isAwsError(error, "InvalidClientTokenId", "UnrecognizedClientException")) {
      throw new ProviderRefusal(
        "AWS does not know this access key id: check it (and that the key was not deleted or deactivated).",
        fields.keyId,
      );
    }
    if (fields.secret && isAwsError(error, "SignatureDoesNotMatch")) {
      throw new ProviderRefusal(
        "The secret access key does not match the access key id: paste the secret again (it is shown once, when the key is created).",
        fields.secret,
      );
    }
    throw awsRefusal(error, {
      url: awsServiceUrl("sts", connection.region, connection.endpoint),
      action: "GetCallerIdentity",
      field: fields.other,
    });
  } finally {
    clients.destroy();
  }
}

function roleNameOf(roleArn: string): string {
  return roleArn.slice(roleArn.lastIndexOf("/") + 1);
}

/**
 * Assumes the connection's role from the platform's own credentials with the organization's external id, then
 * reads the role's trust policy with the new credentials and accepts it only if it requires that external id (the
 * Terraform page's rule, decision 006): a role that trusts us without it would let another organization of this
 * platform use it.
 */
async function assumeConnectionRole(
  roleArn: string,
  {
    region,
    endpoint,
    sessionName,
    externalId,
  }: { region: string; endpoint?: string; sessionName: string; externalId: string },
): Promise<AwsCredentials> {
  const { AssumeRoleCommand } = await import("@aws-sdk/client-sts");
  const platform = createAwsClients({ region, endpoint, ...checkCall });
  let credentials: AwsCredentials;
  try {
    const answer = await (
      await platform.sts()
    ).send(
      new AssumeRoleCommand({
        RoleArn: roleArn,
        RoleSessionName: sessionName,
        ExternalId: externalId,
        DurationSeconds: 900,
      }),
    );
    const issued = answer.Credentials;
    if (!issued?.AccessKeyId || !issued.SecretAccessKey) {
      throw new ProviderRefusal("AWS STS answered AssumeRole without credentials.", "ROLE_ARN");
    }
    credentials = {
      accessKeyId: issued.AccessKeyId,
      secretAccessKey: issued.SecretAccessKey,
      sessionToken: issued.SessionToken,
      expiration: issued.Expiration,
    };
  } catch (error) {
    if (error instanceof ProviderRefusal) throw error;
    if (isAwsError(error, "CredentialsProviderError")) {
      throw new ProviderRefusal(
        `This platform has no AWS credentials of its own to assume the role with: its operator must give it some (environment, shared files or an instance role), or connect with access keys instead.`,
      );
    }
    if (
      isAwsError(
        error,
        "InvalidClientTokenId",
        "SignatureDoesNotMatch",
        "ExpiredToken",
        "ExpiredTokenException",
      )
    ) {
      throw new ProviderRefusal(
        `AWS refused this platform's own credentials (${sdkErrorText(error)}): its operator must renew them, or connect with access keys instead.`,
      );
    }
    if (isAccessDenied(error)) {
      throw new ProviderRefusal(
        `AWS did not let ${PRODUCT_NAME} assume ${roleArn}: check that the role exists, that its trust policy trusts ` +
          `${PRODUCT_NAME}'s AWS account and requires the external id ${externalId} (the CloudFormation stack below ` +
          `creates it so), and that the stack finished creating.`,
        "ROLE_ARN",
      );
    }
    throw awsRefusal(error, {
      url: awsServiceUrl("sts", region, endpoint),
      action: `to assume ${roleArn}`,
      field: "ROLE_ARN",
    });
  } finally {
    platform.destroy();
  }

  const roleName = roleNameOf(roleArn);
  const assumed = createAwsClients({ region, endpoint, credentials, ...checkCall });
  try {
    const { GetRoleCommand } = await import("@aws-sdk/client-iam");
    const { Role } = await (await assumed.iam()).send(new GetRoleCommand({ RoleName: roleName }));
    const document = Role?.AssumeRolePolicyDocument;
    if (!document || !trustPolicyRequiresExternalId(decodePolicyDocument(document), externalId)) {
      throw new ProviderRefusal(
        `The trust policy of the role ${roleName} does not require this organization's external id ` +
          `${externalId} (it names another one, or none), so ${PRODUCT_NAME} will not use the role: create it ` +
          `with the CloudFormation stack below.`,
        "ROLE_ARN",
      );
    }
    return credentials;
  } catch (error) {
    if (error instanceof ProviderRefusal) throw error;
    if (isAwsError(error, "NoSuchEntity", "NoSuchEntityException")) {
      throw new ProviderRefusal(
        `There is no role named ${roleName} in this account: check the role ARN.`,
        "ROLE_ARN",
      );
    }
    if (isAccessDenied(error)) {
      throw new ProviderRefusal(
        `The role ${roleName} may not read its own trust policy (iam:GetRole), so ${PRODUCT_NAME} cannot confirm ` +
          `that it requires your external id: create the role with the CloudFormation stack below.`,
        "ROLE_ARN",
      );
    }
    throw awsRefusal(error, {
      url: awsServiceUrl("iam", region, endpoint),
      action: `GetRole ${roleName}`,
      field: "ROLE_ARN",
    });
  } finally {
    assumed.destroy();
  }
}

/**
 * Opens an AWS connection's credentials (method `role` or `keys`) in `region` and confirms with GetCallerIdentity
 * that they belong to ACCOUNT_ID. Throws ProviderRefusal with the field to fix.
 */
export async function awsAccess(
  credentials: Credentials,
  context: ProviderContext,
  region = credentials.fields.REGION ?? DEFAULT_AWS_REGION,
): Promise<AwsAccess> {
  const { fields, secrets } = credentials;
  const endpoint = context.awsEndpoint;
  const expectedAccount = fields.ACCOUNT_ID ?? "";
  const base = { region, endpoint, ...checkCall };

  if (credentials.method === "role") {
    const roleArn = fields.ROLE_ARN ?? "";
    const assumed = await assumeConnectionRole(roleArn, {
      region,
      endpoint,
      externalId: context.awsExternalId,
      sessionName: `cloud-console-${(credentials.id ?? "check").replaceAll("-", "").slice(0, 12)}`,
    });
    const connection = { ...base, credentials: assumed };
    const identity = await callerIdentity(connection, { other: "ROLE_ARN" });
    if (identity.accountId !== expectedAccount) {
      throw new ProviderRefusal(
        `The role ${roleArn} belongs to AWS account ${identity.accountId}, not ${expectedAccount}: correct the account id or the role ARN.`,
        "ACCOUNT_ID",
      );
    }
    return {
      connection,
      ...identity,
      details: [
        `Account ${identity.accountId}`,
        `Assumed ${identity.arn}`,
        `The role's trust policy requires the external id ${context.awsExternalId}`,
      ],
    };
  }

  const connection: AwsConnection = {
    ...base,
    credentials: {
      accessKeyId: fields.ACCESS_KEY_ID ?? "",
      secretAccessKey: secrets.SECRET_ACCESS_KEY ?? "",
    },
  };
  const identity = await callerIdentity(connection, {
    keyId: "ACCESS_KEY_ID",
    secret: "SECRET_ACCESS_KEY",
    other: "ACCESS_KEY_ID",
  });
  if (identity.accountId !== expectedAccount) {
    throw new ProviderRefusal(
      `These access keys belong to AWS account ${identity.accountId}, not ${expectedAccount}: correct the account id or use keys of that account.`,
      "ACCOUNT_ID",
    );
  }
  return {
    connection,
    ...identity,
    details: [`Account ${identity.accountId}`, `Signed in as ${identity.arn}`],
  };
}

export const aws: Provider = {
  check: (credentials, context) =>
    checkWith(async () => {
      const access = await awsAccess(credentials, context);
      return {
        message: `AWS confirmed account ${access.accountId} as ${access.arn}.`,
        details: access.details,
      };
    }),
};
