import type * as SqsSdk from "@aws-sdk/client-sqs";
import type { ServiceConfig } from "#contract/service-configs";
import type { DriverResource, Observation } from "../driver";
import { configOf } from "../configs";
import { awsNameOf, ownedBy, tagsOf } from "./naming";
import type { ApplyResult, DestroyResult, ProvisionContext, Provisioner } from "./provisioner";
import {
  ProvisionError,
  isAwsError,
  runSteps,
  unlessMissing,
  type State,
  type Step,
  failingAs,
  changePlanOf,
} from "./common";

/**
 * A queue: an SQS queue (FIFO when asked) and, with `deadLetterQueue`, its dead-letter queue and the redrive
 * policy that moves a message there after `maxReceiveCount` receives. The queue type is part of an SQS queue's
 * name and fixed at creation, so changing it replaces both queues; every other setting is a queue attribute.
 * No secret: the queue URL is its address, and access is granted to the workloads' IAM roles.
 */

/** A dead-letter queue keeps failed messages as long as SQS keeps any, so nobody loses one before reading it. */
const DEAD_LETTER_RETENTION_SECONDS = 14 * 86_400;
/** AWS refuses to reuse a deleted queue's name for 60 seconds. */
const NAME_REUSE_WAIT_MS = 61_000;
const MISSING = ["QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue"];

type Sqs = { client: SqsSdk.SQSClient; sdk: typeof SqsSdk };

async function sqsOf(context: ProvisionContext): Promise<Sqs> {
  return { client: await context.aws.sqs(), sdk: await import("@aws-sdk/client-sqs") };
}

/** SQS names have at most 80 characters, `.fifo` included. */
function queueNamesOf(resource: DriverResource, config: ServiceConfig<"queue">) {
  const fifo = config.queueType === "fifo" ? ".fifo" : "";
  return {
    main: awsNameOf(resource, { maxLength: 80, suffix: fifo }),
    deadLetter: awsNameOf(resource, { maxLength: 80, suffix: `-dlq${fifo}` }),
  };
}

const nameOfUrl = (url: string) => url.slice(url.lastIndexOf("/") + 1);

/** The URL of the queue of this name, and whether this service created it. */
async function findQueue(
  sqs: Sqs,
  context: ProvisionContext,
  name: string,
): Promise<{ url: string; owned: boolean } | undefined> {
  const answer = await unlessMissing(
    () => sqs.client.send(new sqs.sdk.GetQueueUrlCommand({ QueueName: name })),
    ...MISSING,
  );
  if (!answer?.QueueUrl) return undefined;
  const { Tags } = await sqs.client.send(new sqs.sdk.ListQueueTagsCommand({ QueueUrl: answer.QueueUrl }));
  return { url: answer.QueueUrl, owned: ownedBy(context, Tags) };
}

/** The queue of this name that this service created, if any (another's queue of that name is left alone). */
async function findOwnQueue(sqs: Sqs, context: ProvisionContext, name: string): Promise<string> {
  const found = await findQueue(sqs, context, name);
  return found?.owned ? found.url : "";
}

function redrivePolicyOf(deadLetterQueueArn: string, maxReceiveCount: number): string {
  return JSON.stringify({ deadLetterTargetArn: deadLetterQueueArn, maxReceiveCount });
}

/** The attributes the configuration asks of the main queue. */
function queueAttributesOf(config: ServiceConfig<"queue">, deadLetterQueueArn: string | undefined) {
  return {
    VisibilityTimeout: String(config.visibilityTimeoutSeconds),
    MessageRetentionPeriod: String(config.messageRetentionDays * 86_400),
    RedrivePolicy:
      config.deadLetterQueue && deadLetterQueueArn
        ? redrivePolicyOf(deadLetterQueueArn, config.maxReceiveCount)
        : "",
  };
}

/** Whether an attribute AWS holds already says what `wanted` says (redrive policies compared as JSON). */
function sameAttribute(name: string, held: string | undefined, wanted: string): boolean {
  if (name !== "RedrivePolicy" || !held || !wanted) return (held ?? "") === wanted;
  const parse = (value: string) => {
    const policy = JSON.parse(value) as { deadLetterTargetArn?: string; maxReceiveCount?: unknown };
    return `${policy.deadLetterTargetArn}:${Number(policy.maxReceiveCount)}`;
  };
  return parse(held) === parse(wanted);
}

