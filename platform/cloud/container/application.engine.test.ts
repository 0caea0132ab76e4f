import { describe, expect, it } from "vitest";
import { setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
} from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine();
/** The health check's 5 s interval becomes 250 ms. */
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

async function labelled(serviceId: string) {
  return engine.engine.listContainers({ all: true, filters: labelFilter({ [LABEL_SERVICE]: serviceId }) });
}

async function page(endpoint: string | null) {
  return (await fetch(`${endpoint ?? ""}/`)).text();
}

describe("an application on the container engine", () => {
  it("pulls its image, runs it with its variables and labels, and answers on its endpoint once healthy", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "GREETING", value: "from the engine" }],
    });
    const context = containerContext(resource);
    const deployed = await deployUntilDone(driver, context);

    expect(deployed.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await page(deployed.endpoint)).toBe("hello from the engine\n");
    expect(deployed.progress[0]).toBe("Pulling image");
    expect(deployed.progress).toContain("Waiting for the health check");
    const messages = deployed.lines.map((line) => line.message);
    expect(messages[0]).toBe(`Pulling image "${engine.images.web}"`);
    expect(messages).toContain("Health check passed: GET /healthz on port 8080 answered 200");

    const [container, ...others] = await labelled(resource.id);
    expect(others).toEqual([]);
    expect(container?.Labels).toMatchObject({
      "cloud-console.organization": "org-1",
      "cloud-console.environment": "env-1",
      "cloud-console.service": resource.id,
      "cloud-console.deployment": expect.stringMatching(/^[0-9a-f]{8}$/),
    });
    const inspected = await engine.engine.getContainer(container?.Id ?? "").inspect();
    expect(inspected.HostConfig.Memory).toBe(1024 * 1024 * 1024);
    expect(inspected.HostConfig.NanoCpus).toBe(500_000_000);
    expect(deployed.state).toMatchObject({ container: container?.Id, image: engine.images.web });
    expect(await driver.units?.(containerContext(resource, deployed.state))).toEqual([
      { name: container?.Names[0]?.replace(/^\//, ""), status: "running" },
    ]);

    await destroyUntilDone(driver, containerContext(resource, deployed.state));
    expect(await labelled(resource.id)).toEqual([]);
  });
});
