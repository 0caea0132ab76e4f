import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import amqp from "amqplib";
import { expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { attributeResponseSchema, resourceResponseSchema, servicePaths } from "#contract/services";
import { LABEL_SERVICE, labelFilter } from "../cloud/container/labels";
import { setUpContainerApi } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * Issue 26's queue and file storage through the API, on the run's podman: an environment on a container host runs a
 * RabbitMQ queue and an S3-compatible file storage (RustFS) from their official images; the attributes SPEC §7's
 * attribute call reveals (sealed at rest) carry a message and an object; deleting each service leaves no container
 * or volume of it.
 */

const engine = setUpContainerEngine({ officialImages: ["rabbitmq", "rustfs"] });
const platform = setUpContainerApi(engine);

it("runs a queue and a file storage on a container host, their sealed attributes work, and deleting them leaves nothing", async () => {
  const { environmentId } = await platform.createEnvironment("queues-and-files");

  async function launched(body: Record<string, unknown>): Promise<string> {
    const response = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
      ...body,
      launch: true,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return resourceResponseSchema.parse(await response.json()).resource.id;
  }
  async function attribute(id: string, name: string): Promise<string> {
    const response = await platform.call(
      "GET",
      servicePaths.attribute(platform.tenantId, environmentId, id, name),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    return attributeResponseSchema.parse(await response.json()).value;
  }
  async function leavesNothing(id: string) {
    const path = servicePaths.one(platform.tenantId, environmentId, id);
    const deleted = await platform.call("DELETE", path);
    expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && (await platform.call("GET", path)).status !== 404) {
      await platform.api.engine.runner.runUntilIdle();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await platform.call("GET", path)).status).toBe(404);
    const filters = labelFilter({ [LABEL_SERVICE]: id });
    expect(await engine.engine.listContainers({ all: true, filters })).toEqual([]);
    expect((await engine.engine.listVolumes({ filters })).Volumes ?? []).toEqual([]);
  }

  const queue = await launched({ serviceType: "queue", name: "jobs", config: defaultServiceConfigs.queue });
  const storage = await launched({
    serviceType: "file-storage",
    name: "uploads",
    config: { ...defaultServiceConfigs["file-storage"], bucketName: "shop-uploads" },
  });

  const jobs = await platform.settled(environmentId, queue, { timeoutMs: 180_000 });
  expect(jobs.stage, jobs.message ?? "").toBe("STAGE_COMPLETED");
  expect(jobs.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(jobs.secretAttributes).toEqual(["password", "connectionString", "hostConnectionString"]);
  // From this machine (the engine's host); the environment's applications use connectionString on its network.
  const connection = await amqp.connect(await attribute(queue, "hostConnectionString"));
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertQueue("emails", { durable: true });
    channel.sendToQueue("emails", Buffer.from("welcome"), { persistent: true });
    await channel.waitForConfirms();
    expect(((await channel.get("emails", { noAck: true })) || null)?.content.toString()).toBe("welcome");
  } finally {
    await connection.close();
  }

  const uploads = await platform.settled(environmentId, storage, { timeoutMs: 180_000 });
  expect(uploads.stage, uploads.message ?? "").toBe("STAGE_COMPLETED");
  expect(uploads.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/shop-uploads$/);
  expect(uploads.secretAttributes).toEqual(["accessKeyId", "secretAccessKey"]);
  const s3 = new S3Client({
    endpoint: new URL(uploads.endpoint ?? "").origin,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: {
      accessKeyId: await attribute(storage, "accessKeyId"),
      secretAccessKey: await attribute(storage, "secretAccessKey"),
    },
  });
  try {
    await s3.send(new PutObjectCommand({ Bucket: "shop-uploads", Key: "hello.txt", Body: "hello" }));
    const { Body: body } = await s3.send(new GetObjectCommand({ Bucket: "shop-uploads", Key: "hello.txt" }));
    expect(await body?.transformToString()).toBe("hello");
  } finally {
    s3.destroy();
  }

  await leavesNothing(queue);
  await leavesNothing(storage);
}, 420_000);
