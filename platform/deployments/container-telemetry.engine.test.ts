import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { resourceLogs, resources, resourceUsageSamples } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import { createContainerDriver } from "../cloud/container/driver";
import { connectEngine } from "../cloud/container/engine";
import { openTestApi } from "../testing/http-harness";
import { setUpContainerEngine } from "../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
  type Deployed,
} from "../testing/container-deploys";
import { containerTelemetry } from "./container-telemetry";

const engine = setUpContainerEngine();
const api = await openTestApi();
let environment: EnvironmentRow;
let serviceId: string;
let deployed: Deployed;
let deployedAt: Date;

beforeAll(async () => {
  const member = await api.createMember();
  environment = await api.createEnvironment(member.organization.tenantId);
  const resource = containerApplicationResource(engine.images.web);
  deployedAt = new Date(Date.now() - 1000);
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId: environment.id,
      name: "web",
      serviceType: "application",
      stage: "STAGE_COMPLETED",
      config: { ...defaultServiceConfigs.application, ...resource.config },
      settings: resource.settings,
      deployedAt,
    })
    .returning();
  if (!row) throw new Error("the service was not stored");
  serviceId = row.id;
  const driver = createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });
  deployed = await deployUntilDone(driver, containerContext({ ...resource, id: row.id }));
}, 60_000);

afterAll(async () => {
  const driver = createContainerDriver({ dockerHost: engine.dockerHost });
  const resource = { ...containerApplicationResource(engine.images.web), id: serviceId };
  await destroyUntilDone(driver, containerContext(resource, deployed.state));
  await api.close();
});

const rowOf = async () => {
  const [row] = await api.db.select().from(resources).where(eq(resources.id, serviceId));
  if (!row) throw new Error("the service is gone");
  return row;
};
const storedLines = () =>
  api.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, serviceId)).orderBy(resourceLogs.at);

describe("a service's telemetry from its container engine", () => {
  it("stores what its containers wrote since the last read, once", async () => {
    const telemetry = containerTelemetry({
      db: api.db,
      engine: () => connectEngine(engine.dockerHost),
      now: () => new Date(),
    });
    await telemetry.collectLogs(environment, await rowOf());
    const first = await storedLines();
    expect(first[0]).toMatchObject({ message: "listening on 8080", level: "info" });
    expect(first[0]?.podName).toMatch(/^web-[0-9a-f]{8}-[0-9a-f]{8}$/);
    expect((await rowOf()).logsWrittenUntil?.getTime()).toBeGreaterThan(deployedAt.getTime());

    await fetch(`${deployed.endpoint}/`);
    // The request's line is readable once busybox has written it: read until it is there, as the tab polls.
    await vi.waitFor(
      async () => {
        await telemetry.collectLogs(environment, await rowOf());
        expect((await storedLines()).length).toBeGreaterThan(first.length);
      },
      { timeout: 5000, interval: 200 },
    );
    await telemetry.collectLogs(environment, await rowOf());
    const second = await storedLines();
    expect(second.slice(0, first.length)).toEqual(first);
    expect(second.slice(first.length).map((line) => line.message)).toEqual([
      expect.stringMatching(/: response:200$/),
    ]);
  });

  it("charts the samples kept over the range, a point per step (their mean), none before the range", async () => {
    const telemetry = containerTelemetry({
      db: api.db,
      engine: () => connectEngine(engine.dockerHost),
      now: () => new Date(),
    });
    const at = new Date("2031-05-01T12:00:30.000Z");
    const minutesAgo = (minutes: number, seconds = 0) =>
      new Date(at.getTime() - minutes * 60_000 + seconds * 1000);
    await api.db.insert(resourceUsageSamples).values([
      // Before the hour: not charted.
      { resourceId: serviceId, at: minutesAgo(61), cpuPercent: 99, memoryPercent: 99 },
      // Two in the minute 11:58: one point, their mean.
      { resourceId: serviceId, at: minutesAgo(2, 5), cpuPercent: 10, memoryPercent: 20 },
      { resourceId: serviceId, at: minutesAgo(2, 25), cpuPercent: 30, memoryPercent: 40 },
      { resourceId: serviceId, at: minutesAgo(0), cpuPercent: 91.256, memoryPercent: 5 },
      // After `at`: not yet.
      { resourceId: serviceId, at: minutesAgo(-1), cpuPercent: 1, memoryPercent: 1 },
    ]);
    const metrics = await telemetry.metrics(await rowOf(), containerApplicationResource(""), "1h", 60, at);
    expect(metrics).toEqual({
      range: "1h",
      step: 60,
      series: [
        {
          metric: "cpu",
          unit: "%",
          points: [
            { at: "2031-05-01T11:58:00.000Z", value: 20 },
            { at: "2031-05-01T12:00:00.000Z", value: 91.26 },
          ],
        },
        {
          metric: "memory",
          unit: "%",
          points: [
            { at: "2031-05-01T11:58:00.000Z", value: 30 },
            { at: "2031-05-01T12:00:00.000Z", value: 5 },
          ],
        },
      ],
    });
  });
});
