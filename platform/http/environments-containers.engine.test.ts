import { connect } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { connectionPaths, connectionResponseSchema } from "#contract/connections";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { defaultServiceConfigs } from "#contract/service-configs";
import { isBusyStage } from "#contract/service-catalogue";
import {
  attributeResponseSchema,
  defaultServiceSettings,
  resourceResponseSchema,
  servicePaths,
} from "#contract/services";
import type { Stage } from "#contract/stages";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import { setUpContainerEngine } from "../testing/container-engine";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * Issue 26's data services and teardown through the API, on the run's podman: an environment on a container
 * host runs an application from `nginx:1.27`, a PostgreSQL database and a Redis cache, each from its official
 * image (the test engine's Docker Hub mirror); their connection attributes, read as SPEC §7's attribute call
 * reads them, open real connections; deleting the environment leaves nothing labelled with it on the engine.
 */

const engine = setUpContainerEngine({ officialImages: ["nginx", "postgres", "redis"] });
let api: TestApi;
let member: TestMember;
let tenantId: string;
let environmentId: string;

beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
});

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

afterAll(async () => {
  // Whatever a failed test left labelled with this environment goes with it.
  if (environmentId) {
    const left = await labelledWithEnvironment();
    for (const container of left.containers) {
      await engine.engine.getContainer(container.Id).remove({ force: true });
    }
    for (const volume of left.volumes) await engine.engine.getVolume(volume.Name).remove({ force: true });
  }
  await api?.close();
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

async function settled(id: string): Promise<{ stage: Stage; endpoint: string | null; message: string }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    await api.engine.runner.runUntilIdle();
    const response = await call("GET", servicePaths.one(tenantId, environmentId, id));
    const { resource } = resourceResponseSchema.parse(await response.json());
    if (!isBusyStage(resource.stage) || Date.now() > deadline) {
      return { stage: resource.stage, endpoint: resource.endpoint, message: resource.message ?? "" };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function launched(body: Record<string, unknown>): Promise<string> {
  const response = await call("POST", servicePaths.list(tenantId, environmentId), { ...body, launch: true });
  expect(response.status, await response.clone().text()).toBe(201);
  return resourceResponseSchema.parse(await response.json()).resource.id;
}

async function attribute(id: string, name: string): Promise<string> {
  const response = await call("GET", servicePaths.attribute(tenantId, environmentId, id, name));
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
  const saved = await call("POST", connectionPaths.list(tenantId), {
    kind: "CONTAINER_HOST",
    name: "This machine",
    method: "docker-host",
    fields: { DOCKER_HOST: engine.dockerHost },
  });
  expect(saved.status, await saved.clone().text()).toBe(201);
  const { connection } = connectionResponseSchema.parse(await saved.json());
  const created = await call("POST", environmentPaths.list(tenantId), {
    name: "data-on-this-machine",
    cloudProvider: "CONTAINERS",
    region: "local",
    cloudConnectionId: connection.id,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  environmentId = environmentResponseSchema.parse(await created.json()).environment.id;

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

  const application = await settled(web);
  expect(application.stage, application.message).toBe("STAGE_COMPLETED");
  expect(await (await fetch(application.endpoint ?? "")).text()).toContain("Welcome to nginx!");

  const db = await settled(database);
  expect(db.stage, db.message).toBe("STAGE_COMPLETED");
  expect(db.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
  const client = new pg.Client({ connectionString: await attribute(database, "connectionString") });
  await client.connect();
  const { rows } = await client.query<{ who: string; db: string }>(
    "SELECT current_user AS who, current_database() AS db",
  );
  await client.end();
  expect(rows).toEqual([{ who: "shop", db: "orders" }]);

  const redis = await settled(cache);
  expect(redis.stage, redis.message).toBe("STAGE_COMPLETED");
  expect(await redisAnswer(await attribute(cache, "connectionString"), "PING")).toBe(
    "+OK\r\n+PONG\r\n+OK\r\n",
  );

  const running = await labelledWithEnvironment();
  expect(running.containers).toHaveLength(3);
  expect(running.volumes).toHaveLength(2);

  const deleted = await call("DELETE", environmentPaths.one(tenantId, environmentId));
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await api.engine.runner.runUntilIdle();
    if ((await call("GET", environmentPaths.one(tenantId, environmentId))).status === 404) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await call("GET", environmentPaths.one(tenantId, environmentId))).status).toBe(404);
  expect(await labelledWithEnvironment()).toEqual({ containers: [], volumes: [], networks: [], images: [] });
}, 300_000);
