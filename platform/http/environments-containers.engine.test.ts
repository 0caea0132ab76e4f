import { connect } from "node:net";
import pg from "pg";
import { expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { environmentPaths } from "#contract/environments";
import { defaultServiceConfigs } from "#contract/service-configs";
import {
  attributeResponseSchema,
  defaultServiceSettings,
  resourceResponseSchema,
  servicePaths,
} from "#contract/services";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import { setUpContainerApi } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * Issue 26's data services and teardown through the API, on the run's podman: an environment on a container
 * host runs an application from `nginx:1.27`, a PostgreSQL database and a Redis cache, each from its official
 * image (the test engine's Docker Hub mirror); their connection attributes, read as SPEC §7's attribute call
 * reads them, open real connections; deleting the environment leaves nothing labelled with it on the engine.
 */

const engine = setUpContainerEngine({ officialImages: ["nginx", "postgres", "redis"] });
const platform = setUpContainerApi(engine);
let environmentId: string;

/** Everything on the engine labelled with the environment: containers, volumes, networks, images. */
async function labelledWithEnvironment() {
  const filters = labelFilter({ [LABEL_ENVIRONMENT]: environmentId });
  return {
    containers: await engine.engine.listContainers({ all: true, filters }),
    volumes: (await engine.engine.listVolumes({ filters })).Volumes ?? [],
    networks: await engine.engine.listNetworks({ filters }),
    images: await engine.engine.listImages({ filters }),
  };
}

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

function redisAnswer(connectionString: string, command: string): Promise<string> {
  const url = new URL(connectionString);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () =>
      socket.write(`AUTH ${url.password}\r\n${command}\r\nQUIT\r\n`),
    );
    socket.on("data", (data) => (answer += data.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

it("runs official images and data services on a container host; deleting the environment leaves nothing labelled with it", async () => {
  environmentId = (await platform.createEnvironment("data-on-this-machine")).environmentId;

  const web = await launched({
    serviceType: "application",
    name: "web",
    config: { ...defaultApplicationConfig, source: { kind: "image", image: "nginx:1.27" } },
    settings: {
      ...defaultServiceSettings,
      networking: { port: 80, public: true, customDomain: "" },
      healthCheck: { path: "/", port: 80, intervalSeconds: 5, timeoutSeconds: 2, healthyThreshold: 1 },
    },
  });
  const database = await launched({
    serviceType: "database",
    name: "orders",
    config: { ...defaultServiceConfigs.database, engine: "postgres", version: "16", username: "shop" },
  });
  const cache = await launched({
    serviceType: "cache",
    name: "sessions",
    config: { ...defaultServiceConfigs.cache, engine: "redis", version: "7.1" },
  });

  const application = await platform.settled(environmentId, web, { timeoutMs: 120_000 });
  expect(application.stage, application.message ?? "").toBe("STAGE_COMPLETED");
  expect(await (await fetch(application.endpoint ?? "")).text()).toContain("Welcome to nginx!");

  const db = await platform.settled(environmentId, database, { timeoutMs: 120_000 });
  expect(db.stage, db.message ?? "").toBe("STAGE_COMPLETED");
  expect(db.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
  const client = new pg.Client({ connectionString: await attribute(database, "hostConnectionString") });
  await client.connect();
  const { rows } = await client.query<{ who: string; db: string }>(
    "SELECT current_user AS who, current_database() AS db",
  );
  await client.end();
  expect(rows).toEqual([{ who: "shop", db: "orders" }]);

  const redis = await platform.settled(environmentId, cache, { timeoutMs: 120_000 });
  expect(redis.stage, redis.message ?? "").toBe("STAGE_COMPLETED");
  expect(await redisAnswer(await attribute(cache, "hostConnectionString"), "PING")).toBe(
    "+OK\r\n+PONG\r\n+OK\r\n",
  );

  const running = await labelledWithEnvironment();
  expect(running.containers).toHaveLength(3);
  expect(running.volumes).toHaveLength(2);
  expect(running.networks).toHaveLength(1);

  const path = environmentPaths.one(platform.tenantId, environmentId);
  const deleted = await platform.call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await platform.api.engine.runner.runUntilIdle();
    if ((await platform.call("GET", path)).status === 404) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await platform.call("GET", path)).status).toBe(404);
  expect(await labelledWithEnvironment()).toEqual({ containers: [], volumes: [], networks: [], images: [] });
}, 300_000);
