import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultServiceSettings, observabilitySchema, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { openTestApi, uniqueName, type TestMember } from "../testing/http-harness";
import { environments, observabilityProviders, resourceUsageSamples, resources } from "../db/schema";
import { insertConnection } from "../testing/notification-connections";
import { claimDueLink, createMetricForwarder, FORWARD_LEASE_MS } from "./forwarder";
import {
  startDatadogIntake,
  startMiddlewareIntake,
  type DatadogIntake,
  type MiddlewareIntake,
} from "../testing/intake-servers";

/*
 * The forwarder against small servers that check what Datadog's and Middleware's intakes check. The metrics come
 * from where the environment's monitoring tab reads them (the simulated cloud's series here, a container host's
 * samples in the last test); the clock is the test's.
 */

const DD_KEY = "dd-api-key-0123456789abcdef";
const MW_KEY = "mw-api-key-0123456789abcdef";

let clock = new Date("2034-03-01T10:00:30.000Z");
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

const api = await openTestApi();
let member: TestMember;
let datadog: DatadogIntake;
let middleware: MiddlewareIntake;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  datadog = await startDatadogIntake({ keys: [DD_KEY], now: () => clock });
  middleware = await startMiddlewareIntake({ keys: [MW_KEY] });
});
afterAll(async () => {
  await Promise.all([datadog.close(), middleware.close()]);
  await api.close();
});

const forwarder = () =>
  createMetricForwarder({
    db: api.db,
    secrets: api.secrets,
    telemetryOf: api.engine.telemetryOf,
    settings: { timeScale: 1, pollIntervalMs: 10 },
    now: () => clock,
  });

/** An environment with a deployed database and a draft application, linked to `connectionId`. */
async function linkedEnvironment(connectionId: string) {
  const environment = await api.createEnvironment(member.organization.tenantId, uniqueName("production"));
  const [service] = await api.db
    .insert(resources)
    .values([
      {
        environmentId: environment.id,
        name: "orders-db",
        serviceType: "database",
        stage: "STAGE_COMPLETED",
        config: defaultServiceConfigs.database,
        settings: defaultServiceSettings,
        deployedAt: new Date("2034-03-01T08:00:00.000Z"),
      },
      {
        environmentId: environment.id,
        name: "web",
        serviceType: "application",
        stage: "STAGE_DRAFT",
        config: { image: "ghcr.io/acme/web:1.0.0" },
        settings: defaultServiceSettings,
      },
    ])
    .returning();
  const [link] = await api.db
    .insert(observabilityProviders)
    .values({ environmentId: environment.id, connectionId })
    .returning();
  if (!service || !link) throw new Error("the scene was not stored");
  return { environment, service, link };
}

async function linkOf(id: string) {
  const [row] = await api.db.select().from(observabilityProviders).where(eq(observabilityProviders.id, id));
  return row;
}

const datadogConnection = (key = DD_KEY) =>
  insertConnection(api.db, api.secrets, {
    organizationId: member.organization.organizationId,
    kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
    method: "api-key",
    fields: { DD_URL: datadog.url },
    secretFields: { DD_API_KEY: key },
  });

