import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { connectionPaths, connectionResponseSchema } from "#contract/connections";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { isBusyStage } from "#contract/service-catalogue";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import type { Stage } from "#contract/stages";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import { setUpContainerEngine } from "../testing/container-engine";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * Issue 26 wired end to end through the API: a container host connection to the test run's podman socket, an
 * environment on it, an application from the test registry's HTTP image. The engine deploys it with the
 * containers driver (not the simulated cloud): the service completes with an endpoint that answers the image's page.
 */

const engine = setUpContainerEngine();
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
  // Whatever a failed test left labelled with this environment goes with it.
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

/** Runs due jobs until the service's stage is no longer busy (the driver's steps wait a little between them). */
async function settled(id: string): Promise<{ stage: Stage; endpoint: string | null; message: string }> {
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

it("deploys an application on a container host for real: its endpoint answers the image's page; deleting it leaves nothing", async () => {
  const saved = await call("POST", connectionPaths.list(tenantId), {
    kind: "CONTAINER_HOST",
    name: "This machine",
    method: "docker-host",
    fields: { DOCKER_HOST: engine.dockerHost },
  });
  expect(saved.status, await saved.clone().text()).toBe(201);
  const { connection } = connectionResponseSchema.parse(await saved.json());
  expect(connection.status).toBe("VERIFIED");

  const created = await call("POST", environmentPaths.list(tenantId), {
    name: "on-this-machine",
    cloudProvider: "CONTAINERS",
    region: "local",
    cloudConnectionId: connection.id,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  environmentId = environmentResponseSchema.parse(await created.json()).environment.id;

  const launched = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: {
      ...defaultApplicationConfig,
      source: { kind: "image", image: engine.images.web },
      // The test image serves on 8080 (the form's defaults are port 80 and "/").
      ports: [{ port: 8080, protocol: "HTTP", public: true }],
      healthCheck: { ...defaultApplicationConfig.healthCheck, port: 8080, path: "/healthz" },
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
  const page = await fetch(service.endpoint ?? "");
  expect(page.status).toBe(200);
  expect(await page.text()).toBe("hello world\n");
  const running = await engine.engine.listContainers({
    filters: labelFilter({ [LABEL_ENVIRONMENT]: environmentId }),
  });
  expect(running).toHaveLength(1);

  // Deleting the service tears its container down on the engine: nothing labelled with the environment is left.
  const path = servicePaths.one(tenantId, environmentId, id);
  const deleted = await call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 30_000;
  let left = running;
  while (Date.now() < deadline) {
    await api.engine.runner.runUntilIdle();
    left = await engine.engine.listContainers({
      all: true,
      filters: labelFilter({ [LABEL_ENVIRONMENT]: environmentId }),
    });
    if ((await call("GET", path)).status === 404 && left.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await call("GET", path)).status).toBe(404);
  expect(left).toEqual([]);
}, 120_000);
