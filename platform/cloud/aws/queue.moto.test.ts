import { CreateQueueCommand, GetQueueAttributesCommand, ListQueuesCommand } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { queueProvisioner } from "./queue";
import {
  applyUntilDone,
  destroyUntilDone,
  resourceOf,
  setUpMoto,
  taggedResources,
  testService,
} from "../../testing/aws";
import { expectListedSecrets } from "../../testing/aws-provisioning";

const { aws } = setUpMoto({ warmUp: true });

async function attributesOf(url: string) {
  const answer = await (
    await aws.sqs()
  ).send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }));
  return answer.Attributes ?? {};
}

async function queueUrlsNamed(prefix: string) {
  return (await (await aws.sqs()).send(new ListQueuesCommand({ QueueNamePrefix: prefix }))).QueueUrls ?? [];
}

describe("queue provisioner", () => {
  it("creates the queue with its dead-letter queue, changes it in place or by replacement, and deletes it", async () => {
    const service = testService(aws, resourceOf("queue", {}, { name: "orders" }));
    const created = await applyUntilDone(queueProvisioner, service);
    expectListedSecrets(queueProvisioner, service.resource, created.secrets);

    expect(created.progress).toContain("Creating the dead-letter queue");
    expect(created.endpoint).toMatch(/\/staging-orders$/);
    expect(created.secrets).toEqual({});
    const main = await attributesOf(created.endpoint ?? "");
    expect(main).toMatchObject({ VisibilityTimeout: "30", MessageRetentionPeriod: String(4 * 86_400) });
    expect(JSON.parse(main.RedrivePolicy ?? "{}")).toMatchObject({
      deadLetterTargetArn: created.outputs.deadLetterQueueArn,
      maxReceiveCount: 5,
    });
    expect(created.outputs.deadLetterQueueUrl).toMatch(/\/staging-orders-dlq$/);
    expect(await taggedResources(aws, service.resource.id)).toHaveLength(2);

    const before = service.resource;
    service.resource = {
      ...before,
      config: { ...before.config, visibilityTimeoutSeconds: 120, maxReceiveCount: 9 },
    };
    expect(queueProvisioner.plan(before, service.resource)).toEqual({
      inPlace: ["config.maxReceiveCount", "config.visibilityTimeoutSeconds"],
      replace: [],
    });
    const changed = await applyUntilDone(queueProvisioner, service);
    expect(changed.endpoint).toBe(created.endpoint);
    const updated = await attributesOf(changed.endpoint ?? "");
    expect(updated.VisibilityTimeout).toBe("120");
    expect(JSON.parse(updated.RedrivePolicy ?? "{}")).toMatchObject({ maxReceiveCount: 9 });

    const standard = service.resource;
    service.resource = { ...standard, config: { ...standard.config, queueType: "fifo" } };
    expect(queueProvisioner.plan(standard, service.resource)).toEqual({
      inPlace: [],
      replace: ["config.queueType"],
    });
    const replaced = await applyUntilDone(queueProvisioner, service);
    expect(replaced.endpoint).toMatch(/\/staging-orders\.fifo$/);
    expect(await attributesOf(replaced.endpoint ?? "")).toMatchObject({ FifoQueue: "true" });
    expect((await queueUrlsNamed("staging-orders")).sort()).toEqual(
      [replaced.endpoint, replaced.outputs.deadLetterQueueUrl].sort(),
    );

    const fifo = service.resource;
    service.resource = { ...fifo, config: { ...fifo.config, deadLetterQueue: false } };
    const withoutDeadLetters = await applyUntilDone(queueProvisioner, service);
    expect(withoutDeadLetters.outputs.deadLetterQueueUrl).toBeUndefined();
    expect((await attributesOf(withoutDeadLetters.endpoint ?? "")).RedrivePolicy).toBeUndefined();
    expect(await queueUrlsNamed("staging-orders")).toEqual([withoutDeadLetters.endpoint]);

    await destroyUntilDone(queueProvisioner, service);
    expect(await queueUrlsNamed("staging-orders")).toEqual([]);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  }, 60_000);

  it("finds what a call whose state was lost created, instead of creating it twice", async () => {
    const service = testService(aws, resourceOf("queue", {}, { name: "crashy" }));
    const first = await queueProvisioner.apply(service.context());
    expect(first.done).toBe(false);
    // The engine died before saving `first.state`: the next call starts from the old (empty) state.
    const done = await applyUntilDone(queueProvisioner, service);
    expect((await queueUrlsNamed("staging-crashy")).sort()).toEqual(
      [done.endpoint, done.outputs.deadLetterQueueUrl].sort(),
    );

    service.state = {};
    await destroyUntilDone(queueProvisioner, service);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  });

  it("refuses a queue name another owner's queue holds, and leaves that queue alone", async () => {
    await (await aws.sqs()).send(new CreateQueueCommand({ QueueName: "staging-billing" }));
    const service = testService(aws, resourceOf("queue", { deadLetterQueue: false }, { name: "billing" }));
    await expect(applyUntilDone(queueProvisioner, service)).rejects.toMatchObject({
      code: "QueueNameExists",
      message: expect.stringMatching(
        /^Creating the queue failed: an SQS queue named staging-billing already/,
      ),
    });
    await destroyUntilDone(queueProvisioner, service);
    expect(await queueUrlsNamed("staging-billing")).toHaveLength(1);
  });

  it("reports a queue deleted outside the console as missing", async () => {
    const service = testService(aws, resourceOf("queue", {}, { name: "observed" }));
    const done = await applyUntilDone(queueProvisioner, service);
    expect(await queueProvisioner.observe(service.context())).toEqual({ state: "ok" });
    const { DeleteQueueCommand } = await import("@aws-sdk/client-sqs");
    await (await aws.sqs()).send(new DeleteQueueCommand({ QueueUrl: done.endpoint ?? "" }));
    expect(await queueProvisioner.observe(service.context())).toEqual({
      state: "missing",
      message: "The SQS queue staging-observed no longer exists: it was deleted outside the console",
    });
    await destroyUntilDone(queueProvisioner, service);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  });
});
