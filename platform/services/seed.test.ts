import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureRoles } from "../db/roles";
import { seedDemoData } from "../seed/demo-data";
import { environments, resourceHistory, resourceLogs, resources, usageDaily } from "../db/schema";
import { openTestDb } from "../testing/db";
import { ephemeralSecretCipher } from "../lib/cipher";

let database: Awaited<ReturnType<typeof openTestDb>>;
beforeAll(async () => {
  database = await openTestDb();
});
afterAll(() => database.close());

it("seeds Acme's production environment with deployed services", async () => {
  const secrets = ephemeralSecretCipher();
  await ensureRoles(database.db);
  expect(await seedDemoData(database.db, { secrets })).toBe(true);
  const [production] = await database.db
    .select()
    .from(environments)
    .where(eq(environments.name, "production"));
  if (!production) throw new Error("no production environment");
  const services = await database.db
    .select()
    .from(resources)
    .where(eq(resources.environmentId, production.id));
  expect(services.map((service) => [service.serviceType, service.name]).sort()).toEqual([
    ["application", "api"],
    ["application", "web"],
    ["cache", "session-cache"],
    ["database", "orders-db"],
    ["kubernetes", "main-cluster"],
    ["network", "main-vpc"],
    ["queue", "jobs-queue"],
  ]);
  for (const service of services) {
    expect(service.stage).toBe("STAGE_COMPLETED");
    expect(service.deployedAt).not.toBeNull();
    expect(service.pods.every((pod) => pod.status === "Running")).toBe(true);
    const history = await database.db
      .select()
      .from(resourceHistory)
      .where(eq(resourceHistory.resourceId, service.id));
    expect(history.map((entry) => [entry.action, entry.outcome])).toEqual([["Create", "STAGE_COMPLETED"]]);
    const logs = await database.db
      .select({ id: resourceLogs.id })
      .from(resourceLogs)
      .where(eq(resourceLogs.resourceId, service.id));
    expect(logs.length).toBeGreaterThan(0);
  }
  const database_ = services.find((service) => service.serviceType === "database");
  expect(database_?.sealedAttributes).toBeTruthy();
  expect(database_?.monthlyCost).toBeGreaterThan(0);
});

it("backfills 90 days of Acme's usage: weekday peaks, a scale-up and deleted services", async () => {
  const daily = await database.db
    .select()
    .from(usageDaily)
    .where(eq(usageDaily.organizationId, "org_acme"))
    .orderBy(usageDaily.day);
  const days = [...new Set(daily.map((row) => row.day))];
  expect(days.length).toBe(91);
  const names = new Set(daily.map((row) => row.serviceName));
  expect(names).toContain("main-cluster");
  // Deleted services keep their cost, in their environments.
  expect(daily.filter((row) => row.serviceName === "reports-db").length).toBeGreaterThan(50);
  expect(daily.find((row) => row.serviceName === "preview-db")?.environmentName).toBe("staging");
  const api = daily.filter((row) => row.serviceName === "api");
  const weekday = (day: string) => [1, 2, 3, 4, 5].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
  const full = api.slice(1, -1);
  const recent = full.slice(-14);
  const recentWeekday = recent.find((row) => weekday(row.day));
  const recentWeekend = recent.find((row) => !weekday(row.day));
  expect(recentWeekday?.cost).toBeGreaterThan(recentWeekend?.cost ?? Infinity);
  // Before the scale-up a weekend day cost half of one after it.
  const earlyWeekend = full.slice(0, 14).find((row) => !weekday(row.day));
  expect(earlyWeekend?.cost).toBeCloseTo((recentWeekend?.cost ?? 0) / 2, 6);
});
