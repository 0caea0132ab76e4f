import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { defaultApplicationConfig, type ApplicationConfig } from "#contract/application-config";
import {
  applicationPaths,
  applicationVersionListSchema,
  rollbackResponseSchema,
} from "#contract/applications";
import {
  alarmListSchema,
  logListSchema,
  metricsSchema,
  resourceResponseSchema,
  servicePaths,
  type LogQuery,
  type Resource,
} from "#contract/services";
import { LABEL_SERVICE, labelFilter } from "../cloud/container/labels";
import { engineJobs, resources } from "../db/schema";
import { createDriftChecks } from "../deployments/drift-checks";
import { createUsageSampling } from "../deployments/usage-samples";
import { createOperations } from "../operations/operations";
import { setUpContainerApi } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";
import type { TestApi } from "../testing/http-harness";

/*
 * Operating an application on a container host through the API (issue 26), on the run's real podman: a redeploy
 * with a changed variable, an automatic rollback, a rollback to a version, the logs tab's lines, metrics kept over
 * time with an alarm on a real threshold, drift and Retry, a crashed container restarted by the engine, and a
 * platform restarted mid-deployment. One service goes through all of it, test after test (they run in order).
 *
 * The engine's clock is real time (at ENGINE_TIME_SCALE=0 a health check's interval is the driver's least wait,
 * 200 ms) until the tests of intervals (drift checks, samples) move it on by minutes instead of waiting them out.
 * The logs come before those: the engine stamps its lines with the machine's time, as the platform's clock is.
 */

const engine = setUpContainerEngine();
/** Real time until a test moves it on (the drift check's and the samples' intervals); `freeze` stops it. */
let offsetMs = 0;
let frozen: Date | null = null;
const now = () => frozen ?? new Date(Date.now() + offsetMs);
const advance = (ms: number) => {
  offsetMs += ms;
};
const platform = setUpContainerApi(engine, { now });
let environmentId: string;
let serviceId: string;

beforeAll(async () => {
  environmentId = (await platform.createEnvironment("operations")).environmentId;
}, 60_000);

/** The test image's server on 8080: `/` answers `hello $GREETING`, `/healthz` ok; checked every (scaled) 5 s. */
const web = (image: string, greeting: string): ApplicationConfig => ({
  ...defaultApplicationConfig,
  source: { kind: "image", image },
  ports: [{ port: 8080, protocol: "HTTP", public: true }],
  envvars: [{ kind: "value", name: "GREETING", value: greeting }],
  cpu: "0.25",
  memoryMb: 512,
  healthCheck: {
    ...defaultApplicationConfig.healthCheck,
    path: "/healthz",
    port: 8080,
    intervalSeconds: 5,
    timeoutSeconds: 2,
  },
});

async function service(): Promise<Resource> {
  const response = await platform.call("GET", servicePaths.one(platform.tenantId, environmentId, serviceId));
  return resourceResponseSchema.parse(await response.json()).resource;
}

const settled = (runner?: TestApi["engine"]["runner"]) =>
  platform.settled(environmentId, serviceId, { runner });

const containersOfService = () =>
  engine.engine.listContainers({ all: true, filters: labelFilter({ [LABEL_SERVICE]: serviceId }) });

async function page(endpoint: string | null): Promise<string> {
  const response = await fetch(`${endpoint ?? ""}/`);
  return response.text();
}

async function logs(query: LogQuery) {
  const response = await platform.call(
    "GET",
    servicePaths.logs(platform.tenantId, environmentId, serviceId, query),
  );
  expect(response.status, await response.clone().text()).toBe(200);
  return logListSchema.parse(await response.json()).logs;
}

async function versions() {
  const response = await platform.call(
    "GET",
    applicationPaths.versions(platform.tenantId, environmentId, serviceId),
  );
  return applicationVersionListSchema.parse(await response.json()).versions;
}