function createQueueStep(
  sqs: Sqs,
  context: ProvisionContext,
  {
    progress,
    name,
    key,
    attributes,
  }: { progress: string; name: string; key: string; attributes: () => State },
): Step {
  return {
    progress,
    async run() {
      const found = await findQueue(sqs, context, name);
      if (found && !found.owned) {
        throw new ProvisionError(
          `an SQS queue named ${name} already exists in this account and region and was not created for this service`,
          "QueueNameExists",
        );
      }
      if (found) return { state: { [key]: found.url } };
      try {
        const created = await sqs.client.send(
          new sqs.sdk.CreateQueueCommand({
            QueueName: name,
            Attributes: {
              ...(name.endsWith(".fifo") ? { FifoQueue: "true" } : {}),
              ...Object.fromEntries(Object.entries(attributes()).filter(([, value]) => value !== "")),
            },
            tags: tagsOf(context, key, name),
          }),
        );
        context.log("info", `Created SQS queue ${name}`);
        return { state: { [key]: created.QueueUrl ?? "" }, waitMs: 0 };
      } catch (error) {
        if (!isAwsError(error, "QueueDeletedRecently", "AWS.SimpleQueueService.QueueDeletedRecently"))
          throw error;
        return {
          waitMs: NAME_REUSE_WAIT_MS,
          progress: `Waiting to reuse the name ${name}: AWS frees a deleted queue's name after 60 seconds`,
        };
      }
    },
  };
}

async function queueArnOf(sqs: Sqs, url: string): Promise<string> {
  const { Attributes } = await sqs.client.send(
    new sqs.sdk.GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["QueueArn"] }),
  );
  return Attributes?.QueueArn ?? "";
}

/** Deletes the queues whose URLs `key` lists (comma-separated); a queue already gone counts as deleted. */
function deleteQueuesStep(sqs: Sqs, context: ProvisionContext, progress: string, keys: string[]): Step {
  return {
    progress,
    async run(state) {
      const urls = keys.flatMap((key) => (state[key] ? state[key].split(",") : []));
      if (urls.length === 0) return;
      for (const url of urls) {
        await unlessMissing(
          () => sqs.client.send(new sqs.sdk.DeleteQueueCommand({ QueueUrl: url })),
          ...MISSING,
        );
        context.log("info", `Deleted SQS queue ${nameOfUrl(url)}`);
      }
      return { state: Object.fromEntries(keys.map((key) => [key, ""])) };
    },
  };
}

