import { unlessMissing } from "./common";
import type { ProvisionContext } from "./provisioner";

/**
 * Where a service in AWS writes its logs (issue 14): CloudWatch Logs groups. A provisioner whose service runs code
 * lists its groups in the output `logGroups` (comma-separated), which the logs tab reads
 * (platform/deployments/aws-telemetry.ts): an application its task definition's awslogs group, a serverless function
 * /aws/lambda/<function>, a database the groups RDS exports its logs to. The platform creates the groups of
 * applications and functions itself, tagged like the rest of the service (before Lambda would create an untagged
 * one on the first invocation), and deletes them on teardown. Queues, buckets, tables, caches, networks,
 * certificates and clusters run no code of the user's: they have no log group, and their logs tab shows their
 * deployments' lines only.
 */

export const LOG_GROUPS_OUTPUT = "logGroups";
/** How long CloudWatch keeps the lines of the groups the platform creates. */
export const LOG_RETENTION_DAYS = 30;

/** The log groups a service's outputs name. */
export const logGroupsOf = (outputs: Readonly<Record<string, string>> | null | undefined): string[] =>
  (outputs?.[LOG_GROUPS_OUTPUT] ?? "").split(",").filter(Boolean);

export const logGroupsOutput = (groups: string[]) => ({ [LOG_GROUPS_OUTPUT]: groups.join(",") });

async function logsOf(context: ProvisionContext) {
  return { logs: await context.aws.cloudWatchLogs(), sdk: await import("@aws-sdk/client-cloudwatch-logs") };
}

/** Creates the group `name`, tagged with the service, unless it exists; keeps its lines LOG_RETENTION_DAYS. */
export async function ensureLogGroup(context: ProvisionContext, name: string): Promise<void> {
  const { logs, sdk } = await logsOf(context);
  const found = await logs.send(new sdk.DescribeLogGroupsCommand({ logGroupNamePrefix: name }));
  const group = found.logGroups?.find((candidate) => candidate.logGroupName === name);
  if (group?.retentionInDays === LOG_RETENTION_DAYS) return;
  if (!group) {
    const created = await unlessMissing(
      () => logs.send(new sdk.CreateLogGroupCommand({ logGroupName: name, tags: context.tags })),
      "ResourceAlreadyExistsException",
    );
    if (created) context.log("info", `Created log group ${name}`);
  }
  await logs.send(
    new sdk.PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: LOG_RETENTION_DAYS }),
  );
}

/** Deletes the group `name` with its lines; a group already gone is fine. */
export async function deleteLogGroup(context: ProvisionContext, name: string): Promise<void> {
  const { logs, sdk } = await logsOf(context);
  const deleted = await unlessMissing(
    () => logs.send(new sdk.DeleteLogGroupCommand({ logGroupName: name })),
    "ResourceNotFoundException",
  );
  if (deleted) context.log("info", `Deleted log group ${name}`);
}
