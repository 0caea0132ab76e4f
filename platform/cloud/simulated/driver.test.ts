import { describe, expect, it } from "vitest";
import { serviceTypes, type ServiceType } from "#contract/service-catalogue";
import { alarmSchema, defaultServiceSettings, metricsSchema } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { costEstimateSchema } from "#contract/environments";
import type { DriverResource } from "../driver";
import { createSimulatedDriver } from "./driver";

const driver = createSimulatedDriver();

const configs: Record<ServiceType, Record<string, unknown>> = {
  ...defaultServiceConfigs,
  "file-storage": { ...defaultServiceConfigs["file-storage"], bucketName: "acme-uploads" },
  "nosql-database": { ...defaultServiceConfigs["nosql-database"], tableName: "orders" },
  serverless: { ...defaultServiceConfigs.serverless, uploadId: "u1" },
  tls: { ...defaultServiceConfigs.tls, domain: "*.example.com" },
  application: { image: "ghcr.io/acme/web:1.4.2" },
};

function resourceOf(serviceType: ServiceType, overrides: Partial<DriverResource> = {}): DriverResource {
  return {
    id: `3f0c6a52-1111-4c2b-9a7e-${serviceType.length.toString().padStart(12, "0")}`,
    name: serviceType === "database" ? "orders-db" : "web",
    serviceType,
    config: configs[serviceType],
    settings: defaultServiceSettings,
    environmentName: "production",
    cloudProvider: "AWS",
    region: "us-east-1",
    ...overrides,
  };
}

const from = new Date("2026-11-22T10:00:00.000Z");
const to = new Date("2026-11-22T10:05:00.000Z");

describe("deployPlan", () => {
  it.each(serviceTypes)("gives %s named phases of whole seconds", (type) => {
    const plan = driver.deployPlan(resourceOf(type));
    expect(plan.length).toBeGreaterThan(1);
    for (const phase of plan) {
      expect(phase.name).not.toBe("");
      expect(Number.isInteger(phase.seconds) && phase.seconds > 0).toBe(true);
    }
  });

  it("takes longer for bigger things: a Multi-AZ large database, a Kubernetes cluster over a queue", () => {
    const total = (resource: DriverResource) =>
      driver.deployPlan(resource).reduce((sum, phase) => sum + phase.seconds, 0);
    const small = total(resourceOf("database"));
    const large = total(
      resourceOf("database", {
        config: { ...configs.database, instanceSize: "db.m7g.xlarge", multiAz: true },
      }),
    );
    expect(small).toBeGreaterThanOrEqual(20);
    expect(small).toBeLessThanOrEqual(40);
    expect(large).toBeGreaterThan(small);
    expect(total(resourceOf("kubernetes"))).toBeGreaterThan(55);
    expect(total(resourceOf("queue"))).toBeLessThan(10);
  });
});

