import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings } from "#contract/services";
import type { DriverResource } from "../driver";
import { setUpContainerEngine } from "../../testing/container-engine";
import { containerContext, deployUntilDone, destroyUntilDone } from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine({ officialImages: ["redis", "valkey", "memcached"] });
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

function cacheResource(config: Record<string, unknown> = {}): DriverResource {
  return {
    id: randomUUID(),
    name: "sessions",
    serviceType: "cache",
    config: { ...defaultServiceConfigs.cache, engine: "redis", version: "7.1", ...config },
    settings: defaultServiceSettings,
    environmentName: "production",
    cloudProvider: "AWS",
    region: "local",
  };
}

const deployed = (resource: DriverResource, state: Record<string, string> = {}) =>
  deployUntilDone(driverOf(), containerContext(resource, state), 200);

/** What the server at `connectionString` answers to `lines`, sent over TCP, until it closes the connection. */
function answersOf(connectionString: string, lines: string[]): Promise<string> {
  const url = new URL(connectionString);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
      socket.write(lines.map((line) => `${line}\r\n`).join(""));
    });
    socket.on("data", (data) => (answer += data.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** Redis's answers to `commands`, sent in RESP's inline form to `redis://:password@host:port`. */
const redis = (connectionString: string, commands: string[]) =>
  answersOf(connectionString, [
    `AUTH ${decodeURIComponent(new URL(connectionString).password)}`,
    ...commands,
    "QUIT",
  ]);

/** Memcached's answers to `commands` in its text protocol, at `memcached://host:port`. */
const memcached = (connectionString: string, commands: string[]) =>
  answersOf(connectionString, [...commands, "quit"]);

const labelled = (resourceId: string) => ({ filters: labelFilter({ [LABEL_SERVICE]: resourceId }) });

describe("Redis, Valkey and Memcached caches on the container engine", () => {
  it("runs redis:7 with a password on a named volume, keeps its data across a redeploy, and leaves nothing once deleted", async () => {
    const resource = cacheResource();
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "redis:7"');
    const port = first.endpoint?.split(":")[1];
    expect(first.endpoint).toBe(`127.0.0.1:${port}`);
    // Its address on the environment's network for the environment's applications, the published port for this
    // machine (decision 066).
    expect(first.outputs).toMatchObject({ host: "sessions", port: "6379" });
    expect(first.secrets.authToken).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(first.secrets.connectionString).toBe(`redis://:${first.secrets.authToken}@sessions:6379`);
    expect(first.secrets.hostConnectionString).toBe(`redis://:${first.secrets.authToken}@127.0.0.1:${port}`);
    expect(JSON.stringify([first.state, first.lines])).not.toContain(first.secrets.authToken);
    expect(driverOf().secretAttributeNames(resource)).toEqual([
      "authToken",
      "connectionString",
      "hostConnectionString",
    ]);

    const connection = first.secrets.hostConnectionString ?? "";
    expect(await redis(connection, ["PING", "SET greeting hello"])).toBe("+OK\r\n+PONG\r\n+OK\r\n+OK\r\n");
    // Without the password, Redis refuses.
    expect(await redis(connection.replace(/:[^:@]+@/, ":wrong@"), ["GET greeting"])).toMatch(/^-WRONGPASS/);

    const second = await deployed(resource, first.state);
    expect(second.state.container).not.toBe(first.state.container);
    expect(second.secrets.hostConnectionString).toBe(connection);
    expect(await redis(connection, ["GET greeting"])).toBe("+OK\r\n$5\r\nhello\r\n+OK\r\n");

    await destroyUntilDone(driverOf(), containerContext(resource, second.state));
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
    expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);
  });

  it("runs valkey/valkey:8.0 with a password on a named volume, keeps its data across a redeploy, and leaves nothing once deleted", async () => {
    const resource = cacheResource({ engine: "valkey", version: "8.0" });
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "valkey/valkey:8.0"');
    const [container] = await engine.engine.listContainers(labelled(resource.id));
    const started = await engine.engine.getContainer(container?.Id ?? "").inspect();
    expect(started.Config.Cmd?.[0]).toBe("valkey-server");
    const connection = first.secrets.hostConnectionString ?? "";
    expect(connection).toMatch(/^redis:\/\/:[A-Za-z0-9]{32}@127\.0\.0\.1:\d+$/);
    expect(await redis(connection, ["SET greeting hello"])).toBe("+OK\r\n+OK\r\n+OK\r\n");
    expect(await redis(connection.replace(/:[^:@]+@/, ":wrong@"), ["GET greeting"])).toMatch(/^-WRONGPASS/);

    const second = await deployed(resource, first.state);
    expect(second.secrets.hostConnectionString).toBe(connection);
    expect(await redis(connection, ["GET greeting"])).toBe("+OK\r\n$5\r\nhello\r\n+OK\r\n");

    await destroyUntilDone(driverOf(), containerContext(resource, second.state));
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
    expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);
  });

  it("runs memcached:1.6 on loopback without a password or a volume, says so in its log, and leaves nothing once deleted", async () => {
    const resource = cacheResource({ engine: "memcached", version: "1.6" });
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "memcached:1.6"');
    const port = first.endpoint?.split(":")[1];
    expect(first.endpoint).toBe(`127.0.0.1:${port}`);
    expect(first.secrets).toEqual({
      connectionString: "memcached://sessions:11211",
      hostConnectionString: `memcached://127.0.0.1:${port}`,
    });
    expect(first.outputs).toMatchObject({ host: "sessions", port: "11211" });
    expect(driverOf().secretAttributeNames(resource)).toEqual(["connectionString", "hostConnectionString"]);
    expect(first.lines).toContainEqual(
      expect.objectContaining({
        level: "warn",
        message:
          "Memcached takes no password: it is published on 127.0.0.1 only, where any process on this host can " +
          "read and write its items; no other machine can reach it",
      }),
    );
    // Three quarters of the container's 1024 MB for items.
    expect(
      await memcached(first.secrets.hostConnectionString ?? "", [
        "set greeting 0 0 5",
        "hello",
        "get greeting",
        "stats settings",
      ]),
    ).toMatch(/^STORED\r\nVALUE greeting 0 5\r\nhello\r\nEND\r\n[\s\S]*STAT maxbytes 805306368\r\n/);
    expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);

    // A redeploy starts another server: Memcached's items were in the old one's memory only.
    const second = await deployed(resource, first.state);
    expect(second.secrets.hostConnectionString).toBe(first.secrets.hostConnectionString);
    expect(await memcached(second.secrets.hostConnectionString ?? "", ["get greeting"])).toBe("END\r\n");

    await destroyUntilDone(driverOf(), containerContext(resource, second.state));
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
  });
});
