import { randomBytes } from "node:crypto";
import { isAwsError } from "./aws-errors";
import type { ProvisionContext } from "./provisioner";
import { tagList, unlessMissing } from "./common";

/**
 * Generated credentials (a database password, a cache's auth token) live in AWS Secrets Manager, tagged like the
 * rest, so the account holds them where its own tools (rotation, IAM policies) can use them. The platform reads them
 * back to fill the service's secret attributes.
 */

/** Letters and digits only: allowed by RDS and ElastiCache alike, and needs no escaping in a URL or a shell. */
export function generatedPassword(length: number): string {
  let password = "";
  while (password.length < length) {
    password += randomBytes(length * 2)
      .toString("base64")
      .replace(/[^A-Za-z0-9]/g, "");
  }
  return password.slice(0, length);
}

/**
 * The secret called `name`, created with `generate()` when it does not exist yet. A retried step finds the secret an
 * earlier attempt created (by its name), so the value a resource was created with is never replaced.
 */
export async function ensureSecret(
  context: ProvisionContext,
  { name, description, generate }: { name: string; description: string; generate: () => string },
): Promise<{ arn: string; value: string }> {
  const sdk = await import("@aws-sdk/client-secrets-manager");
  const client = await context.aws.secretsManager();
  const read = async () => {
    try {
      const found = await client.send(new sdk.GetSecretValueCommand({ SecretId: name }));
      return found.ARN && found.SecretString ? { arn: found.ARN, value: found.SecretString } : undefined;
    } catch (error) {
      if (isAwsError(error, "ResourceNotFoundException")) return undefined;
      // A secret scheduled for deletion (a teardown that stopped half-way) is restored rather than recreated.
      if (isAwsError(error, "InvalidRequestException")) {
        await client.send(new sdk.RestoreSecretCommand({ SecretId: name }));
        const restored = await client.send(new sdk.GetSecretValueCommand({ SecretId: name }));
        return restored.ARN && restored.SecretString
          ? { arn: restored.ARN, value: restored.SecretString }
          : undefined;
      }
      throw error;
    }
  };
  const existing = await read();
  if (existing) return existing;
  const value = generate();
  try {
    const created = await client.send(
      new sdk.CreateSecretCommand({
        Name: name,
        Description: description,
        SecretString: value,
        Tags: tagList(context.tags),
      }),
    );
    if (!created.ARN) throw new Error(`Secrets Manager did not return the ARN of ${name}`);
    context.log("info", `Created secret ${name} in Secrets Manager`);
    return { arn: created.ARN, value };
  } catch (error) {
    // Another attempt created it meanwhile: use that one.
    if (!isAwsError(error, "ResourceExistsException")) throw error;
    const raced = await read();
    if (!raced) throw error;
    return raced;
  }
}

/**
 * Deletes the secret at once (no recovery window), so a service created again under the same name starts afresh.
 * Secrets Manager answers a forced deletion of a secret that is already gone as a success (and shows one being
 * deleted with its DeletedDate for a while), so the secret is looked up first: a teardown that waits (and calls its
 * step again every 30 s) logs the deletion once.
 */
export async function deleteSecret(context: ProvisionContext, name: string): Promise<void> {
  const sdk = await import("@aws-sdk/client-secrets-manager");
  const client = await context.aws.secretsManager();
  const found = await unlessMissing(
    () => client.send(new sdk.DescribeSecretCommand({ SecretId: name })),
    "ResourceNotFoundException",
  );
  if (!found) return;
  const deleted = await unlessMissing(
    () => client.send(new sdk.DeleteSecretCommand({ SecretId: name, ForceDeleteWithoutRecovery: true })),
    "ResourceNotFoundException",
  );
  if (deleted && !found.DeletedDate) context.log("info", `Deleted secret ${name} from Secrets Manager`);
}

/**
 * The secret called `name` holding `value` (decision 074: an application's secret variables, as JSON), created or
 * given a new version when its value differs, and readable by `reader` (an IAM role's ARN) through the secret's
 * own resource policy, so no role gets a policy document of the platform's writing. Answers the version that
 * holds `value`: a task definition naming it changes exactly when the value does.
 */
export async function ensureSecretValue(
  context: ProvisionContext,
  { name, description, value, reader }: { name: string; description: string; value: string; reader: string },
): Promise<{ arn: string; versionId: string }> {
  const sdk = await import("@aws-sdk/client-secrets-manager");
  const client = await context.aws.secretsManager();
  const current = await unlessMissing(
    () => client.send(new sdk.GetSecretValueCommand({ SecretId: name })),
    "ResourceNotFoundException",
  ).catch(async (error: unknown) => {
    // Scheduled for deletion (a teardown that stopped half-way): restored, then given the value below.
    if (!isAwsError(error, "InvalidRequestException")) throw error;
    await client.send(new sdk.RestoreSecretCommand({ SecretId: name }));
    return client.send(new sdk.GetSecretValueCommand({ SecretId: name }));
  });
  let secret: { arn: string; versionId: string };
  if (!current) {
    const created = await unlessMissing(
      () =>
        client.send(
          new sdk.CreateSecretCommand({
            Name: name,
            Description: description,
            SecretString: value,
            Tags: tagList(context.tags),
          }),
        ),
      "ResourceExistsException",
    );
    // Another attempt created it meanwhile: found now, and given the value if it differs.
    if (!created) return ensureSecretValue(context, { name, description, value, reader });
    if (!created.ARN || !created.VersionId)
      throw new Error(`Secrets Manager did not return the ARN of ${name}`);
    context.log("info", `Created secret ${name} in Secrets Manager`);
    secret = { arn: created.ARN, versionId: created.VersionId };
  } else if (current.SecretString !== value) {
    const put = await client.send(new sdk.PutSecretValueCommand({ SecretId: name, SecretString: value }));
    if (!put.ARN || !put.VersionId) throw new Error(`Secrets Manager did not return the version of ${name}`);
    context.log("info", `Updated secret ${name} in Secrets Manager`);
    secret = { arn: put.ARN, versionId: put.VersionId };
  } else {
    if (!current.ARN || !current.VersionId)
      throw new Error(`Secrets Manager did not return the ARN of ${name}`);
    secret = { arn: current.ARN, versionId: current.VersionId };
  }
  const policy = JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Principal: { AWS: reader }, Action: "secretsmanager:GetSecretValue", Resource: "*" },
    ],
  });
  const existing = await client.send(new sdk.GetResourcePolicyCommand({ SecretId: name }));
  if (existing.ResourcePolicy !== policy) {
    await client.send(new sdk.PutResourcePolicyCommand({ SecretId: name, ResourcePolicy: policy }));
  }
  return secret;
}
