import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { connectionPaths, connectionResponseSchema } from "#contract/connections";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { isBusyStage } from "#contract/service-catalogue";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import { resourceLogs } from "../db/schema";
import { setUpContainerEngine } from "../testing/container-engine";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";
import { eq } from "drizzle-orm";

/*
 * Issue 26 through the API: an application from a private registry on a container host. The registry (the test
 * engine's docker-registry with htpasswd) refuses anonymous pulls; the Docker registry connection's username and
 * token, answered by its provider with the manifest, are what the engine pulls with.
 */

const engine = setUpContainerEngine({ privateRegistry: true });
let api: TestApi;
let member: TestMember;
let tenantId: string;
let environmentId: string;

beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
});

afterAll(async () => {
  if (environmentId) {
    const filters = labelFilter({ [LABEL_ENVIRONMENT]: environmentId });
    for (const container of await engine.engine.listContainers({ all: true, filters })) {
      await engine.engine.getContainer(container.Id).remove({ force: true });
    }
  }
  await api?.close();
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

async function settled(id: string) {
  const deadline = Date.now() + 60_000;
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

it("pulls a private registry's image on a container host with the registry connection's credentials", async () => {
  const { host, username, password } = engine.privateRegistry;
  const registry = await call("POST", connectionPaths.list(tenantId), {
    kind: "DOCKER",
    name: "Private registry",
    method: "token",
    fields: { BASE_URL: `http://${host}`, USERNAME: username, TOKEN: password },
  });
  expect(registry.status, await registry.clone().text()).toBe(201);
  const registryConnection = connectionResponseSchema.parse(await registry.json()).connection;
  expect(registryConnection.status).toBe("VERIFIED");

  const containerHost = await call("POST", connectionPaths.list(tenantId), {
    kind: "CONTAINER_HOST",
    name: "This machine",
    method: "docker-host",
    fields: { DOCKER_HOST: engine.dockerHost },
  });
  expect(containerHost.status, await containerHost.clone().text()).toBe(201);
  const created = await call("POST", environmentPaths.list(tenantId), {
    name: "private-images",
    cloudProvider: "CONTAINERS",
    region: "local",
    cloudConnectionId: connectionResponseSchema.parse(await containerHost.json()).connection.id,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  environmentId = environmentResponseSchema.parse(await created.json()).environment.id;

  const launched = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: {
      ...defaultApplicationConfig,
      // The test image's server listens on 8080.
      ports: [{ port: 8080, protocol: "HTTP", public: true }],
      healthCheck: { ...defaultApplicationConfig.healthCheck, port: 8080, path: "/healthz" },
      source: {
        kind: "registry",
        connectionId: registryConnection.id,
        repository: "test/private-web",
        tag: "1",
      },
    },
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const service = await settled(id);
  expect(service, service.message).toMatchObject({
    stage: "STAGE_COMPLETED",
    endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
  });
  expect(await (await fetch(service.endpoint ?? "")).text()).toBe("hello world\n");
  const lines = (
    await api.db
      .select({ message: resourceLogs.message })
      .from(resourceLogs)
      .where(eq(resourceLogs.resourceId, id))
  ).map((line) => line.message);
  expect(lines).toContain(
    `Pulling image "${host}/test/private-web:1" with the credentials of the connection`,
  );
  expect(lines.join("\n")).not.toContain(password);
}, 120_000);