describe("podNames", () => {
  it("names application pods like a Deployment, new per rollout, stable per (id, deployNumber)", () => {
    const app = resourceOf("application", {
      settings: {
        ...defaultServiceSettings,
        scaling: { minInstances: 3, maxInstances: 5, targetCpuPercent: 70 },
      },
    });
    const first = driver.podNames(app, 1);
    expect(first).toHaveLength(3);
    for (const pod of first)
      expect(pod).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{9,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(driver.podNames(app, 1)).toEqual(first);
    expect(driver.podNames(app, 2)).not.toEqual(first);
  });

  it("runs at least one instance and names databases and caches like StatefulSets", () => {
    const zero = resourceOf("application", {
      settings: {
        ...defaultServiceSettings,
        scaling: { minInstances: 0, maxInstances: 2, targetCpuPercent: 70 },
      },
    });
    expect(driver.podNames(zero, 1)).toHaveLength(1);
    expect(driver.podNames(resourceOf("database"), 1)).toEqual(["orders-db-0"]);
    expect(
      driver.podNames(resourceOf("database", { config: { ...configs.database, multiAz: true } }), 4),
    ).toEqual(["orders-db-0", "orders-db-1"]);
    expect(driver.podNames(resourceOf("cache", { config: { ...configs.cache, nodes: 3 } }), 1)).toEqual([
      "web-0",
      "web-1",
      "web-2",
    ]);
  });
});

describe("runtimeLogs", () => {
  const pods = ["orders-db-0", "orders-db-1"];
  const database = resourceOf("database");

  it("is deterministic and the same whichever way the window is cut", () => {
    const whole = driver.runtimeLogs(database, pods, from, to, 1000);
    expect(driver.runtimeLogs(database, pods, from, to, 1000)).toEqual(whole);
    const middle = new Date("2026-11-22T10:02:30.000Z");
    const parts = [
      ...driver.runtimeLogs(database, pods, from, middle, 1000),
      ...driver.runtimeLogs(database, pods, middle, to, 1000),
    ];
    expect(parts).toEqual(whole);
    // About one event per pod every few seconds.
    expect(whole.length).toBeGreaterThan(50);
    for (const line of whole) {
      expect(line.at.getTime()).toBeGreaterThanOrEqual(from.getTime());
      expect(line.at.getTime()).toBeLessThan(to.getTime());
      expect(pods).toContain(line.podName);
    }
  });

  it("keeps the newest lines within the limit, ascending", () => {
    const whole = driver.runtimeLogs(database, pods, from, to, 1000);
    const limited = driver.runtimeLogs(database, pods, from, to, 10);
    expect(limited).toEqual(whole.slice(-10));
    const longAgo = driver.runtimeLogs(database, pods, new Date("2026-01-01T00:00:00Z"), to, 500);
    expect(longAgo).toHaveLength(500);
    expect(longAgo.at(-1)).toEqual(whole.at(-1));
  });

  it("mixes levels, mostly info", () => {
    const lines = driver.runtimeLogs(
      resourceOf("application"),
      ["web-abc"],
      from,
      new Date(from.getTime() + 3_600_000),
      1000,
    );
    const count = (level: string) => lines.filter((line) => line.level === level).length;
    expect(count("info")).toBeGreaterThan(lines.length / 2);
    expect(count("warn")).toBeGreaterThan(0);
    expect(count("debug")).toBeGreaterThan(0);
    expect(count("error")).toBeGreaterThan(0);
    expect(count("error")).toBeLessThan(count("warn") + count("debug"));
  });

  const formats: [ServiceType, Partial<DriverResource>, RegExp][] = [
    ["database", {}, /^2026-11-22 10:0\d:\d\d\.\d{3} UTC \[\d+\] (LOG|WARNING|ERROR|DETAIL|DEBUG): {2}/],
    [
      "database",
      { config: { ...configs.database, engine: "mysql", version: "8.4" } },
      /^(2026-11-22T10:0\d:\d\d\.\d{6}Z \d+ \[(Note|Warning|ERROR|System)\] \[MY-\d{6}\]|# Time: )/,
    ],
    [
      "database",
      { config: { ...configs.database, engine: "mariadb", version: "11.4" } },
      /^(2026-11-22 10:0\d:\d\d \d+ \[(Note|Warning|ERROR)\] |# Time: )/,
    ],
    ["cache", {}, /^\d+:[MSC] 22 Nov 2026 10:0\d:\d\d\.\d{3} [*#.-] /],
    [
      "cache",
      { config: { ...configs.cache, engine: "memcached", version: "1.6" } },
      /^([<>]\d+ |\d+: Client)/,
    ],
    ["queue", {}, /^time="2026-11-22T10:0\d:\d\d\.\d{3}Z" level=(info|debug|warning|error) msg="/],
    [
      "file-storage",
      {},
      /^[0-9a-f]{64} acme-uploads \[22\/Nov\/2026:10:0\d:\d\d \+0000\] [\d.]+ arn:aws:iam::\d{12}:role\/\S+ [0-9A-F]{16} REST\.[A-Z]+\.[A-Z]+ \S+ "[A-Z]+ \S+ HTTP\/1\.1" \d{3} /,
    ],
    [
      "nosql-database",
      {},
      /^\{"eventTime":"2026-11-22T10:0\d:\d\d\.\d{3}Z","eventName":"\w+","tableName":"orders"/,
    ],
    [
      "serverless",
      {},
      /^(INIT_START Runtime Version|START RequestId: [0-9a-f-]{36} Version: \$LATEST|END RequestId: [0-9a-f-]{36}|REPORT RequestId: [0-9a-f-]{36}\tDuration: \d+\.\d{2} ms\tBilled Duration: \d+ ms\tMemory Size: 256 MB\tMax Memory Used: \d+ MB|2026-11-22T10:0\d:\d\d\.\d{3}Z[\t ][0-9a-f-]{36}[\t ])/,
    ],
    ["kubernetes", {}, /^[IWE]1122 10:0\d:\d\d\.\d{6} +\d+ [\w.]+:\d+\] /],
    ["control-plane", {}, /^[IWE]1122 10:0\d:\d\d\.\d{6} +1 [\w.]+:\d+\] /],
    [
      "network",
      {},
      /^2 \d{12} eni-[0-9a-f]+ [\d.]+ [\d.]+ \d+ \d+ (6|17) \d+ \d+ \d+ \d+ (ACCEPT|REJECT) OK$/,
    ],
    [
      "tls",
      {},
      /^time="2026-11-22T10:0\d:\d\d\.\d{3}Z" level=\w+ msg="[^"]+" CertificateArn=arn:aws:acm:us-east-1:\d{12}:certificate\//,
    ],
    [
      "application",
      {},
      /^(\{"level":\d0,"time":\d+|[\d.]+ - - \[22\/Nov\/2026:10:0\d:\d\d \+0000\] "[A-Z]+ \S+ HTTP\/1\.1" \d{3} \d+ |2026-11-22T10:0\d:\d\d\.\d{3}Z DEBUG )/,
    ],
  ];
  it.each(formats)("writes %s lines in its software's format", (type, overrides, pattern) => {
    const resource = resourceOf(type, overrides);
    const podNames = type === "network" ? ["eni-0123456789abcdef0"] : driver.podNames(resource, 1);
    const lines = driver.runtimeLogs(resource, podNames, from, to, 1000);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.message).toMatch(pattern);
  });

  it("writes the Redis ready line and Terraform progress while deploying", () => {
    const cache = resourceOf("cache");
    const plan = driver.deployPlan(cache);
    const lines = plan.flatMap((phase) => driver.deployLogs(cache, ["web-0"], phase, from));
    expect(lines.map((line) => line.message)).toEqual(
      expect.arrayContaining([
        "aws_elasticache_subnet_group.web: Creating...",
        expect.stringMatching(/^1:M 22 Nov 2026 10:00:\d\d\.\d{3} \* Ready to accept connections tcp$/),
        expect.stringMatching(
          /^aws_elasticache_replication_group\.web: Creation complete after \d+s \[id=web\]$/,
        ),
      ]),
    );
    const database = driver
      .deployPlan(database_())
      .flatMap((phase) => driver.deployLogs(database_(), ["orders-db-0"], phase, from));
    expect(database.map((line) => line.message)).toContainEqual(
      expect.stringMatching(
        /^2026-11-22 10:00:\d\d\.\d{3} UTC \[1\] LOG: {2}database system is ready to accept connections$/,
      ),
    );
  });
  const database_ = () => resourceOf("database");
});

describe("metrics and alarms", () => {
  const now = new Date("2026-11-22T16:00:30.000Z");

  it("gives one point per step for every metric, deterministic, within sensible bounds", () => {
    const metrics = driver.metrics(resourceOf("application"), "1h", 60, now);
    expect(metricsSchema.parse(metrics)).toEqual(metrics);
    expect(metrics.series.map((series) => series.metric)).toEqual([
      "cpu",
      "memory",
      "requests",
      "errors",
      "latency",
    ]);
    for (const series of metrics.series) {
      // 60 steps, the last at 16:00, then the current value at 16:00:30.
      expect(series.points).toHaveLength(61);
      expect(series.points.at(-2)?.at).toBe("2026-11-22T16:00:00.000Z");
      expect(series.points.at(-1)?.at).toBe(now.toISOString());
      for (const point of series.points) expect(point.value).toBeGreaterThanOrEqual(0);
    }
    for (const point of metrics.series[0]?.points ?? []) expect(point.value).toBeLessThanOrEqual(100);
    expect(driver.metrics(resourceOf("application"), "1h", 60, now)).toEqual(metrics);
  });

  it("has no extra point when now falls on a step", () => {
    const onStep = new Date("2026-11-22T16:00:00.000Z");
    const metrics = driver.metrics(resourceOf("application"), "1h", 60, onStep);
    for (const series of metrics.series) {
      expect(series.points).toHaveLength(60);
      expect(series.points.at(-1)?.at).toBe(onStep.toISOString());
    }
  });

  it("follows the day: more requests in the afternoon (UTC) than at night", () => {
    const week = driver.metrics(resourceOf("application"), "7d", 3600, now);
    const requests = week.series.find((series) => series.metric === "requests")?.points ?? [];
    const byHour = (hour: number) => requests.filter((point) => new Date(point.at).getUTCHours() === hour);
    const average = (points: { value: number }[]) =>
      points.reduce((sum, point) => sum + point.value, 0) / points.length;
    expect(average(byHour(16))).toBeGreaterThan(average(byHour(4)) * 2);
  });

  it("judges alarms on the latest value and dates when the state began", () => {
    const resource = resourceOf("database");
    const metrics = driver.metrics(resource, "1h", 60, now);
    const alarms = driver.alarms(resource, metrics, now);
    expect(alarms.map((alarm) => [alarm.name, alarm.severity])).toEqual([
      ["High CPU", "high"],
      ["Error rate", "critical"],
      ["Latency p95", "medium"],
      ["Memory", "low"],
    ]);
    for (const alarm of alarms) expect(alarmSchema.parse(alarm)).toEqual(alarm);
    const cpu = structuredClone(metrics);
    const points = cpu.series[0]?.points ?? [];
    points.forEach((point, index) => (point.value = index >= 50 ? 95 : 20));
    const high = driver.alarms(resource, cpu, now)[0];
    expect(high).toMatchObject({ state: "ALARM", value: 95, threshold: 80, since: points[50]?.at });
    points.forEach((point) => (point.value = 20));
    expect(driver.alarms(resource, cpu, now)[0]).toMatchObject({ state: "OK", since: points[0]?.at });
  });
});

describe("price", () => {
  const price = (
    type: ServiceType,
    config: Record<string, unknown> = {},
    extra: Partial<DriverResource> = {},
  ) =>
    costEstimateSchema.parse(
      driver.price({ ...resourceOf(type), config: { ...configs[type], ...config }, ...extra }),
    );

  it("prices a db.t4g.micro with 20 GB at list price, doubled for Multi-AZ, times the market factor", () => {
    expect(price("database")).toEqual({
      currency: "USD",
      monthlyCost: 13.98,
      breakdown: [
        { item: "DB instance db.t4g.micro", monthlyCost: 11.68 },
        { item: "Storage 20 GB", monthlyCost: 2.3 },
      ],
    });
    expect(price("database", { multiAz: true }).monthlyCost).toBe(27.96);
    expect(price("database", {}, { region: "eu-west-1" }).monthlyCost).toBe(15.38);
  });

  it("prices EKS, NAT gateways, certificates, Lambda and applications", () => {
    // $73 + 2 × t3.large (60.74) + 2 × 20 GB volumes (1.60)
    expect(price("kubernetes").monthlyCost).toBe(73 + 121.47 + 3.2);
    expect(price("control-plane").monthlyCost).toBe(73);
    expect(price("network", { natGateways: "one-per-zone", availabilityZones: 3 }).breakdown[0]).toEqual({
      item: "NAT gateways 3 × $32.85",
      monthlyCost: 98.55,
    });
    expect(price("tls").monthlyCost).toBe(0);
    expect(price("serverless").monthlyCost).toBe(1.03);
    // 0.5 vCPU × 0.04048 + 1 GB × 0.004445 = 0.024685 an hour → 18.02 a month
    expect(price("application").monthlyCost).toBe(18.02);
    expect(price("cache", { nodes: 2 }).monthlyCost).toBe(23.36);
    expect(price("cache", { engine: "valkey", version: "8.0" }).monthlyCost).toBe(9.34);
    expect(
      price("nosql-database", { billingMode: "provisioned", readCapacityUnits: 5, writeCapacityUnits: 5 })
        .monthlyCost,
    ).toBe(2.84);
    expect(price("file-storage", { versioning: false }).monthlyCost).toBe(3.2);
    expect(price("queue").monthlyCost).toBe(3.6);
  });

  it("prices nothing on a container host: the services run on the host's own machine (issue 26)", () => {
    const onHost = { cloudProvider: "CONTAINERS", region: "local" } as const;
    expect(price("database", {}, onHost)).toEqual({
      currency: "USD",
      monthlyCost: 0,
      breakdown: [{ item: "Runs on the container host: no cloud charge", monthlyCost: 0 }],
    });
    expect(price("application", {}, onHost).monthlyCost).toBe(0);
  });
});

describe("secret attributes and endpoints", () => {
  it("creates the attributes it names, fresh each time", () => {
    for (const type of serviceTypes) {
      const resource = resourceOf(type);
      const endpoint = driver.endpoint(resource);
      const attributes = driver.createSecretAttributes(resource, endpoint);
      expect(Object.keys(attributes).sort()).toEqual(driver.secretAttributeNames(type).sort());
    }
    const database = resourceOf("database");
    const endpoint = driver.endpoint(database);
    const first = driver.createSecretAttributes(database, endpoint);
    expect(first.connectionString).toBe(`postgres://admin:${first.password}@${endpoint}:5432/orders_db`);
    expect(driver.createSecretAttributes(database, endpoint).password).not.toBe(first.password);
    expect(driver.secretAttributeNames("network")).toEqual([]);
  });

  it("names endpoints under simulated.invalid (RFC 2606), never a real-looking host, stable per service", () => {
    expect(driver.endpoint(resourceOf("database"))).toBe("orders-db.production.simulated.invalid");
    expect(driver.endpoint(resourceOf("cache"))).toBe("web.production.simulated.invalid");
    expect(driver.endpoint(resourceOf("queue"))).toBe("https://web.production.simulated.invalid");
    expect(driver.endpoint(resourceOf("file-storage"))).toBe(
      "https://web.production.simulated.invalid/acme-uploads",
    );
    expect(driver.endpoint(resourceOf("serverless"))).toBe("https://web.production.simulated.invalid");
    expect(driver.endpoint(resourceOf("kubernetes"))).toBe("https://web.production.simulated.invalid");
    expect(driver.endpoint(resourceOf("network"))).toBeNull();
    expect(driver.endpoint(resourceOf("database", { cloudProvider: "AZURE", region: "westeurope" }))).toBe(
      "orders-db.production.simulated.invalid",
    );
    const publicApp = resourceOf("application", {
      settings: {
        ...defaultServiceSettings,
        networking: { ...defaultServiceSettings.networking, public: true },
      },
    });
    expect(driver.endpoint(publicApp)).toBe("https://production-pub.simulated.invalid/web");
    expect(driver.endpoint(resourceOf("application"))).toMatch(/^web\.production\.simulated\.invalid:\d+$/);
    for (const type of serviceTypes)
      for (const cloudProvider of ["AWS", "GCP", "AZURE"] as const) {
        const endpoint = driver.endpoint(resourceOf(type, { cloudProvider }));
        if (endpoint === null) continue;
        // A host, or a URL whose host, is the simulated one: nothing the provider could own.
        expect(new URL(endpoint.includes("://") ? endpoint : `tcp://${endpoint}`).hostname).toMatch(
          /\.simulated\.invalid$/,
        );
      }
  });
});