async function change(config: ApplicationConfig) {
  const { version } = await service();
  const response = await platform.call("PUT", servicePaths.one(platform.tenantId, environmentId, serviceId), {
    version,
    config,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

it("redeploys with a changed variable: the new container serves it, the old one is gone, the history has both", async () => {
  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: web(engine.images.web, "first"),
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  serviceId = resourceResponseSchema.parse(await launched.json()).resource.id;
  const first = await settled();
  expect(first, first.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(await page(first.endpoint)).toBe("hello first\n");
  const [before] = await containersOfService();

  await change(web(engine.images.web, "second"));
  const second = await settled();
  expect(second, second.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(await page(second.endpoint)).toBe("hello second\n");
  const after = await containersOfService();
  expect(after).toHaveLength(1);
  expect(after[0]?.Id).not.toBe(before?.Id);
  expect(second.history.filter((entry) => entry.outcome === "STAGE_COMPLETED")).toHaveLength(2);
  expect((await versions()).map((version) => [version.number, version.outcome, version.running])).toEqual([
    [2, "STAGE_COMPLETED", true],
    [1, "STAGE_COMPLETED", false],
  ]);
}, 120_000);

it("rolls back on its own when the new image fails its health check: the previous container still serves", async () => {
  const running = await service();
  const [container] = await containersOfService();
  await change(web(engine.images.unhealthy, "third"));
  const failed = await settled();
  expect(failed.stage).toBe("STAGE_FAILED");
  expect(failed.message).toMatch(
    /never became healthy \(GET \/healthz on port 8080 answered 404, 3 times in a row\): the deployment was rolled back to the container that ran before/,
  );
  // The history says the deployment failed; the settings are the running version's again.
  expect(failed.history[0]).toMatchObject({ action: "Relaunch", outcome: "STAGE_FAILED" });
  expect(failed.config.source).toEqual({ kind: "image", image: engine.images.web });
  expect(failed.endpoint).toBe(running.endpoint);
  expect(await page(failed.endpoint)).toBe("hello second\n");
  expect((await containersOfService()).map((one) => one.Id)).toEqual([container?.Id]);
  const messages = (await logs({ limit: 1000 })).map((line) => line.message);
  expect(messages).toContainEqual(
    expect.stringContaining("Removed the new container: the deployment was rolled back"),
  );
  expect((await versions()).map((version) => [version.number, version.outcome, version.running])).toEqual([
    [3, "STAGE_FAILED", false],
    [2, "STAGE_COMPLETED", true],
    [1, "STAGE_COMPLETED", false],
  ]);
}, 120_000);

it("rolls back to a version: it redeploys that version's image digest and configuration", async () => {
  const first = (await versions()).find((version) => version.number === 1);
  expect(first?.imageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  const response = await platform.call(
    "POST",
    applicationPaths.rollback(platform.tenantId, environmentId, serviceId, first?.id ?? ""),
  );
  expect(response.status, await response.clone().text()).toBe(202);
  rollbackResponseSchema.parse(await response.json());
  const rolledBack = await settled();
  expect(rolledBack, rolledBack.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(rolledBack.history[0]?.action).toBe("Rollback");
  expect(await page(rolledBack.endpoint)).toBe("hello first\n");
  const [latest] = await versions();
  expect(latest).toMatchObject({ number: 4, running: true, rollbackOf: 1, imageDigest: first?.imageDigest });
  const [container] = await containersOfService();
  const image = await engine.engine.getImage(container?.ImageID ?? "").inspect();
  expect(image.RepoDigests).toContainEqual(expect.stringContaining(`@${first?.imageDigest ?? ""}`));
  expect((await logs({ limit: 1000 })).map((line) => line.message)).toContainEqual(
    expect.stringContaining(
      `Rolling back: deploying ${engine.registry}/test/web@${first?.imageDigest ?? ""}`,
    ),
  );
}, 120_000);

it("shows the container's own lines in the logs tab, and its search finds one", async () => {
  const { endpoint } = await service();
  const [container] = await containersOfService();
  const name = container?.Names[0]?.replace(/^\//, "") ?? "";
  await (await fetch(`${endpoint ?? ""}/`)).text();
  const live = await logs({ limit: 1000 });
  expect(live).toContainEqual(expect.objectContaining({ podName: name, message: "listening on 8080" }));
  // busybox httpd -v writes a line per request: `[::ffff:10.88.0.1]:PORT: response:200`.
  const found = await logs({ logType: "SEARCH", text: "response:200", podNames: name });
  expect(found.length).toBeGreaterThan(0);
  expect(found.every((line) => line.podName === name && line.message.endsWith("response:200"))).toBe(true);
}, 60_000);

it("charts CPU and memory kept over time, and fires the CPU alarm when the container burns its CPU", async () => {
  const sampling = createUsageSampling({
    db: platform.api.db,
    secrets: platform.api.secrets,
    now,
    intervalMs: 60_000,
  });
  for (let minute = 0; minute < 3; minute++) {
    advance(60_000);
    expect(await sampling.runDue()).toBe(1);
  }
  // Sampled once per interval: a run before the next is due samples nothing.
  expect(await sampling.runDue()).toBe(0);
  const read = async () => {
    const response = await platform.call(
      "GET",
      servicePaths.metrics(platform.tenantId, environmentId, serviceId, { range: "1h" }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    return metricsSchema.parse(await response.json());
  };
  const quiet = await read();
  const cpu = quiet.series.find((series) => series.metric === "cpu");
  const memory = quiet.series.find((series) => series.metric === "memory");
  expect(cpu?.points).toHaveLength(3);
  expect(memory?.points).toHaveLength(3);
  expect(new Set(cpu?.points.map((point) => point.at)).size).toBe(3);
  for (const point of memory?.points ?? []) {
    expect(point.value).toBeGreaterThan(0);
    expect(point.value).toBeLessThan(50);
  }
  const alarms = async () => {
    const response = await platform.call(
      "GET",
      servicePaths.alarms(platform.tenantId, environmentId, serviceId, { range: "1h" }),
    );
    return alarmListSchema.parse(await response.json()).alarms;
  };
  expect((await alarms()).find((alarm) => alarm.name === "High CPU")).toMatchObject({ state: "OK" });

  // A busy loop in the container: its CPU (of its 0.25 vCPU) goes above the alarm's 80 %.
  const [container] = await containersOfService();
  const exec = await engine.engine.getContainer(container?.Id ?? "").exec({
    Cmd: ["sh", "-c", "while :; do :; done & while :; do :; done"],
    AttachStdout: false,
    AttachStderr: false,
  });
  await exec.start({ Detach: true });
  // A minute's sample at a time (the machine is shared: a sample may catch the loops short of their quota).
  let high = (await alarms()).find((alarm) => alarm.name === "High CPU");
  let samples = 3;
  while (high?.state !== "ALARM" && samples < 8) {
    advance(60_000);
    expect(await sampling.runDue()).toBe(1);
    samples += 1;
    high = (await alarms()).find((alarm) => alarm.name === "High CPU");
  }
  expect(high).toMatchObject({ state: "ALARM", threshold: 80 });
  expect(high?.value).toBeGreaterThan(80);
  expect((await read()).series.find((series) => series.metric === "cpu")?.points).toHaveLength(samples);
}, 60_000);

it("turns the service failed when its container is stopped or removed outside the product, and Retry brings it back", async () => {
  const drift = createDriftChecks({
    db: platform.api.db,
    deploys: platform.api.engine.deploys,
    intervalMs: 60_000,
    now,
  });
  const retry = async () => {
    const response = await platform.call(
      "POST",
      servicePaths.retry(platform.tenantId, environmentId, serviceId),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const back = await settled();
    expect(back, back.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
    expect(await page(back.endpoint)).toBe("hello first\n");
    return back;
  };

  const [stopped] = await containersOfService();
  await engine.engine.getContainer(stopped?.Id ?? "").stop({ t: 0 });
  advance(61_000);
  await drift.runDue();
  let current = await service();
  expect(current.stage).toBe("STAGE_FAILED");
  expect(current.message).toMatch(
    /^Its container web-[0-9a-f]{8}-[0-9a-f]{8} stopped outside the console: it exited with code \d+ at .+\. Relaunch the service to bring it back to its configuration\.$/,
  );
  expect(current.history[0]).toMatchObject({ action: "Check", actor: "Platform", outcome: "STAGE_FAILED" });
  await retry();
  expect(await containersOfService()).toHaveLength(1);

  const [removed] = await containersOfService();
  await engine.engine.getContainer(removed?.Id ?? "").remove({ force: true });
  advance(61_000);
  await drift.runDue();
  current = await service();
  expect(current.stage).toBe("STAGE_FAILED");
  expect(current.message).toBe(
    `Its container (${removed?.Id.slice(0, 12) ?? ""}) was removed outside the console. Relaunch the service to recreate it.`,
  );
  await retry();
  expect(await containersOfService()).toHaveLength(1);
}, 120_000);

it("has the engine restart a container that crashed, and the drift check finds nothing wrong", async () => {
  const { endpoint } = await service();
  const [container] = await containersOfService();
  const handle = engine.engine.getContainer(container?.Id ?? "");
  // Its process killed on the machine, as the kernel's out-of-memory killer does: not a stop through the engine
  // (which the engine remembers as asked for, and does not undo).
  process.kill((await handle.inspect()).State.Pid, "SIGKILL");
  const deadline = Date.now() + 20_000;
  let inspected = await handle.inspect();
  while (!(inspected.State.Running && inspected.RestartCount > 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    inspected = await handle.inspect();
  }
  expect(inspected.State.Running).toBe(true);
  expect(inspected.RestartCount).toBeGreaterThan(0);
  expect(inspected.HostConfig.RestartPolicy?.Name).toBe("unless-stopped");
  // Published at the same port again: the service's endpoint answers as before.
  const answered = async () => page(endpoint).catch(() => "");
  while ((await answered()) !== "hello first\n" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(await page(endpoint)).toBe("hello first\n");
  const drift = createDriftChecks({
    db: platform.api.db,
    deploys: platform.api.engine.deploys,
    intervalMs: 60_000,
    now,
  });
  advance(61_000);
  await drift.runDue();
  expect((await service()).stage).toBe("STAGE_COMPLETED");
}, 60_000);

it("resumes a deployment after the platform restarted mid-step, without a second container", async () => {
  await change(web(engine.images.web, "resumed"));
  // The clock stands still: the queue, the pull and the start step run (it created the new container), then the
  // health check waits.
  frozen = now();
  await platform.api.engine.runner.runUntilIdle();
  await platform.api.engine.runner.stop();
  const [job] = (
    await platform.api.db.select().from(engineJobs).where(eq(engineJobs.kind, "service-deploy"))
  ).filter((row) => row.status === "queued");
  expect(job?.state).toBe("PHASE_1");
  expect(await containersOfService()).toHaveLength(2);
  // The platform died before the start step's outcome was recorded: the database holds what the pull recorded
  // (the step's record never committed), so the step runs again.
  const [row] = await platform.api.db.select().from(resources).where(eq(resources.id, serviceId));
  const { newContainer: _created, passes: _passes, failures: _failures, ...pulled } = row?.cloudState ?? {};
  if (!job) throw new Error("the deployment's job");
  await platform.api.db
    .update(engineJobs)
    .set({
      state: "PHASE_0",
      payload: { ...job.payload, steps: 1, progress: "Pulling image" },
      runAt: frozen,
    })
    .where(eq(engineJobs.id, job.id));
  await platform.api.db
    .update(resources)
    .set({ cloudState: { ...pulled, phase: "start" } })
    .where(eq(resources.id, serviceId));
  frozen = null;

  // A new platform on the same database finishes the deployment with the container the lost step created.
  const restarted = createOperations({
    db: platform.api.db,
    config: { engine: platform.api.config.engine, appUrl: platform.api.config.appUrl },
    secrets: platform.api.secrets,
    now,
  });
  const resumed = await settled(restarted.runner);
  expect(resumed, resumed.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(await page(resumed.endpoint)).toBe("hello resumed\n");
  expect(await containersOfService()).toHaveLength(1);
  await restarted.runner.stop();
}, 120_000);
