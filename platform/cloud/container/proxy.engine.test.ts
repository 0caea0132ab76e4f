import { describe, expect, it } from "vitest";
import { CloudStepError, RolloutFailedError, type DeployDriver, type DriverResource } from "../driver";
import { freePort } from "../../../tests/setup/moto-server";
import { setUpCaddy } from "../../testing/caddy";
import { setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
} from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { proxyServerName } from "./proxy";

const engine = setUpContainerEngine();
const caddy = setUpCaddy();
/** The health check's 5 s interval becomes 250 ms. */
const driverOf = () =>
  createContainerDriver({
    dockerHost: engine.dockerHost,
    timeScale: 0.05,
    proxy: { adminUrl: caddy.adminUrl, host: caddy.host },
  });

async function page(endpoint: string | null) {
  return (await fetch(`${endpoint ?? ""}/`)).text();
}

const withGreeting = (resource: DriverResource, greeting: string): DriverResource => ({
  ...resource,
  settings: { ...resource.settings, envvars: [{ name: "GREETING", value: greeting }] },
});

async function failedDeployment(
  driver: DeployDriver,
  resource: DriverResource,
  state: Record<string, string>,
) {
  try {
    await deployUntilDone(driver, containerContext(resource, state));
  } catch (error) {
    return error as CloudStepError;
  }
  throw new Error("the deployment did not fail");
}

describe("an application behind the reverse proxy", () => {
  it("keeps one address that answers before and after a redeploy", async () => {
    const driver = driverOf();
    const resource = withGreeting(containerApplicationResource(engine.images.web), "one");
    const first = await deployUntilDone(driver, containerContext(resource));
    expect(first.endpoint).toBe(`http://127.0.0.1:${first.state.proxyPort}`);
    expect(first.endpoint).not.toBe(`http://127.0.0.1:${first.state.hostPort}`);
    expect(await page(first.endpoint)).toBe("hello one\n");
    expect(first.lines.map((line) => line.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Routed ${first.endpoint} to container web-[0-9a-f]{8}-[0-9a-f]{8} \\(127\\.0\\.0\\.1:\\d+\\)$`,
        ),
      ),
    );

    const second = await deployUntilDone(
      driver,
      containerContext(withGreeting(resource, "two"), first.state),
    );
    expect(second.endpoint).toBe(first.endpoint);
    expect(second.state.hostPort).not.toBe(first.state.hostPort);
    expect(await page(second.endpoint)).toBe("hello two\n");
    await destroyUntilDone(driver, containerContext(resource, second.state));
  });

  it("leaves the address on the running container when a rollout fails its health check", async () => {
    const driver = driverOf();
    const resource = withGreeting(containerApplicationResource(engine.images.web), "stable");
    const running = await deployUntilDone(driver, containerContext(resource));
    expect(running.endpoint).toBe(`http://127.0.0.1:${running.state.proxyPort}`);
    const broken: DriverResource = {
      ...resource,
      config: { ...resource.config, source: { kind: "image", image: engine.images.unhealthy } },
    };

    const failure = await failedDeployment(driver, broken, running.state);
    expect(failure).toBeInstanceOf(RolloutFailedError);
    expect(await page(running.endpoint)).toBe("hello stable\n");
    await destroyUntilDone(driver, containerContext(resource, running.state));
  });

  it("removes the route when the application is deleted", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web);
    const { state, endpoint } = await deployUntilDone(driver, containerContext(resource));
    const route = `${caddy.adminUrl}/id/${proxyServerName(resource.id)}`;
    expect((await fetch(route)).status).toBe(200);

    const lines = await destroyUntilDone(driver, containerContext(resource, state));
    expect(lines.map((line) => line.message)).toContain(`Removed the route of ${endpoint}`);
    expect((await fetch(route)).status).toBe(404);
    await expect(fetch(`${endpoint ?? ""}/`)).rejects.toThrow();
  });

  it("still answers at its address after Caddy restarts from its autosaved config", async () => {
    const driver = driverOf();
    const resource = withGreeting(containerApplicationResource(engine.images.web), "again");
    const { state, endpoint } = await deployUntilDone(driver, containerContext(resource));
    expect(endpoint).toBe(`http://127.0.0.1:${state.proxyPort}`);

    await caddy.restart();
    expect(await page(endpoint)).toBe("hello again\n");
    await destroyUntilDone(driver, containerContext(resource, state));
  });

  it("sees an address that no longer leads to its container, and a relaunch routes it again", async () => {
    const driver = driverOf();
    const resource = withGreeting(containerApplicationResource(engine.images.web), "routed");
    const deployed = await deployUntilDone(driver, containerContext(resource));
    const context = containerContext(resource, deployed.state);
    expect(await driver.observe?.(context)).toEqual({ state: "ok" });

    // Caddy started without its autosave, or its config changed by hand: the route is gone.
    await fetch(`${caddy.adminUrl}/config/apps/http/servers/${proxyServerName(resource.id)}`, {
      method: "DELETE",
    });
    expect(await driver.observe?.(context)).toEqual({
      state: "degraded",
      message: `Its address ${deployed.endpoint} leads nowhere: the reverse proxy has no route for it (was Caddy restarted without --resume?).`,
    });

    const relaunched = await deployUntilDone(driver, context);
    expect(relaunched.endpoint).toBe(deployed.endpoint);
    expect(await page(relaunched.endpoint)).toBe("hello routed\n");
    expect(await driver.observe?.(containerContext(resource, relaunched.state))).toEqual({ state: "ok" });
    await destroyUntilDone(driver, containerContext(resource, relaunched.state));
  });

  it("fails the step in words when the proxy's admin API does not answer, the container kept for a retry", async () => {
    const adminUrl = `http://127.0.0.1:${await freePort()}`;
    const driver = createContainerDriver({
      dockerHost: engine.dockerHost,
      timeScale: 0.05,
      proxy: { adminUrl, host: "127.0.0.1" },
    });
    const resource = containerApplicationResource(engine.images.web);
    const failure = await failedDeployment(driver, resource, {});
    expect(failure).toBeInstanceOf(CloudStepError);
    expect(failure).not.toBeInstanceOf(RolloutFailedError);
    expect(failure.message).toBe(
      `The reverse proxy's admin API at ${adminUrl} did not answer (ECONNREFUSED).`,
    );
    expect(failure.transient).toBe(true);
    await destroyUntilDone(driver, containerContext(resource, {}));
  });
});
