import { expect, it } from "vitest";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * Issue 26 wired end to end through the API: a container host connection to the test run's podman socket, an
 * environment on it, an application from the test registry's HTTP image. The engine deploys it with the
 * containers driver (not the simulated cloud): the service completes with an endpoint that answers the image's page.
 */

const engine = setUpContainerEngine();
const platform = setUpContainerApi(engine);
let environmentId: string;

it("deploys an application on a container host for real: its endpoint answers the image's page; deleting it leaves nothing", async () => {
  const created = await platform.createEnvironment("on-this-machine");
  expect(created.connection.status).toBe("VERIFIED");
  environmentId = created.environmentId;

  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: testWebConfig({ kind: "image", image: engine.images.web }),
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const service = await platform.settled(environmentId, id);
  expect(service, service.message ?? "").toMatchObject({
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
  const path = servicePaths.one(platform.tenantId, environmentId, id);
  const deleted = await platform.call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 30_000;
  let left = running;
  while (Date.now() < deadline) {
    await platform.api.engine.runner.runUntilIdle();
    left = await engine.engine.listContainers({
      all: true,
      filters: labelFilter({ [LABEL_ENVIRONMENT]: environmentId }),
    });
    if ((await platform.call("GET", path)).status === 404 && left.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await platform.call("GET", path)).status).toBe(404);
  expect(left).toEqual([]);
}, 120_000);
