import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  budgetListSchema,
  budgetResponseSchema,
  cloudCostSchema,
  costOverviewSchema,
  costPaths,
  kubernetesCostSchema,
  type CostQuery,
} from "#contract/cost";
import { accrueUsage } from "../cost/accrual";
import { checkBudgets } from "../cost/budgets";
import { forecastMonthEnd } from "../cost/forecast";
import { nodeCapacity } from "../cost/usage";
import { budgetAlerts, notificationDeliveries, resources, usageSegments } from "../db/schema";
import { insertConnection } from "../testing/notification-connections";
import { openTestApi, type TestMember } from "../testing/http-harness";

/*
 * The cost API on a known series: a service of $730 a month ($1 an hour, $24 a day) running since 2031-04-01, seen
 * on 2031-05-20 at 12:30 (accrued to 12:00). Month to date is 19.5 days, last month 30 days, and the forecast the
 * whole of May: 31 days.
 */

const clock = new Date("2031-05-20T12:30:00.000Z");
const api = await openTestApi({}, { now: () => clock });
afterAll(() => api.close());

let admin: TestMember;
let tenantId: string;
let organizationId: string;
let production: string;
let staging: string;
let webId: string;
let clusterId: string;

async function resource(environmentId: string, name: string, serviceType: string) {
  const [row] = await api.db
    .insert(resources)
    .values({ environmentId, name, serviceType, stage: "STAGE_COMPLETED", config: {}, settings: {} })
    .returning();
  if (!row) throw new Error("no resource");
  return row.id;
}

function segment(values: {
  resourceId: string;
  environmentId: string;
  environmentName: string;
  serviceName: string;
  serviceType: string;
  monthlyCost: number;
  startedAt: string;
  endedAt?: string;
  replicas?: number;
  cpu?: number;
  memoryGb?: number;
  cpuUsed?: number;
  memoryUsedGb?: number;
  organization?: string;
}) {
  return {
    organizationId: values.organization ?? organizationId,
    environmentId: values.environmentId,
    environmentName: values.environmentName,
    resourceId: values.resourceId,
    serviceName: values.serviceName,
    serviceType: values.serviceType,
    cloudProvider: "AWS",
    region: "us-east-1",
    cloudAccount: "simulated",
    size: "test",
    replicas: values.replicas ?? 1,
    cpu: values.cpu ?? 0,
    memoryGb: values.memoryGb ?? 0,
    cpuUsed: values.cpuUsed ?? 0,
    memoryUsedGb: values.memoryUsedGb ?? 0,
    monthlyCost: values.monthlyCost,
    startedAt: new Date(values.startedAt),
    endedAt: values.endedAt ? new Date(values.endedAt) : null,
  };
}

beforeAll(async () => {
  admin = await api.createMember({ role: "admin" });
  ({ tenantId, organizationId } = admin.organization);
  production = (await api.createEnvironment(tenantId, "production")).id;
  staging = (await api.createEnvironment(tenantId, "staging")).id;
  const dbId = await resource(production, "orders-db", "database");
  webId = await resource(production, "web", "application");
  clusterId = await resource(production, "main-cluster", "kubernetes");
  const node = nodeCapacity["m7i.large"] ?? { cpu: 0, memoryGb: 0 };
  await api.db.insert(usageSegments).values([
    segment({
      resourceId: dbId,
      environmentId: production,
      environmentName: "production",
      serviceName: "orders-db",
      serviceType: "database",
      monthlyCost: 730,
      startedAt: "2031-04-01T00:00:00.000Z",
    }),
    // A staging service that ran one day in May, then was deleted (no row left).
    segment({
      resourceId: randomUUID(),
      environmentId: staging,
      environmentName: "staging",
      serviceName: "preview-db",
      serviceType: "database",
      monthlyCost: 73,
      startedAt: "2031-05-02T00:00:00.000Z",
      endedAt: "2031-05-03T00:00:00.000Z",
    }),
    // A cluster of 2 nodes and an application of 2 instances of 1 vCPU / 2 GB on it, from 2031-05-19.
    segment({
      resourceId: clusterId,
      environmentId: production,
      environmentName: "production",
      serviceName: "main-cluster",
      serviceType: "kubernetes",
      monthlyCost: 292,
      replicas: 2,
      cpu: node.cpu,
      memoryGb: node.memoryGb,
      startedAt: "2031-05-19T00:00:00.000Z",
    }),
    segment({
      resourceId: webId,
      environmentId: production,
      environmentName: "production",
      serviceName: "web",
      serviceType: "application",
      monthlyCost: 0,
      replicas: 2,
      cpu: 1,
      memoryGb: 2,
      cpuUsed: 0.25,
      memoryUsedGb: 1,
      startedAt: "2031-05-19T00:00:00.000Z",
    }),
  ]);
  await accrueUsage(api.db, { now: clock });
});

