import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
  type Deployed,
} from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { containerLogLines, containerUsage } from "./telemetry";

const engine = setUpContainerEngine();
const resource = containerApplicationResource("", {});
let deployed: Deployed;
let startedAt: Date;

beforeAll(async () => {
  resource.config = { ...resource.config, source: { kind: "image", image: engine.images.web } };
  startedAt = new Date(Date.now() - 1000);
  const driver = createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });
  deployed = await deployUntilDone(driver, containerContext(resource));
}, 60_000);

afterAll(async () => {
  const driver = createContainerDriver({ dockerHost: engine.dockerHost });
  await destroyUntilDone(driver, containerContext(resource, deployed.state));
});

describe("a service's telemetry from the container engine", () => {
  it("reads the lines its container wrote, stamped by the engine, under the container's name", async () => {
    await fetch(`${deployed.endpoint}/`);
    const lines = await containerLogLines(engine.engine, resource.id, {
      from: startedAt,
      until: new Date(Date.now() + 1000),
      limit: 100,
    });
    const [container] = await engine.engine.listContainers({
      filters: { id: [deployed.state.container ?? ""] },
    });
    expect(lines[0]).toMatchObject({
      podName: container?.Names[0]?.replace(/^\//, ""),
      level: "info",
      message: "listening on 8080",
    });
    expect(lines[0]?.at.getTime()).toBeGreaterThanOrEqual(startedAt.getTime());
    // busybox httpd -v logs a line per request: the health check's two, then the page's.
    expect(lines.filter((line) => /: response:200$/.test(line.message))).toHaveLength(3);
    // A span before the container started has nothing; `limit` keeps the newest.
    expect(
      await containerLogLines(engine.engine, resource.id, {
        from: new Date(0),
        until: startedAt,
        limit: 100,
      }),
    ).toEqual([]);
    const newest = await containerLogLines(engine.engine, resource.id, {
      from: startedAt,
      until: new Date(Date.now() + 1000),
      limit: 1,
    });
    expect(newest).toEqual([lines.at(-1)]);
  });

  it("samples its CPU and memory as shares of its limits", async () => {
    const [sample, ...others] = await containerUsage(engine.engine, resource.id);
    expect(others).toEqual([]);
    expect(sample?.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(sample?.cpuPercent).toBeLessThan(100);
    // busybox httpd uses well under a megabyte of its 1 GB.
    expect(sample?.memoryPercent).toBeGreaterThan(0);
    expect(sample?.memoryPercent).toBeLessThan(1);
  });
});
