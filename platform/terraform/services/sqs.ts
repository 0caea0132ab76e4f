import { attributes, FunctionCall, Reference, type HclValue, type ScannedResource } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";

export type SqsQueue = { url: string; attributes: Record<string, string> };
export type SqsInventory = { queues: SqsQueue[] };

const service = "sqs";

function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** The redrive policy as jsonencode(...), its dead-letter queue a reference when that queue is exported too. */
function redrivePolicy(policy: string | undefined): HclValue | undefined {
  if (!policy) return undefined;
  const parsed = JSON.parse(policy) as { deadLetterTargetArn?: string; maxReceiveCount?: number | string };
  const target = parsed.deadLetterTargetArn;
  return new FunctionCall("jsonencode", [
    {
      deadLetterTargetArn: target ? new Reference("aws_sqs_queue", target, "arn", target) : null,
      maxReceiveCount: Number(parsed.maxReceiveCount ?? 0),
    },
  ]);
}

export const sqsScanner: ServiceScanner<SqsInventory> = {
  service,
  permissions: ["sqs:ListQueues", "sqs:GetQueueAttributes"],

  async read(clients) {
    const { GetQueueAttributesCommand, paginateListQueues } = await import("@aws-sdk/client-sqs");
    const client = await clients.sqs();
    const urls = await collect(paginateListQueues({ client }, {}), (page) => page.QueueUrls);
    const queues = await mapWithConcurrency(urls, 4, async (url) => {
      const answer = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }),
      );
      return { url, attributes: answer.Attributes ?? {} };
    });
    return { queues };
  },

  toResources(raw) {
    return raw.queues.map((queue): ScannedResource => {
      const values = queue.attributes;
      const arn = values.QueueArn ?? queue.url;
      const name = queue.url.split("/").pop() ?? queue.url;
      const fifo = values.FifoQueue === "true";
      return {
        service,
        type: "aws_sqs_queue",
        awsId: arn,
        importId: queue.url,
        nameHint: name,
        body: attributes({
          name,
          fifo_queue: fifo ? true : undefined,
          content_based_deduplication: values.ContentBasedDeduplication === "true" ? true : undefined,
          delay_seconds: numberOf(values.DelaySeconds),
          max_message_size: numberOf(values.MaximumMessageSize),
          message_retention_seconds: numberOf(values.MessageRetentionPeriod),
          receive_wait_time_seconds: numberOf(values.ReceiveMessageWaitTimeSeconds),
          visibility_timeout_seconds: numberOf(values.VisibilityTimeout),
          kms_master_key_id: values.KmsMasterKeyId,
          redrive_policy: redrivePolicy(values.RedrivePolicy),
        }),
      };
    });
  },
};
