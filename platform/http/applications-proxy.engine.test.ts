import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { connectionPaths, connectionResponseSchema } from "#contract/connections";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { isBusyStage } from "#contract/service-catalogue";
import { resourceResponseSchema, servicePaths, type Resource } from "#contract/services";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import { proxyServerName } from "../cloud/container/proxy";
import { setUpCaddy } from "../testing/caddy";
import { setUpContainerEngine } from "../testing/container-engine";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * The stable address of an application on a container host (docs/decisions/063), through the API: with the
 * operator's Caddy configured, the endpoint the overview shows is the proxy's address, and it stays the same
 * across a redeploy with a changed variable while the page follows the new container; deleting the service
 * removes its route.
 */

const engine = setUpContainerEngine();
const caddy = setUpCaddy();
let api: TestApi;
let member: TestMember;
let tenantId: string;
let environmentId: string;

beforeAll(async () => {
  api = await openTestApi({ containerProxy: { adminUrl: caddy.adminUrl, host: caddy.host } });
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
});

afterAll(async () => {
  if (environmentId) {
    const left = await engine.engine.listContainers({
      all: true,
      filters: labelFilter({ [LABEL_ENVIRONMENT]: environmentId }),
    });
    for (const container of left) await engine.engine.getContainer(container.Id).remove({ force: true });
  }
  await api?.close();
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

/** Runs due jobs until the service's stage is no longer busy. */
async function settled(id: string): Promise<Resource> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await api.engine.runner.runUntilIdle();
    const response = await call("GET", servicePaths.one(tenantId, environmentId, id));
    const { resource } = resourceResponseSchema.parse(await response.json());
    if (!isBusyStage(resource.stage) || Date.now() > deadline) return resource;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("shows the proxy's address as the application's endpoint, the same after a redeploy; deleting it removes the route", async () => {
  const saved = await call("POST", connectionPaths.list(tenantId), {
    kind: "CONTAINER_HOST",
    name: "This machine",
    method: "docker-host",
    fields: { DOCKER_HOST: engine.dockerHost },
  });
  const { connection } = connectionResponseSchema.parse(await saved.json());
  const created = await call("POST", environmentPaths.list(tenantId), {
    name: "behind-caddy",
    cloudProvider: "CONTAINERS",
    region: "local",
    cloudConnectionId: connection.id,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  environmentId = environmentResponseSchema.parse(await created.json()).environment.id;
  const launched = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    // The test image serves on 8080, its health at /healthz (the form's defaults are nginx's).
    config: {
      ...defaultApplicationConfig,
      source: { kind: "image", image: engine.images.web },
      ports: [{ port: 8080, protocol: "HTTP", public: true }],
      healthCheck: { ...defaultApplicationConfig.healthCheck, path: "/healthz", port: 8080 },
    },
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const first = await settled(id);
  expect(first.stage, first.message ?? "").toBe("STAGE_COMPLETED");
  const route = `${caddy.adminUrl}/id/${proxyServerName(id)}`;
  const upstreamOf = async () =>
    ((await (await fetch(route)).json()) as { handle: { upstreams: { dial: string }[] }[] }).handle[0]
      ?.upstreams[0]?.dial;
  const firstUpstream = await upstreamOf();
  expect(first.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(firstUpstream).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(first.endpoint).not.toBe(`http://${firstUpstream}`);
  expect(await (await fetch(first.endpoint ?? "")).text()).toBe("hello world\n");

  const changed = await call("PUT", servicePaths.one(tenantId, environmentId, id), {
    version: first.version,
    settings: { ...first.settings, envvars: [{ name: "GREETING", value: "again" }] },
  });
  expect(changed.status, await changed.clone().text()).toBe(200);
  const second = await settled(id);
  expect(second.stage, second.message ?? "").toBe("STAGE_COMPLETED");
  expect(second.endpoint).toBe(first.endpoint);
  expect(await upstreamOf()).not.toBe(firstUpstream);
  expect(await (await fetch(second.endpoint ?? "")).text()).toBe("hello again\n");

  const path = servicePaths.one(tenantId, environmentId, id);
  const deleted = await call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await call("GET", path)).status !== 404) {
    await api.engine.runner.runUntilIdle();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await call("GET", path)).status).toBe(404);
  expect((await fetch(route)).status).toBe(404);
}, 120_000);
