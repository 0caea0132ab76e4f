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

const engine = setUpContainerEngine({ officialImages: ["redis"] });
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

/** Redis's answers to `commands`, sent in RESP's inline form over TCP to `redis://:password@host:port`. */
function redis(connectionString: string, commands: string[]): Promise<string> {
  const url = new URL(connectionString);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
      socket.write(
        [`AUTH ${decodeURIComponent(url.password)}`, ...commands, "QUIT"].map((c) => `${c}\r\n`).join(""),
      );
    });
    socket.on("data", (data) => (answer += data.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const labelled = (resourceId: string) => ({ filters: labelFilter({ [LABEL_SERVICE]: resourceId }) });

describe("a Redis cache on the container engine", () => {
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

  it("says which cache engines cannot run here yet", async () => {
    await expect(
      driverOf().apply(containerContext(cacheResource({ engine: "memcached", version: "1.6" }))),
    ).rejects.toThrow("Memcached caches cannot be deployed to a container engine yet: choose Redis.");
  });
});
