import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costOverviewSchema, costPaths } from "#contract/cost";
import { defaultServiceSettings, servicePaths, type ServiceSettings } from "#contract/services";
import { openTestApi, type TestMember } from "../testing/http-harness";
import { environments, usageDaily, usageDailyTotals, usageMonthly, usageSegments } from "../db/schema";
import { priceOf } from "../cloud/simulated/prices";
import { createSimulatedDriver } from "../cloud/simulated/driver";
import { createService } from "../services/services";
import { accrueUsage, accruedUntil } from "./accrual";

/*
 * Accrual through the real API and engine on a clock the test moves: an application deployed at 00:00 with one
 * instance, scaled to three at 03:00, relaunched bigger at 05:00 and deleted at 08:00 costs exactly
 * 3 h, 2 h and 3 h at the catalogue's three prices.
 */

let clock = new Date("2031-03-10T00:00:00.000Z");
const at = (iso: string) => {
  clock = new Date(iso);
};
const api = await openTestApi({}, { driver: createSimulatedDriver(), now: () => clock });
afterAll(() => api.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  environmentId = (await api.createEnvironment(tenantId, "production")).id;
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });
const run = () => api.engine.runner.runUntilIdle();

const hourly = (settings: ServiceSettings) =>
  priceOf({ serviceType: "application", config: {}, settings, cloudProvider: "AWS", region: "us-east-1" })
    .monthlyCost / 730;