describe("forwarding to Datadog", () => {
  it("posts the deployed services' metrics every minute with the key and the environment's tags", async () => {
    const { environment, link } = await linkedEnvironment((await datadogConnection()).id);
    const runner = forwarder();
    const before = datadog.accepted.length;

    expect(await runner.runDue()).toBe(1);
    const [first] = datadog.accepted.slice(before);
    expect(first?.map((series) => series.metric).sort()).toEqual([
      "cloudconsole.cpu.utilization",
      "cloudconsole.errors.rate",
      "cloudconsole.latency",
      "cloudconsole.memory.utilization",
      "cloudconsole.requests.rate",
    ]);
    const cpu = first?.find((series) => series.metric === "cloudconsole.cpu.utilization");
    expect(cpu).toMatchObject({
      type: 3,
      unit: "percent",
      tags: [`env:${environment.name}`, "service:orders-db", "service_type:database"],
      points: [{ timestamp: Date.parse("2034-03-01T10:00:00.000Z") / 1000, value: expect.any(Number) }],
    });
    expect(cpu?.points[0]?.value).toBeGreaterThan(0);
    expect(await linkOf(link.id)).toMatchObject({
      lastForwardedAt: clock,
      lastForwardError: null,
      leasedUntil: new Date(clock.getTime() + 60_000),
    });

    // Not again within the minute; the next minute's point when it comes.
    advance(30);
    expect(await runner.runDue()).toBe(0);
    advance(30);
    expect(await runner.runDue()).toBe(1);
    const next = datadog.accepted.at(-1)?.find((series) => series.metric === "cloudconsole.cpu.utilization");
    expect(next?.points.map((point) => point.timestamp)).toEqual([
      Date.parse("2034-03-01T10:01:00.000Z") / 1000,
    ]);
  });

  it("records the provider's refusal in plain words, and the next post carries the minutes it missed", async () => {
    const { environment, link } = await linkedEnvironment((await datadogConnection()).id);
    const runner = forwarder();
    await runner.runDue();
    const forwardedAt = clock;

    advance(60);
    datadog.failNext(10, { status: 503, body: JSON.stringify({ errors: ["Service Unavailable"] }) });
    await runner.runDue();
    datadog.failNext(0);
    expect(await linkOf(link.id)).toMatchObject({
      lastForwardedAt: forwardedAt,
      lastForwardError: "Datadog answered 503: Service Unavailable",
    });
    const { providers } = observabilitySchema.parse(
      await (
        await api.call("GET", servicePaths.observability(member.organization.tenantId, environment.id), {
          token: member.user.token,
        })
      ).json(),
    );
    expect(providers).toEqual([
      expect.objectContaining({
        lastForwardedAt: forwardedAt.toISOString(),
        lastForwardError: "Datadog answered 503: Service Unavailable",
      }),
    ]);

    advance(60);
    const before = datadog.accepted.length;
    await runner.runDue();
    const caughtUp = datadog.accepted
      .slice(before)
      .flat()
      .find(
        (series) =>
          series.metric === "cloudconsole.latency" && series.tags.includes(`env:${environment.name}`),
      );
    expect(caughtUp?.points).toHaveLength(2);
    expect(await linkOf(link.id)).toMatchObject({ lastForwardedAt: clock, lastForwardError: null });
  });

  it("says the key is refused, without the key", async () => {
    const { link } = await linkedEnvironment((await datadogConnection("dd-api-key-revoked")).id);
    await forwarder().runDue();
    const row = await linkOf(link.id);
    expect(row?.lastForwardError).toBe(
      `Datadog refused the API key for ${new URL(datadog.url).host}: check the connection's key and that it belongs to this site.`,
    );
    expect(row?.lastForwardedAt).toBeNull();
  });

  it("says the site is unreachable, and never repeats the key a refusal echoes", async () => {
    const closed = await startDatadogIntake({ keys: [DD_KEY], now: () => clock });
    await closed.close();
    const unreachable = await insertConnection(api.db, api.secrets, {
      organizationId: member.organization.organizationId,
      kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
      method: "api-key",
      fields: { DD_URL: closed.url },
      secretFields: { DD_API_KEY: DD_KEY },
    });
    const { link: nowhere } = await linkedEnvironment(unreachable.id);
    const { link: echoed } = await linkedEnvironment((await datadogConnection()).id);
    datadog.failNext(10, { status: 400, body: JSON.stringify({ errors: [`Invalid key ${DD_KEY}`] }) });
    await forwarder().runDue();
    datadog.failNext(0);
    expect((await linkOf(nowhere.id))?.lastForwardError).toBe(
      `Could not reach ${new URL(closed.url).host}: the connection was refused.`,
    );
    expect((await linkOf(echoed.id))?.lastForwardError).toBe("Datadog answered 400: Invalid key [secret]");
  });

  it("leaves a leased link alone until its lease runs out", async () => {
    const { link } = await linkedEnvironment((await datadogConnection()).id);
    // Another platform claimed it and died mid-post.
    for (;;) {
      const claimed = await claimDueLink(api.db, clock);
      if (!claimed || claimed.id === link.id) break;
    }
    const runner = forwarder();
    await runner.runDue();
    expect((await linkOf(link.id))?.lastForwardedAt).toBeNull();
    advance(FORWARD_LEASE_MS / 1000);
    await runner.runDue();
    expect((await linkOf(link.id))?.lastForwardedAt).toEqual(clock);
  });
});

