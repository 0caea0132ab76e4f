import { isAwsError } from "./aws-errors";
import type { ProvisionContext } from "./provisioner";
import { tagList, unlessMissing } from "./common";

/** IAM roles a service's AWS resources act with (an EKS cluster, its nodes, ECS tasks), with AWS managed policies. */

export const managedPolicy = (name: string) => `arn:aws:iam::aws:policy/${name}`;

/**
 * The role `name`, assumable by `service` (eks.amazonaws.com, ...) with `policyArns` attached; created when missing.
 * `created` says it is brand new: IAM takes a few seconds before another service accepts a new role.
 */
export async function ensureRole(
  context: ProvisionContext,
  {
    name,
    service,
    policyArns,
    description,
  }: { name: string; service: string; policyArns: string[]; description: string },
): Promise<{ arn: string; created: boolean }> {
  const sdk = await import("@aws-sdk/client-iam");
  const iam = await context.aws.iam();
  let role = (
    await unlessMissing(() => iam.send(new sdk.GetRoleCommand({ RoleName: name })), "NoSuchEntityException")
  )?.Role;
  const created = !role;
  if (!role) {
    try {
      role = (
        await iam.send(
          new sdk.CreateRoleCommand({
            RoleName: name,
            Description: description,
            AssumeRolePolicyDocument: JSON.stringify({
              Version: "2012-10-17",
              Statement: [{ Effect: "Allow", Principal: { Service: service }, Action: "sts:AssumeRole" }],
            }),
            Tags: tagList(context.tags),
          }),
        )
      ).Role;
      context.log("info", `Created IAM role ${name}`);
    } catch (error) {
      // Another attempt created it meanwhile.
      if (!isAwsError(error, "EntityAlreadyExistsException")) throw error;
      role = (await iam.send(new sdk.GetRoleCommand({ RoleName: name }))).Role;
    }
  }
  if (!role?.Arn) throw new Error(`IAM did not return the ARN of the role ${name}`);
  const attached = await iam.send(new sdk.ListAttachedRolePoliciesCommand({ RoleName: name }));
  const present = new Set((attached.AttachedPolicies ?? []).map((policy) => policy.PolicyArn));
  for (const policyArn of policyArns.filter((arn) => !present.has(arn))) {
    await iam.send(new sdk.AttachRolePolicyCommand({ RoleName: name, PolicyArn: policyArn }));
  }
  return { arn: role.Arn, created };
}

/** Detaches the role's policies and deletes it; a role already gone is fine. */
export async function deleteRole(context: ProvisionContext, name: string): Promise<void> {
  const sdk = await import("@aws-sdk/client-iam");
  const iam = await context.aws.iam();
  const attached = await unlessMissing(
    () => iam.send(new sdk.ListAttachedRolePoliciesCommand({ RoleName: name })),
    "NoSuchEntityException",
  );
  if (!attached) return;
  for (const policy of attached.AttachedPolicies ?? []) {
    await unlessMissing(
      () => iam.send(new sdk.DetachRolePolicyCommand({ RoleName: name, PolicyArn: policy.PolicyArn })),
      "NoSuchEntityException",
    );
  }
  const deleted = await unlessMissing(
    () => iam.send(new sdk.DeleteRoleCommand({ RoleName: name })),
    "NoSuchEntityException",
  );
  if (deleted) context.log("info", `Deleted IAM role ${name}`);
}
