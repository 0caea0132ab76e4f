import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings } from "#contract/services";
import type { DriverResource } from "../driver";
import { setUpContainerEngine } from "../../testing/container-engine";
import { containerContext, deployUntilDone, destroyUntilDone } from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine({ officialImages: ["postgres"] });
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

function databaseResource(): DriverResource {
  return {
    id: randomUUID(),
    name: "orders",
    serviceType: "database",
    config: { ...defaultServiceConfigs.database, engine: "postgres", version: "16", username: "shop" },
    settings: defaultServiceSettings,
    environmentName: "production",
    cloudProvider: "AWS",
    region: "local",
  };
}

const deployed = (resource: DriverResource, state: Record<string, string> = {}) =>
  deployUntilDone(driverOf(), containerContext(resource, state), 200);

async function query(connectionString: string, sql: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** `query` once the server accepts connections again (it starts within seconds after a restart). */
async function queryWhenReady(connectionString: string, sql: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await query(connectionString, sql);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

const labelled = (resourceId: string) => ({ filters: labelFilter({ [LABEL_SERVICE]: resourceId }) });

describe("a PostgreSQL database on the container engine", () => {
  it("runs postgres:16 on a named volume, answers its connection attributes, keeps its data across a redeploy, and leaves nothing once deleted", async () => {
    const resource = databaseResource();
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "postgres:16"');
    expect(first.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
    const port = first.endpoint?.split(":")[1];
    // Its address on the environment's network for the environment's applications, the published port for this
    // machine (decision 066).
    expect(first.outputs).toMatchObject({
      host: "orders",
      port: "5432",
      username: "shop",
      database: "orders",
    });
    expect(first.secrets.password).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(first.secrets.connectionString).toBe(
      `postgres://shop:${first.secrets.password}@orders:5432/orders`,
    );
    expect(first.secrets.hostConnectionString).toBe(
      `postgres://shop:${first.secrets.password}@127.0.0.1:${port}/orders`,
    );
    // The password is sealed by the engine: never in the state it keeps, nor in the deployment's logs.
    expect(JSON.stringify(first.state)).not.toContain(first.secrets.password);
    expect(JSON.stringify(first.lines)).not.toContain(first.secrets.password);
    expect(createContainerDriver({ dockerHost: engine.dockerHost }).secretAttributeNames(resource)).toEqual([
      "password",
      "connectionString",
      "hostConnectionString",
    ]);

    const connection = first.secrets.hostConnectionString ?? "";
    await query(connection, "CREATE TABLE orders (id int PRIMARY KEY, item text)");
    await query(connection, "INSERT INTO orders VALUES (1, 'a teapot')");
    const { Volumes: volumes } = await engine.engine.listVolumes(labelled(resource.id));
    expect(volumes.map((volume) => volume.Labels)).toEqual([
      expect.objectContaining({ "cloud-console.service": resource.id, "cloud-console.environment": "env-1" }),
    ]);

    const second = await deployed(resource, first.state);
    expect(second.state.container).not.toBe(first.state.container);
    // The same address and password: clients keep their connection string, and the row is still there.
    expect(second.secrets.hostConnectionString).toBe(connection);
    expect(await query(connection, "SELECT item FROM orders")).toEqual([{ item: "a teapot" }]);
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toHaveLength(1);

    // The server exits on its own (a fast shutdown of PID 1): the engine starts it again, data and all.
    const running = engine.engine.getContainer(second.state.container ?? "");
    const kill = await running.exec({ Cmd: ["kill", "-INT", "1"], AttachStdout: true, AttachStderr: true });
    (await kill.start({ hijack: true, stdin: false })).resume();
    const deadline = Date.now() + 60_000;
    let restarted = await running.inspect();
    while (Date.now() < deadline && !(restarted.RestartCount > 0 && restarted.State.Running)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      restarted = await running.inspect();
    }
    expect(restarted.RestartCount).toBeGreaterThan(0);
    expect(await queryWhenReady(connection, "SELECT item FROM orders")).toEqual([{ item: "a teapot" }]);

    // Its container removed outside the console: the drift check says so, and the next deployment brings the
    // database back on its volume, with a new password set on the data the volume kept.
    await engine.engine.getContainer(second.state.container ?? "").remove({ force: true });
    expect(await driverOf().observe?.(containerContext(resource, second.state))).toMatchObject({
      state: "missing",
    });
    const third = await deployed(resource, second.state);
    expect(third.secrets.password).not.toBe(first.secrets.password);
    expect(await query(third.secrets.hostConnectionString ?? "", "SELECT item FROM orders")).toEqual([
      { item: "a teapot" },
    ]);
    expect(JSON.stringify([third.state, third.lines])).not.toContain(third.secrets.password);

    await destroyUntilDone(driverOf(), containerContext(resource, third.state));
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
    expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);
  }, 180_000);
});