describe("what is forwarded", () => {
  it("posts a container host's measured CPU and memory, not the simulated cloud's series", async () => {
    const { environment, service, link } = await linkedEnvironment((await datadogConnection()).id);
    const host = await insertConnection(api.db, api.secrets, {
      organizationId: member.organization.organizationId,
      kind: "CONTAINER_HOST",
      method: "docker-host",
      fields: { DOCKER_HOST: "unix:///nowhere/docker.sock" },
      secretFields: {},
    });
    await api.db
      .update(environments)
      .set({ cloudProvider: "CONTAINERS", region: "local", cloudConnectionId: host.id })
      .where(eq(environments.id, environment.id));
    // Two samples in the minute the clock is in (always half past: the tests move it by half minutes).
    const minute = Math.floor(clock.getTime() / 60_000) * 60_000;
    await api.db.insert(resourceUsageSamples).values([
      { resourceId: service.id, at: new Date(minute + 5_000), cpuPercent: 12.5, memoryPercent: 40 },
      { resourceId: service.id, at: new Date(minute + 20_000), cpuPercent: 17.5, memoryPercent: 42 },
    ]);
    const before = datadog.accepted.length;

    await forwarder().runDue();
    const posted = datadog.accepted
      .slice(before)
      .flat()
      .filter((series) => series.tags.includes(`env:${environment.name}`));
    expect(posted.map((series) => [series.metric, series.points])).toEqual([
      ["cloudconsole.cpu.utilization", [{ timestamp: minute / 1000, value: 15 }]],
      ["cloudconsole.memory.utilization", [{ timestamp: minute / 1000, value: 41 }]],
    ]);
    expect((await linkOf(link.id))?.lastForwardError).toBeNull();
  });
});

describe("forwarding to Middleware", () => {
  it("posts OTLP metrics with the API key as header and account key, one resource per service", async () => {
    const connection = await insertConnection(api.db, api.secrets, {
      organizationId: member.organization.organizationId,
      kind: "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
      method: "api-key",
      fields: { MW_URL: middleware.url, MW_PROJECT_ALIAS: "shop" },
      secretFields: { MW_API_KEY: MW_KEY },
    });
    const { environment, link } = await linkedEnvironment(connection.id);
    await forwarder().runDue();

    expect(await linkOf(link.id)).toMatchObject({ lastForwardError: null, lastForwardedAt: clock });
    const request = middleware.accepted.at(-1);
    expect(request?.resourceMetrics).toHaveLength(1);
    const [resource] = request?.resourceMetrics ?? [];
    expect(resource?.resource.attributes).toEqual(
      expect.arrayContaining([
        { key: "mw.resource_type", value: { stringValue: "custom" } },
        { key: "service.name", value: { stringValue: "orders-db" } },
        { key: "deployment.environment", value: { stringValue: environment.name } },
      ]),
    );
    const metrics = resource?.scopeMetrics[0]?.metrics ?? [];
    expect(metrics.map((metric) => metric.name)).toContain("cloudconsole.memory.utilization");
    const [point] = metrics[0]?.gauge.dataPoints ?? [];
    expect(point?.timeUnixNano).toBe(`${Math.floor(clock.getTime() / 60_000) * 60_000}000000`);
    expect(point?.attributes).toContainEqual({ key: "env", value: { stringValue: environment.name } });
  });

  it("says the key is refused", async () => {
    const connection = await insertConnection(api.db, api.secrets, {
      organizationId: member.organization.organizationId,
      kind: "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
      method: "api-key",
      fields: { MW_URL: middleware.url, MW_PROJECT_ALIAS: "shop" },
      secretFields: { MW_API_KEY: "mw-wrong-key" },
    });
    const { link } = await linkedEnvironment(connection.id);
    await forwarder().runDue();
    expect((await linkOf(link.id))?.lastForwardError).toBe(
      `Middleware refused the API key for ${new URL(middleware.url).host}: check the connection's key and URL.`,
    );
  });
});