const get = (path: string, token = admin.user.token) => api.call("GET", path, { token });

async function overview(query: CostQuery, token?: string) {
  const response = await get(costPaths.overview(tenantId, query), token);
  expect(response.status).toBe(200);
  return costOverviewSchema.parse(await response.json());
}

describe("forecast", () => {
  it("is month to date plus the last 7 full days' daily average times the days left", () => {
    // $24 a day, accrued to May 20th 12:00: 19.5 days done, 11.5 to go.
    expect(
      forecastMonthEnd({
        accruedUntil: new Date("2031-05-20T12:00:00.000Z"),
        monthToDate: 19.5 * 24,
        lastFullDays: 7 * 24,
        fullDays: 7,
        today: 12,
      }),
    ).toBeCloseTo(31 * 24, 9);
    // A first day extrapolates its accrued hours.
    expect(
      forecastMonthEnd({
        accruedUntil: new Date("2031-02-01T06:00:00.000Z"),
        monthToDate: 6,
        lastFullDays: 0,
        fullDays: 0,
        today: 6,
      }),
    ).toBeCloseTo(28 * 24, 9);
  });
});

describe("overview", () => {
  it("answers month to date, last month, the forecast and the change on the known series", async () => {
    const answer = await overview({ window: "mtd", environmentId: production });
    expect(answer.window).toEqual({
      window: "mtd",
      label: "Month to date",
      from: "2031-05-01",
      to: "2031-05-20",
    });
    expect(answer.accruedUntil).toBe("2031-05-20T12:00:00.000Z");
    // The database alone: the cluster ($0.40 an hour) adds 36 hours.
    expect(answer.monthToDate).toBe(19.5 * 24 + 36 * 0.4);
    expect(answer.lastMonth).toBe(30 * 24);
  });

  it("splits the window by environment, service type and service, day by day", async () => {
    const answer = await overview({ window: "custom", from: "2031-05-01", to: "2031-05-03" });
    expect(answer.total).toBe(3 * 24 + 2.4);
    expect(answer.byEnvironment).toEqual([
      { key: production, label: "production", cost: 72 },
      { key: staging, label: "staging", cost: 2.4 },
    ]);
    expect(answer.byServiceType).toEqual([{ key: "database", label: "Database", cost: 74.4 }]);
    expect(answer.topServices.map((service) => [service.name, service.cost, service.exists])).toEqual([
      ["orders-db", 72, true],
      ["preview-db", 2.4, false],
    ]);
    expect(answer.daily).toEqual([
      { date: "2031-05-01", total: 24, byEnvironment: { [production]: 24 }, byServiceType: { database: 24 } },
      {
        date: "2031-05-02",
        total: 26.4,
        byEnvironment: { [production]: 24, [staging]: 2.4 },
        byServiceType: { database: 26.4 },
      },
      { date: "2031-05-03", total: 24, byEnvironment: { [production]: 24 }, byServiceType: { database: 24 } },
    ]);
  });

  it("forecasts the month's end with the org's whole spend", async () => {
    const answer = await overview({ window: "7d" });
    expect(answer.window.from).toBe("2031-05-14");
    // Full days of the last 7: 6 days at $24 and 2 days (19th, 20th) add the cluster's $9.60 a day ... averaged.
    const mtd = 19.5 * 24 + 2.4 + 36 * 0.4;
    const lastSeven = 7 * 24 + 9.6;
    expect(answer.monthToDate).toBe(Math.round(mtd * 100) / 100);
    expect(answer.forecast).toBe(Math.round((mtd + (lastSeven / 7) * 11.5) * 100) / 100);
    expect(answer.changeFromLastMonth).toBe(Math.round(((answer.forecast - 720) / 720) * 1000) / 10);
  });

  it("refuses a bad window with field errors", async () => {
    const missing = await get(costPaths.overview(tenantId, { window: "custom", from: "2031-05-01" }));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors).toEqual({
      to: ["To is a required field"],
    });
    const outOfRange = await get(
      costPaths.overview(tenantId, { window: "custom", from: "1899-12-31", to: "2031-01-01" }),
    );
    expect(outOfRange.status).toBe(400);
    expect(((await outOfRange.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.from).toEqual(
      ["From must be between 1900-01-01 and 2099-12-31"],
    );
    const reversed = await get(
      costPaths.overview(tenantId, { window: "custom", from: "2031-05-02", to: "2031-05-01" }),
    );
    expect(reversed.status).toBe(400);
    const otherEnvironment = await get(costPaths.overview(tenantId, { environmentId: randomUUID() }));
    expect(otherEnvironment.status).toBe(400);
  });
});

describe("CSV export", () => {
  it("lists the window's daily cells and ends with the overview's total", async () => {
    const query: CostQuery = { window: "30d" };
    const shown = await overview(query);
    const response = await get(costPaths.export(tenantId, query));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    const lines = (await response.text()).trim().split("\n");
    expect(lines[0]).toBe("date,environment,serviceType,cost");
    expect(lines.at(-1)).toBe(`Total,,,${shown.total.toFixed(2)}`);
    const rows = lines.slice(1, -1).map((line) => line.split(","));
    expect(shown.window).toMatchObject({ from: "2031-04-21", to: "2031-05-20" });
    const sum = rows.reduce((total, row) => total + Number(row[3]), 0);
    expect(Math.abs(sum - shown.total)).toBeLessThan(0.005 * rows.length);
    for (const day of shown.daily) {
      const ofDay = rows
        .filter((row) => row[0] === day.date)
        .reduce((total, row) => total + Number(row[3]), 0);
      expect(ofDay).toBeCloseTo(day.total, 1);
    }
  });
});

describe("cloud and Kubernetes", () => {
  it("splits by account, region and provider category", async () => {
    const response = await get(
      costPaths.cloud(tenantId, { window: "custom", from: "2031-05-01", to: "2031-05-03" }),
    );
    const answer = cloudCostSchema.parse(await response.json());
    expect(answer.total).toBe(74.4);
    expect(answer.byAccount).toEqual([{ key: "simulated", label: "Simulated cloud", cost: 74.4 }]);
    expect(answer.byRegion).toEqual([{ key: "AWS:us-east-1", label: "us-east-1 (AWS)", cost: 74.4 }]);
    expect(answer.byCategory).toEqual([{ key: "Amazon RDS", label: "Amazon RDS", cost: 74.4 }]);
  });

  it("drills from a cluster to its namespaces and workloads, with idle cost and efficiency", async () => {
    const response = await get(
      costPaths.kubernetes(tenantId, { window: "custom", from: "2031-05-19", to: "2031-05-19" }),
    );
    expect(response.status).toBe(200);
    const answer = kubernetesCostSchema.parse(await response.json());
    const [cluster] = answer.clusters;
    // One day of $0.40 an hour; 2 nodes of 2 vCPU and 8 GB.
    expect(cluster).toMatchObject({ name: "main-cluster", cost: 9.6, cpuCapacity: 4, memoryGbCapacity: 16 });
    expect(cluster?.namespaces.map((namespace) => namespace.name)).toEqual(["production", "kube-system"]);
    const web = cluster?.namespaces[0]?.workloads[0];
    expect(web).toMatchObject({
      name: "web",
      kind: "Deployment",
      replicas: 2,
      cpuRequested: 2,
      memoryGbRequested: 4,
    });
    // The cluster's cost split by Fargate's price ratio: vCPU-hours and GB-hours priced from it.
    const cpuWeight = 4 * 0.04048;
    const memoryWeight = 16 * 0.004445;
    const cpuPrice = (0.4 * cpuWeight) / (cpuWeight + memoryWeight) / 4;
    const memoryPrice = (0.4 * memoryWeight) / (cpuWeight + memoryWeight) / 16;
    expect(web?.requestedCost).toBe(Math.round(24 * (2 * cpuPrice + 4 * memoryPrice) * 100) / 100);
    expect(web?.usedCost).toBe(Math.round(24 * (0.5 * cpuPrice + 2 * memoryPrice) * 100) / 100);
    expect(web?.efficiency).toBe(
      Math.round(((0.5 * cpuPrice + 2 * memoryPrice) / (2 * cpuPrice + 4 * memoryPrice)) * 1000) / 10,
    );
    const requested = (cluster?.namespaces ?? []).reduce(
      (sum, namespace) => sum + namespace.requestedCost,
      0,
    );
    expect(cluster?.idleCost).toBeCloseTo(9.6 - requested, 1);
    expect(cluster?.idleCost).toBeGreaterThan(0);
    expect(cluster?.namespaces[1]?.workloads.map((workload) => workload.name).sort()).toEqual([
      "aws-node",
      "coredns",
      "kube-proxy",
    ]);
  });
});

describe("budgets", () => {
  it("refuses bad budgets with field errors and stores nothing", async () => {
    const post = (json: unknown) =>
      api.call("POST", costPaths.budgets(tenantId), { token: admin.user.token, json });
    const negative = await post({ amount: -5 });
    expect(negative.status).toBe(400);
    expect(((await negative.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors).toEqual({
      amount: ["Amount must be a positive number"],
    });
    expect((await post({ amount: 10.001 })).status).toBe(400);
    expect((await post({ amount: 100, environmentId: randomUUID() })).status).toBe(400);
    const list = budgetListSchema.parse(await (await get(costPaths.budgets(tenantId))).json());
    expect(list.budgets).toEqual([]);
  });

  it("alerts once per threshold, kind and month, through Slack and on the page", async () => {
    const post = (json: unknown) =>
      api.call("POST", costPaths.budgets(tenantId), { token: admin.user.token, json });
    const organizationBudget = await post({ amount: 700 });
    expect(organizationBudget.status).toBe(201);
    const environmentBudget = await post({ amount: 500, environmentId: production });
    expect(environmentBudget.status).toBe(201);
    const environmentView = budgetResponseSchema.parse(await environmentBudget.json()).budget;
    expect(environmentView).toMatchObject({ environmentName: "production", amount: 500 });
    expect((await post({ amount: 900, environmentId: production })).status).toBe(409);

    const slack = await insertConnection(api.db, api.secrets, {
      organizationId,
      kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
      method: "webhook",
      notifications: { events: ["budget.alert"], environmentIds: null },
    });
    const appUrl = "http://localhost:3000";
    // Organization: spent 488 of 700 (69.8 %), forecast about 766 (over 100 %): forecast 80 and 100.
    // Production: spent 482.4 of 500 (over 80 %), forecast over 100 %: actual 80, forecast 80 and 100.
    expect(await checkBudgets(api.db, { now: clock, appUrl })).toBe(5);
    expect(await checkBudgets(api.db, { now: clock, appUrl })).toBe(0);
    const alerts = await api.db
      .select()
      .from(budgetAlerts)
      .where(eq(budgetAlerts.organizationId, organizationId));
    expect(alerts.map((alert) => `${alert.kind}-${alert.threshold}`).sort()).toEqual([
      "actual-80",
      "forecast-100",
      "forecast-100",
      "forecast-80",
      "forecast-80",
    ]);
    const deliveries = await api.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.connectionId, slack.id));
    expect(deliveries).toHaveLength(5);
    expect(deliveries.every((delivery) => delivery.event === "budget.alert")).toBe(true);
    expect(deliveries.map((delivery) => delivery.message.title)).toContain(
      "Budget alert: spent 80 % of the budget of production in " +
        (deliveries[0]?.message.facts.Organization ?? ""),
    );

    const list = budgetListSchema.parse(await (await get(costPaths.budgets(tenantId))).json());
    expect(list.budgets.map((budget) => [budget.environmentName, budget.amount])).toEqual([
      [null, 700],
      ["production", 500],
    ]);
    expect(list.alerts).toHaveLength(5);

    // Raising the budget does not fire again this month; deleting it takes its alerts.
    const put = await api.call("PUT", costPaths.budget(tenantId, environmentView.id), {
      token: admin.user.token,
      json: { amount: 5000 },
    });
    expect(budgetResponseSchema.parse(await put.json()).budget.amount).toBe(5000);
    expect(await checkBudgets(api.db, { now: clock, appUrl })).toBe(0);
    const removed = await api.call("DELETE", costPaths.budget(tenantId, environmentView.id), {
      token: admin.user.token,
    });
    expect(removed.status).toBe(204);
    expect(budgetListSchema.parse(await (await get(costPaths.budgets(tenantId))).json()).alerts).toHaveLength(
      2,
    );
  });
});

describe("access", () => {
  it("needs billing.view to read and billing.manage to change budgets", async () => {
    const reader = await api.createUser();
    await api.addMember(reader.id, organizationId, "read-only");
    for (const path of [
      costPaths.overview(tenantId),
      costPaths.cloud(tenantId),
      costPaths.kubernetes(tenantId),
      costPaths.export(tenantId),
      costPaths.budgets(tenantId),
    ]) {
      expect((await get(path, reader.token)).status).toBe(403);
    }
    const developer = await api.createUser();
    await api.addMember(developer.id, organizationId, "developer");
    const refused = await api.call("POST", costPaths.budgets(tenantId), {
      token: developer.token,
      json: { amount: 10 },
    });
    expect(refused.status).toBe(403);
  });

  it("shows an organization its own usage only", async () => {
    const other = await api.createMember({ role: "admin" });
    const otherTenant = other.organization.tenantId;
    const answer = costOverviewSchema.parse(
      await (await get(costPaths.overview(otherTenant, { window: "90d" }), other.user.token)).json(),
    );
    expect(answer.total).toBe(0);
    expect(answer.topServices).toEqual([]);
    // Another organization's tenant is refused, and its environment is not a filter of this one.
    expect((await get(costPaths.overview(tenantId), other.user.token)).status).toBe(403);
    expect(
      (await get(costPaths.overview(otherTenant, { environmentId: production }), other.user.token)).status,
    ).toBe(400);
  });
});
