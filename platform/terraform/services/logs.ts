import type { LogGroup } from "@aws-sdk/client-cloudwatch-logs";
import { attributes, type ScannedResource, type ServiceName } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";

export type LogsInventory = { logGroups: (LogGroup & { tags?: Record<string, string> })[] };

/**
 * The folder a log group goes to: beside what writes to it (an ECS task definition's awslogs driver names its
 * `/ecs/…` group; Lambda writes to `/aws/lambda/<function>`), so the task definition can refer to it; else logs/.
 */
function folderOf(name: string): ServiceName {
  if (name.startsWith("/ecs/")) return "ecs";
  if (name.startsWith("/aws/lambda/")) return "lambda";
  return "logs";
}

/** CloudWatch log groups with their retention and tags; their log streams and events are data, not configuration. */
export const logsScanner: ServiceScanner<LogsInventory> = {
  service: "logs",
  permissions: ["logs:DescribeLogGroups", "logs:ListTagsForResource"],

  async read(clients) {
    const { ListTagsForResourceCommand, paginateDescribeLogGroups } = await import(
      "@aws-sdk/client-cloudwatch-logs"
    );
    const client = await clients.cloudWatchLogs();
    const groups = await collect(paginateDescribeLogGroups({ client }, {}), (page) => page.logGroups);
    const logGroups = await mapWithConcurrency(groups, 4, async (group) => {
      // DescribeLogGroups answers the ARN with a trailing `:*`; tags are kept on the ARN without it.
      const resourceArn = group.arn?.replace(/:\*$/, "");
      if (!resourceArn) return group;
      const { tags } = await client.send(new ListTagsForResourceCommand({ resourceArn }));
      return { ...group, tags };
    });
    return { logGroups };
  },

  toResources(raw) {
    return raw.logGroups.flatMap((group): ScannedResource[] => {
      const name = group.logGroupName;
      if (!name) return [];
      const tags = Object.fromEntries(
        Object.entries(group.tags ?? {}).filter(([key]) => !key.startsWith("aws:")),
      );
      return [
        {
          service: folderOf(name),
          type: "aws_cloudwatch_log_group",
          // By name, as a task definition's awslogs-group names it; environment-scan.ts makes its ARN.
          awsId: name,
          importId: name,
          nameHint: name.replace(/^\/(aws\/)?/, ""),
          body: attributes({
            name,
            retention_in_days: group.retentionInDays,
            kms_key_id: group.kmsKeyId,
            tags,
          }),
          tags,
        },
      ];
    });
  },
};
