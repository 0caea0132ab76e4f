import { expect, it } from "vitest";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { proxyServerName } from "../cloud/container/proxy";
import { setUpCaddy } from "../testing/caddy";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * The stable address of an application on a container host (docs/decisions/063), through the API: with the
 * operator's Caddy configured, the endpoint the overview shows is the proxy's address, and it stays the same
 * across a redeploy with a changed variable while the page follows the new container; deleting the service
 * removes its route.
 */

const engine = setUpContainerEngine();
const caddy = setUpCaddy();
const platform = setUpContainerApi(engine, {
  config: () => ({ containerProxy: { adminUrl: caddy.adminUrl, host: caddy.host } }),
});
let environmentId: string;

it("shows the proxy's address as the application's endpoint, the same after a redeploy; deleting it removes the route", async () => {
  environmentId = (await platform.createEnvironment("behind-caddy")).environmentId;
  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: testWebConfig({ kind: "image", image: engine.images.web }),
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const first = await platform.settled(environmentId, id);
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

  const changed = await platform.call("PUT", servicePaths.one(platform.tenantId, environmentId, id), {
    version: first.version,
    settings: { ...first.settings, envvars: [{ name: "GREETING", value: "again" }] },
  });
  expect(changed.status, await changed.clone().text()).toBe(200);
  const second = await platform.settled(environmentId, id);
  expect(second.stage, second.message ?? "").toBe("STAGE_COMPLETED");
  expect(second.endpoint).toBe(first.endpoint);
  expect(await upstreamOf()).not.toBe(firstUpstream);
  expect(await (await fetch(second.endpoint ?? "")).text()).toBe("hello again\n");

  const path = servicePaths.one(platform.tenantId, environmentId, id);
  const deleted = await platform.call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await platform.call("GET", path)).status !== 404) {
    await platform.api.engine.runner.runUntilIdle();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await platform.call("GET", path)).status).toBe(404);
  expect((await fetch(route)).status).toBe(404);
}, 120_000);