async function apply(context: ProvisionContext): Promise<ApplyResult> {
  const config = configOf(context.resource, "queue");
  const names = queueNamesOf(context.resource, config);
  const sqs = await sqsOf(context);
  const steps: Step[] = [
    {
      // A queue of the other type (or a dead-letter queue no longer wanted) is deleted once the new ones stand.
      progress: "Replacing the queue",
      async run(state) {
        const retired = [
          state.queueUrl && nameOfUrl(state.queueUrl) !== names.main ? state.queueUrl : "",
          state.deadLetterQueueUrl &&
          (!config.deadLetterQueue || nameOfUrl(state.deadLetterQueueUrl) !== names.deadLetter)
            ? state.deadLetterQueueUrl
            : "",
        ].filter(Boolean);
        if (retired.length === 0) return;
        const keep = (url: string | undefined) => (url && !retired.includes(url) ? url : "");
        return {
          state: {
            retiredQueueUrls: [state.retiredQueueUrls, ...retired].filter(Boolean).join(","),
            queueUrl: keep(state.queueUrl),
            deadLetterQueueUrl: keep(state.deadLetterQueueUrl),
          },
        };
      },
    },
    ...(config.deadLetterQueue
      ? [
          createQueueStep(sqs, context, {
            progress: "Creating the dead-letter queue",
            name: names.deadLetter,
            key: "deadLetterQueueUrl",
            attributes: () => ({ MessageRetentionPeriod: String(DEAD_LETTER_RETENTION_SECONDS) }),
          }),
        ]
      : []),
    {
      progress: "Reading the dead-letter queue",
      async run(state) {
        if (!state.deadLetterQueueUrl) return { state: { deadLetterQueueArn: "" } };
        return { state: { deadLetterQueueArn: await queueArnOf(sqs, state.deadLetterQueueUrl) } };
      },
    },
    {
      progress: config.queueType === "fifo" ? "Creating the FIFO queue" : "Creating the queue",
      async run(state) {
        const step = createQueueStep(sqs, context, {
          progress: "",
          name: names.main,
          key: "queueUrl",
          attributes: () => queueAttributesOf(config, state.deadLetterQueueArn),
        });
        return step.run(state);
      },
    },
    {
      progress: config.deadLetterQueue ? "Setting the redrive policy" : "Applying queue attributes",
      async run(state) {
        const url = state.queueUrl ?? "";
        const { Attributes } = await sqs.client.send(
          new sqs.sdk.GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }),
        );
        const held: State = Attributes ?? {};
        const wanted: State = queueAttributesOf(config, state.deadLetterQueueArn);
        const changes = Object.fromEntries(
          Object.entries(wanted).filter(([name, value]) => !sameAttribute(name, held[name], value)),
        );
        if (Object.keys(changes).length > 0) {
          await sqs.client.send(
            new sqs.sdk.SetQueueAttributesCommand({ QueueUrl: url, Attributes: changes }),
          );
          context.log("info", `Set ${Object.keys(changes).join(", ")} on SQS queue ${names.main}`);
        }
        return { state: { queueArn: held.QueueArn ?? "" } };
      },
    },
    deleteQueuesStep(sqs, context, "Deleting the replaced queues", ["retiredQueueUrls"]),
  ];
  const result = await runSteps(steps, context.state);
  if (!result.done) return result;
  // The address clients use, as SQS itself answers it.
  const { QueueUrl } = await sqs.client.send(new sqs.sdk.GetQueueUrlCommand({ QueueName: names.main }));
  const { state } = result;
  return {
    done: true,
    state,
    endpoint: QueueUrl ?? null,
    secrets: {},
    outputs: {
      queueUrl: QueueUrl ?? "",
      queueArn: state.queueArn ?? "",
      ...(state.deadLetterQueueUrl
        ? { deadLetterQueueUrl: state.deadLetterQueueUrl, deadLetterQueueArn: state.deadLetterQueueArn ?? "" }
        : {}),
    },
  };
}

async function destroy(context: ProvisionContext): Promise<DestroyResult> {
  const config = configOf(context.resource, "queue");
  const names = queueNamesOf(context.resource, config);
  const sqs = await sqsOf(context);
  const result = await runSteps(
    [
      {
        // A call that crashed before its state was saved may have created a queue the state does not name.
        progress: "Finding the queues",
        async run(state) {
          return {
            state: {
              queueUrl: state.queueUrl ?? (await findOwnQueue(sqs, context, names.main)),
              deadLetterQueueUrl:
                state.deadLetterQueueUrl ?? (await findOwnQueue(sqs, context, names.deadLetter)),
            },
          };
        },
      },
      deleteQueuesStep(sqs, context, "Deleting the queue", ["queueUrl"]),
      deleteQueuesStep(sqs, context, "Deleting the dead-letter queue", [
        "deadLetterQueueUrl",
        "retiredQueueUrls",
      ]),
    ],
    context.state,
  );
  return result.done ? { done: true } : result;
}

async function observe(context: ProvisionContext): Promise<Observation> {
  const sqs = await sqsOf(context);
  const queues: [string, string | undefined][] = [
    ["queue", context.state.queueUrl],
    ["dead-letter queue", context.state.deadLetterQueueUrl],
  ];
  for (const [label, url] of queues) {
    if (!url) continue;
    const answer = await unlessMissing(() => queueArnOf(sqs, url), ...MISSING);
    if (answer !== undefined) continue;
    const message = `The SQS ${label} ${nameOfUrl(url)} no longer exists: it was deleted outside the console`;
    return { state: label === "queue" ? "missing" : "degraded", message };
  }
  return { state: "ok" };
}

export const queueProvisioner: Provisioner = {
  secretAttributeNames: () => [],
  apply,
  destroy,
  plan: (before, after) =>
    changePlanOf(before, after, {
      replace: ["config.queueType"],
      inPlace: [
        "config.visibilityTimeoutSeconds",
        "config.messageRetentionDays",
        "config.deadLetterQueue",
        "config.maxReceiveCount",
      ],
    }),
  observe: (context) => failingAs("Checking the queue", () => observe(context)),
};
