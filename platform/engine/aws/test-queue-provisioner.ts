import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  SetQueueAttributesCommand,
} from "@aws-sdk/client-sqs";
import type { Provisioner } from "./provisioner";

/**
 * A small real provisioner for the engine's tests against moto_server: an SQS queue named after the service's Name
 * tag. Creating a queue is idempotent by name in SQS, so a step repeated after a crash gets the queue an earlier
 * attempt created. The first step creates it and waits `waitMs`; the next converges its attributes and is done
 * with the queue's URL as endpoint. `afterCreate` lets a test stop a step between the cloud's answer and its
 * record, as a platform that dies there would.
 */
export function testQueueProvisioner({
  waitMs = 1000,
  afterCreate,
}: { waitMs?: number; afterCreate?: () => Promise<void> } = {}): Provisioner {
  const attributesOf = (config: Record<string, unknown>) => ({
    VisibilityTimeout: String(config.visibilityTimeoutSeconds ?? 30),
    MessageRetentionPeriod: String(Number(config.messageRetentionDays ?? 4) * 86_400),
  });
  return {
    secretAttributeNames: () => [],
    async apply({ resource, tags, state, aws, log }) {
      const sqs = await aws.sqs();
      const name = `${tags.Name}${resource.config.queueType === "fifo" ? ".fifo" : ""}`;
      if (!state.queueUrl) {
        const { QueueUrl } = await sqs.send(
          new CreateQueueCommand({
            QueueName: name,
            Attributes: {
              ...attributesOf(resource.config),
              ...(resource.config.queueType === "fifo" ? { FifoQueue: "true" } : {}),
            },
            tags,
          }),
        );
        if (!QueueUrl) throw new Error("SQS answered CreateQueue without a queue URL");
        log("info", `Created SQS queue ${name}`);
        await afterCreate?.();
        return {
          done: false,
          state: { ...state, queueUrl: QueueUrl },
          waitMs,
          progress: "Creating the queue",
        };
      }
      await sqs.send(
        new SetQueueAttributesCommand({
          QueueUrl: state.queueUrl,
          Attributes: attributesOf(resource.config),
        }),
      );
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: state.queueUrl, AttributeNames: ["QueueArn"] }),
      );
      log("info", `Queue ${name} is available`);
      return {
        done: true,
        state: { ...state, queueArn: Attributes?.QueueArn ?? "" },
        endpoint: state.queueUrl,
        secrets: {},
        outputs: { queueArn: Attributes?.QueueArn ?? "" },
      };
    },
    async destroy({ state, aws, log }) {
      if (state.queueUrl) {
        const sqs = await aws.sqs();
        try {
          await sqs.send(new DeleteQueueCommand({ QueueUrl: state.queueUrl }));
          log("info", `Deleted SQS queue ${state.queueUrl}`);
        } catch (error) {
          const name = error instanceof Error ? error.name : "";
          if (name !== "QueueDoesNotExist" && name !== "AWS.SimpleQueueService.NonExistentQueue") throw error;
        }
      }
      return { done: true };
    },
    plan(before, after) {
      const paths = [...new Set([...Object.keys(before.config), ...Object.keys(after.config)])]
        .filter((key) => JSON.stringify(before.config[key]) !== JSON.stringify(after.config[key]))
        .map((key) => `config.${key}`);
      return {
        inPlace: paths.filter((path) => path !== "config.queueType"),
        replace: paths.filter((path) => path === "config.queueType"),
      };
    },
    observe: async () => ({ state: "ok" }),
  };
}