describe("accrual across deploy, scale, relaunch and delete", () => {
  const one = { ...defaultServiceSettings, scaling: { ...defaultServiceSettings.scaling, minInstances: 1 } };
  const three = { ...one, scaling: { ...one.scaling, minInstances: 3 } };
  const bigger = { ...three, hardware: { cpu: "1" as const, memoryMb: 2048 } };
  let resourceId: string;

  it("opens a segment per change and closes the last one on delete", async () => {
    at("2031-03-10T00:00:00.000Z");
    // Applications come from their source (not POST infrastructure): stored and queued as the engine's callers do.
    resourceId = await api.db.transaction(async (tx) => {
      const [environment] = await tx.select().from(environments).where(eq(environments.id, environmentId));
      if (!environment) throw new Error("no environment");
      const created = await createService(
        tx,
        {
          environment,
          serviceType: "application",
          name: "web",
          config: { image: "ghcr.io/acme/web:1" },
          settings: one,
          launch: true,
          actor: "Test",
        },
        clock,
      );
      if (!created) throw new Error("not created");
      await api.engine.deploys.enqueue(
        tx,
        {
          resource: created.resource,
          environment,
          historyId: created.history.id,
          action: "Create",
          deployNumber: 1,
        },
        clock,
      );
      return created.resource.id;
    });
    await run();

    at("2031-03-10T03:00:00.000Z");
    const scaled = await call("PUT", servicePaths.one(tenantId, environmentId, resourceId), {
      version: 1,
      settings: three,
    });
    expect(scaled.status).toBe(200);
    await run();

    at("2031-03-10T05:00:00.000Z");
    const relaunched = await call("PUT", servicePaths.one(tenantId, environmentId, resourceId), {
      version: 2,
      config: { image: "ghcr.io/acme/web:2" },
      settings: bigger,
    });
    expect(relaunched.status).toBe(200);
    await run();

    at("2031-03-10T08:00:00.000Z");
    expect((await call("DELETE", servicePaths.one(tenantId, environmentId, resourceId))).status).toBe(204);

    const segments = await api.db
      .select()
      .from(usageSegments)
      .where(eq(usageSegments.resourceId, resourceId))
      .orderBy(usageSegments.startedAt);
    expect(
      segments.map((segment) => [
        segment.startedAt.toISOString(),
        segment.endedAt?.toISOString(),
        segment.replicas,
        segment.size,
        segment.serviceName,
        segment.environmentName,
      ]),
    ).toEqual([
      ["2031-03-10T00:00:00.000Z", "2031-03-10T03:00:00.000Z", 1, "0.5 vCPU, 1024 MB", "web", "production"],
      ["2031-03-10T03:00:00.000Z", "2031-03-10T05:00:00.000Z", 3, "0.5 vCPU, 1024 MB", "web", "production"],
      ["2031-03-10T05:00:00.000Z", "2031-03-10T08:00:00.000Z", 3, "1 vCPU, 2048 MB", "web", "production"],
    ]);
  });

  it("accrues known hours at known prices, and keeps the deleted service's cost", async () => {
    const expected = 3 * hourly(one) + 2 * hourly(three) + 3 * hourly(bigger);
    at("2031-03-11T01:30:00.000Z");
    expect(await accrueUsage(api.db, { now: clock })).toBeGreaterThan(0);
    expect((await accruedUntil(api.db))?.toISOString()).toBe("2031-03-11T01:00:00.000Z");

    const [day] = await api.db.select().from(usageDaily).where(eq(usageDaily.resourceId, resourceId));
    expect(day?.day).toBe("2031-03-10");
    expect(day?.cost).toBeCloseTo(expected, 9);
    expect(day?.hours).toBeCloseTo(8, 9);
    expect(day?.replicaHours).toBeCloseTo(3 * 1 + 2 * 3 + 3 * 3, 9);

    const response = await call(
      "GET",
      costPaths.overview(tenantId, { window: "custom", from: "2031-03-10", to: "2031-03-11" }),
    );
    expect(response.status).toBe(200);
    const overview = costOverviewSchema.parse(await response.json());
    expect(overview.total).toBe(Math.round(expected * 100) / 100);
    expect(overview.topServices).toEqual([
      expect.objectContaining({
        name: "web",
        serviceType: "application",
        environmentName: "production",
        exists: false,
      }),
    ]);
    expect(overview.daily.map((entry) => entry.date)).toEqual(["2031-03-10", "2031-03-11"]);
  });

  it("accrues each hour once: running again, or again from the start, changes nothing", async () => {
    const before = await api.db.select().from(usageDaily);
    expect(await accrueUsage(api.db, { now: clock })).toBe(0);
    expect(
      await accrueUsage(api.db, { now: clock, since: new Date("2031-03-01T00:00:00.000Z") }),
    ).toBeGreaterThan(0);
    expect(await api.db.select().from(usageDaily)).toEqual(expect.arrayContaining(before));
    expect((await api.db.select().from(usageDaily)).length).toBe(before.length);
  });

  it("rolls days and months up to the raw sum of the segments", async () => {
    // Another service running across a month's end, with a scale in the middle, at fractional hours.
    await api.db
      .insert(usageSegments)
      .values([
        segment("2031-03-30T10:20:00.000Z", "2031-04-01T07:45:00.000Z", 100),
        segment("2031-04-01T07:45:00.000Z", "2031-04-02T02:10:00.000Z", 250),
      ]);
    await accrueUsage(api.db, {
      now: new Date("2031-04-03T00:00:00.000Z"),
      since: new Date("2031-03-30T00:00:00Z"),
    });
    const [raw] = await api.db
      .execute<{ total: number }>(
        sql`
      select sum(monthly_cost / 730 * extract(epoch from (ended_at - started_at)) / 3600) as total
      from usage_segments where organization_id = ${member.organization.organizationId}`,
      )
      .then((result) => rowsOf<{ total: number }>(result));
    const [daily] = await api.db
      .select({ total: sql<number>`sum(${usageDaily.cost})`.mapWith(Number) })
      .from(usageDaily)
      .where(eq(usageDaily.organizationId, member.organization.organizationId));
    const [monthly] = await api.db
      .select({ total: sql<number>`sum(${usageMonthly.cost})`.mapWith(Number) })
      .from(usageMonthly)
      .where(eq(usageMonthly.organizationId, member.organization.organizationId));
    expect(Number(raw?.total)).toBeGreaterThan(0);
    expect(daily?.total).toBeCloseTo(Number(raw?.total), 9);
    expect(monthly?.total).toBeCloseTo(Number(raw?.total), 9);
    const [totals] = await api.db
      .select({ total: sql<number>`sum(${usageDailyTotals.cost})`.mapWith(Number) })
      .from(usageDailyTotals)
      .where(eq(usageDailyTotals.organizationId, member.organization.organizationId));
    expect(totals?.total).toBeCloseTo(Number(raw?.total), 9);
    // Each service's running total at its last day is everything it cost.
    const days = await api.db
      .select({ resourceId: usageDaily.resourceId, cumulative: usageDaily.cumulativeCost })
      .from(usageDaily)
      .where(eq(usageDaily.organizationId, member.organization.organizationId))
      .orderBy(usageDaily.day);
    const finals = new Map(days.map((row) => [row.resourceId, row.cumulative]));
    expect([...finals.values()].reduce((sum, value) => sum + value, 0)).toBeCloseTo(Number(raw?.total), 9);
    const months = await api.db
      .select({ month: usageMonthly.month })
      .from(usageMonthly)
      .where(eq(usageMonthly.organizationId, member.organization.organizationId));
    expect(new Set(months.map((row) => row.month))).toEqual(new Set(["2031-03-01", "2031-04-01"]));
  });

  function segment(startedAt: string, endedAt: string, monthlyCost: number) {
    return {
      organizationId: member.organization.organizationId,
      environmentId,
      environmentName: "production",
      resourceId: "6f1c2a52-3b7e-4c55-9d0a-5c6b8e9f0a11",
      serviceName: "orders-db",
      serviceType: "database",
      cloudProvider: "AWS",
      region: "us-east-1",
      cloudAccount: "simulated",
      size: "db.t4g.micro",
      replicas: 1,
      monthlyCost,
      startedAt: new Date(startedAt),
      endedAt: new Date(endedAt),
    };
  }
});

/** Rows of a raw query, from either driver (PGlite answers { rows }, node-postgres too). */
function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
