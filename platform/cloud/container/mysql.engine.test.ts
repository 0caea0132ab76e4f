import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings } from "#contract/services";
import type { DriverResource } from "../driver";
import { setUpContainerEngine } from "../../testing/container-engine";
import { containerContext, deployUntilDone, destroyUntilDone } from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine({ officialImages: ["mariadb"] });
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

function databaseResource(engineName: "mysql" | "mariadb", version: string): DriverResource {
  return {
    id: randomUUID(),
    name: "orders",
    serviceType: "database",
    config: { ...defaultServiceConfigs.database, engine: engineName, version, username: "shop" },
    settings: defaultServiceSettings,
    environmentName: "production",
    cloudProvider: "AWS",
    region: "local",
  };
}

const deployed = (resource: DriverResource, state: Record<string, string> = {}) =>
  deployUntilDone(driverOf(), containerContext(resource, state), 200);

/**
 * What the MariaDB client (mariadb-client, beside the stand-in's mariadb-server) prints for `sql` run over TCP
 * with `mysql://user:password@host:port/database`; it fails with the server's words when the login is refused.
 */
function mysql(connectionString: string, sql: string): string {
  const url = new URL(connectionString);
  // The server answers in its container before the engine's published port always does on a busy machine (seen
  // once in CI: "Can't connect to server on '127.0.0.1' (115)" right after the readiness check passed): a client
  // on the host tries again for a few seconds, as a pool would.
  for (let attempt = 1; ; attempt++) {
    const result = run(url, sql);
    if (result.status === 0 || attempt === 20 || !result.stderr.includes("ERROR 2002")) {
      if (result.error) throw new Error(`The MariaDB client is missing: apt-get install -y mariadb-client`);
      if (result.status !== 0) throw new Error(result.stderr.trim());
      return result.stdout.trim();
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
}

function run(url: URL, sql: string) {
  return spawnSync(
    "mariadb",
    [
      "--protocol=TCP",
      `--host=${url.hostname}`,
      `--port=${url.port}`,
      `--user=${decodeURIComponent(url.username)}`,
      "--batch",
      "--skip-column-names",
      `--execute=${sql}`,
      url.pathname.slice(1),
    ],
    { encoding: "utf8", env: { ...process.env, MYSQL_PWD: decodeURIComponent(url.password) } },
  );
}

const labelled = (resourceId: string) => ({ filters: labelFilter({ [LABEL_SERVICE]: resourceId }) });

describe("MySQL and MariaDB databases on the container engine", () => {
  it("runs mysql:8.4 on a named volume with its password sealed, keeps its data across a redeploy, and leaves nothing once deleted", async () => {
    const resource = databaseResource("mysql", "8.4");
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "mysql:8.4"');
    const port = first.endpoint?.split(":")[1];
    expect(first.endpoint).toBe(`127.0.0.1:${port}`);
    // Applications reference its address on the environment's network; this machine's clients the published port.
    expect(first.outputs).toMatchObject({
      host: "orders",
      port: "3306",
      username: "shop",
      database: "orders",
    });
    expect(first.secrets.password).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(first.secrets.connectionString).toBe(`mysql://shop:${first.secrets.password}@orders:3306/orders`);
    expect(first.secrets.hostConnectionString).toBe(
      `mysql://shop:${first.secrets.password}@127.0.0.1:${port}/orders`,
    );
    expect(JSON.stringify([first.state, first.lines])).not.toContain(first.secrets.password);
    expect(driverOf().secretAttributeNames(resource)).toEqual([
      "password",
      "connectionString",
      "hostConnectionString",
    ]);

    // A real login with the sealed password: the user owns its database; a wrong password is refused.
    const connection = first.secrets.hostConnectionString ?? "";
    mysql(connection, "CREATE TABLE orders (id int PRIMARY KEY, item text)");
    mysql(connection, "INSERT INTO orders VALUES (1, 'a teapot')");
    expect(mysql(connection, "SELECT CURRENT_USER()")).toBe("shop@%");
    expect(() => mysql(connection.replace(/:[^:@]+@/, ":wrong@"), "SELECT 1")).toThrow(/Access denied/);
    // The superuser has the same password (the one secret of the service).
    expect(mysql(connection.replace("//shop:", "//root:"), "SELECT COUNT(*) FROM orders.orders")).toBe("1");
    const { Volumes: volumes } = await engine.engine.listVolumes(labelled(resource.id));
    expect(volumes.map((volume) => volume.Labels)).toEqual([
      expect.objectContaining({ "cloud-console.service": resource.id }),
    ]);

    const second = await deployed(resource, first.state);
    expect(second.state.container).not.toBe(first.state.container);
    expect(second.secrets.hostConnectionString).toBe(connection);
    expect(mysql(connection, "SELECT item FROM orders")).toBe("a teapot");
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toHaveLength(1);

    // Its container removed outside the console: MySQL keeps the password on the data, which the service's sealed
    // attributes still know. The next deployment starts a container with it: same connection string, same row.
    await engine.engine.getContainer(second.state.container ?? "").remove({ force: true });
    const third = await deployUntilDone(
      driverOf(),
      containerContext(resource, second.state, { sealedSecrets: () => second.secrets }),
      200,
    );
    expect(third.secrets.hostConnectionString).toBe(connection);
    expect(mysql(connection, "SELECT item FROM orders")).toBe("a teapot");
    expect(JSON.stringify([third.state, third.lines])).not.toContain(third.secrets.password);

    // Without them (nothing sealed), the driver says why it cannot start another (it would not know the password)
    // instead of waiting for a login that never comes.
    await engine.engine.getContainer(third.state.container ?? "").remove({ force: true });
    await expect(deployed(resource, third.state)).rejects.toThrow(
      `The container of orders was removed outside the console, and MySQL keeps its password on the data of ` +
        `volume orders-${resource.id.slice(0, 8)}-data: the driver cannot set a new one without the old. The data ` +
        "is kept; delete the service to start afresh.",
    );

    await destroyUntilDone(driverOf(), containerContext(resource, third.state));
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
    expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);
  }, 240_000);

  it("runs mariadb:11.4 from its MARIADB_ variables, and leaves nothing once deleted", async () => {
    const resource = databaseResource("mariadb", "11.4");
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "mariadb:11.4"');
    const connection = first.secrets.hostConnectionString ?? "";
    expect(connection).toMatch(/^mysql:\/\/shop:[A-Za-z0-9]{32}@127\.0\.0\.1:\d+\/orders$/);
    const [container] = await engine.engine.listContainers(labelled(resource.id));
    const variables = (await engine.engine.getContainer(container?.Id ?? "").inspect()).Config.Env ?? [];
    const names = variables.map((variable) => variable.split("=")[0] ?? "");
    expect(names.filter((name) => /^(MYSQL|MARIADB)_/.test(name)).sort()).toEqual([
      "MARIADB_DATABASE",
      "MARIADB_PASSWORD",
      "MARIADB_ROOT_PASSWORD",
      "MARIADB_USER",
    ]);
    mysql(connection, "CREATE TABLE notes (body text)");
    expect(mysql(connection, "SHOW TABLES")).toBe("notes");

    await destroyUntilDone(driverOf(), containerContext(resource, first.state));
    expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
    expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);
  }, 240_000);
});
