import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { attributeResponseSchema, resourceResponseSchema, servicePaths } from "#contract/services";
import { LABEL_SERVICE, labelFilter } from "../cloud/container/labels";
import { setUpContainerApi } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * A MySQL database on a container host through the API (decision 068): its sealed connection string logs in; its
 * container removed outside the console, a Relaunch starts another on the same data with the password the
 * platform sealed, so the connection string a client was given keeps working.
 */

const engine = setUpContainerEngine({ officialImages: ["mariadb"] });
const platform = setUpContainerApi(engine);

/** What the MariaDB client prints for `sql` run over TCP with `mysql://user:password@host:port/database`. */
function mysql(connectionString: string, sql: string): string {
  const url = new URL(connectionString);
  const result = spawnSync(
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
  if (result.error) throw new Error("The MariaDB client is missing: apt-get install -y mariadb-client");
  if (result.status !== 0) throw new Error(result.stderr.trim());
  return result.stdout.trim();
}

it("keeps a MySQL database's data and connection string when its container was removed outside the console", async () => {
  const { environmentId } = await platform.createEnvironment("mysql-on-this-machine");
  const created = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "database",
    name: "orders",
    config: { ...defaultServiceConfigs.database, engine: "mysql", version: "8.4", username: "shop" },
    launch: true,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const id = resourceResponseSchema.parse(await created.json()).resource.id;
  const deployed = await platform.settled(environmentId, id, { timeoutMs: 120_000 });
  expect(deployed.stage, deployed.message ?? "").toBe("STAGE_COMPLETED");
  expect(deployed.secretAttributes).toEqual(["password", "connectionString", "hostConnectionString"]);

  const revealed = await platform.call(
    "GET",
    servicePaths.attribute(platform.tenantId, environmentId, id, "hostConnectionString"),
  );
  expect(revealed.status).toBe(200);
  const connection = attributeResponseSchema.parse(await revealed.json()).value;
  expect(connection).toMatch(/^mysql:\/\/shop:[A-Za-z0-9]{32}@127\.0\.0\.1:\d+\/orders$/);
  mysql(connection, "CREATE TABLE orders (id int PRIMARY KEY, item text)");
  mysql(connection, "INSERT INTO orders VALUES (1, 'a teapot')");

  const filters = labelFilter({ [LABEL_SERVICE]: id });
  const [container] = await engine.engine.listContainers({ filters });
  await engine.engine.getContainer(container?.Id ?? "").remove({ force: true });
  const relaunched = await platform.call(
    "POST",
    servicePaths.launchDraft(platform.tenantId, environmentId, id),
    {},
  );
  expect(relaunched.status, await relaunched.clone().text()).toBe(200);
  const back = await platform.settled(environmentId, id, { timeoutMs: 120_000 });
  expect(back.stage, back.message ?? "").toBe("STAGE_COMPLETED");
  expect(await engine.engine.listContainers({ filters })).toHaveLength(1);
  expect(mysql(connection, "SELECT item FROM orders")).toBe("a teapot");
}, 240_000);
