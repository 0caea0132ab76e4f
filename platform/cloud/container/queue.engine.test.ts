import { randomUUID } from "node:crypto";
import amqp from "amqplib";
import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings } from "#contract/services";
import type { DriverResource } from "../driver";
import { setUpContainerEngine } from "../../testing/container-engine";
import { containerContext, deployUntilDone, destroyUntilDone } from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine({ officialImages: ["rabbitmq"] });
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

function queueResource(): DriverResource {
  return {
    id: randomUUID(),
    name: "jobs",
    serviceType: "queue",
    config: { ...defaultServiceConfigs.queue },
    settings: defaultServiceSettings,
    environmentName: "production",
    cloudProvider: "AWS",
    region: "local",
  };
}

const deployed = (resource: DriverResource, state: Record<string, string> = {}) =>
  deployUntilDone(driverOf(), containerContext(resource, state), 400);

/** A persistent message on a durable queue, through the connection string, as an application sends one. */
async function send(connectionString: string, text: string) {
  const connection = await amqp.connect(connectionString);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertQueue("emails", { durable: true });
    channel.sendToQueue("emails", Buffer.from(text), { persistent: true });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}

/** The next message on the queue, taken off it, or null. */
async function receive(connectionString: string): Promise<string | null> {
  const connection = await amqp.connect(connectionString);
  try {
    const channel = await connection.createChannel();
    await channel.assertQueue("emails", { durable: true });
    const message = await channel.get("emails", { noAck: true });
    return message ? message.content.toString() : null;
  } finally {
    await connection.close();
  }
}

const labelled = (resourceId: string) => ({ filters: labelFilter({ [LABEL_SERVICE]: resourceId }) });

describe("a RabbitMQ queue on the container engine", () => {
  it("runs rabbitmq:3 with a sealed password on a named volume, keeps its messages across a redeploy, and leaves nothing once deleted", async () => {
    const resource = queueResource();
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "rabbitmq:3"');
    const port = first.endpoint?.split(":")[1];
    expect(first.endpoint).toBe(`127.0.0.1:${port}`);
    // Its attributes name it on the environment's network; the host's connection string, the published port.
    expect(first.outputs).toEqual({ host: "jobs", port: "5672", username: "jobs", vhost: "jobs" });
    expect(first.secrets.password).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(first.secrets.connectionString).toBe(`amqp://jobs:${first.secrets.password}@jobs:5672/jobs`);
    expect(first.secrets.hostConnectionString).toBe(
      `amqp://jobs:${first.secrets.password}@127.0.0.1:${port}/jobs`,
    );
    expect(JSON.stringify([first.state, first.lines])).not.toContain(first.secrets.password);
    expect(driverOf().secretAttributeNames(resource)).toEqual([
      "password",
      "connectionString",
      "hostConnectionString",
    ]);

    const connection = first.secrets.hostConnectionString ?? "";
    await send(connection, "welcome, ada");
    // A wrong password is refused by the broker.
    await expect(amqp.connect(connection.replace(/:[^:@]+@/, ":wrong@"))).rejects.toThrow(
      /ACCESS_REFUSED|403/,
    );

    const second = await deployed(resource, first.state);
    expect(second.state.container).not.toBe(first.state.container);
    expect(second.secrets.hostConnectionString).toBe(connection);
    expect(await receive(connection)).toBe("welcome, ada");

    // Its container removed outside the console: the next deployment sets a new password on the kept data.
    await send(connection, "welcome back");
    await engine.engine.getContainer(second.state.container ?? "").remove({ force: true });
    const third = await deployed(resource, second.state);
    expect(third.secrets.password).not.toBe(first.secrets.password);
    expect(await receive(third.secrets.hostConnectionString ?? "")).toBe("welcome back");
    await expect(amqp.connect(connection)).rejects.toThrow(/ACCESS_REFUSED|403/);

    await destroyUntilDone(driverOf(), containerContext(resource, third.state));
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
    expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);
  }, 240_000);
});
