// The cost overview's query on a year of usage (issue 16): one organization with BENCH_COST_SERVICES services
// (default 1,000) running for BENCH_COST_DAYS days (default 365), applications scaling out every weekday and in
// every weekend; the usage is written as the engine writes it (segments), accrued by the accrual worker's own code
// into the daily and monthly rollups, then the overview (costOverview, the query GET cost runs) is timed for each
// window, BENCH_COST_ITERATIONS times after BENCH_COST_WARMUP, one at a time. Goal: p95 ≤ 200 ms.
//
//   node --import tsx scripts/bench/cost.ts [output.json]
//
// Runs on PGlite in a temporary data dir (as `npm start` does), or on DATABASE_URL when set (a scratch database).
import { randomUUID } from "node:crypto";
import { count } from "drizzle-orm";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type CostWindow } from "#contract/cost-windows";
import { costQuerySchema } from "#contract/cost";
import { type ServiceType } from "#contract/service-catalogue";
import { defaultServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { accrueUsage, DAY_MS, floorToDay } from "../../platform/cost/accrual";
import { costOverview } from "../../platform/cost/queries";
import { segmentOf, type NewSegment } from "../../platform/cost/usage";
import { openDb } from "../../platform/db/index";
import { environments, organizations, usageDaily, usageSegments } from "../../platform/db/schema";
import { createSimulatedDriver } from "../../platform/cloud/simulated/driver";

const SERVICES = Number(process.env.BENCH_COST_SERVICES ?? 1000);
const DAYS = Number(process.env.BENCH_COST_DAYS ?? 365);
const ITERATIONS = Number(process.env.BENCH_COST_ITERATIONS ?? 50);
const WARMUP = Number(process.env.BENCH_COST_WARMUP ?? 5);
const GOAL_P95_MS = 200;
const outputFile = process.argv[2];

const log = (message: string) => console.info(`bench cost: ${message}`);
const types: ServiceType[] = [
  "application",
  "application",
  "application",
  "database",
  "cache",
  "queue",
  "serverless",
  "file-storage",
  "nosql-database",
  "kubernetes",
];

const dataDir = process.env.DATABASE_URL ? "memory" : mkdtempSync(path.join(tmpdir(), "cost-bench-"));
const database = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir });
const { db } = database;
try {
  const startedAt = Date.now();
  const organizationId = `org_bench_${randomUUID().slice(0, 8)}`;
  const [organization] = await db
    .insert(organizations)
    .values({ id: organizationId, name: organizationId.replaceAll("_", "-"), displayName: "Cost bench" })
    .returning();
  if (!organization) throw new Error("no organization");
  const environmentRows = await db
    .insert(environments)
    .values(
      ["production", "staging", "development"].map((name) => ({ tenantId: organization.tenantId, name })),
    )
    .returning();
  const driver = createSimulatedDriver();
  const now = new Date();
  const start = new Date(floorToDay(now).getTime() - (DAYS - 1) * DAY_MS);
  const segments: NewSegment[] = [];
  for (let index = 0; index < SERVICES; index++) {
    const serviceType = types[index % types.length] ?? "application";
    const environment = environmentRows[index % environmentRows.length];
    if (!environment) throw new Error("no environment");
    const resource = {
      id: randomUUID(),
      name: `${serviceType}-${index}`,
      serviceType,
      config: defaultServiceConfigs[serviceType] as Record<string, unknown>,
      settings: defaultServiceSettings,
      environmentName: environment.name,
      cloudProvider: "AWS" as const,
      region: "us-east-1",
    };
    const context = { organizationId, environment };
    if (serviceType !== "application") {
      segments.push(segmentOf(driver, resource, context, start));
      continue;
    }
    // Two more instances from Monday to Friday, every week of the year.
    for (let day = start.getTime(); day < now.getTime(); day += DAY_MS) {
      const weekday = new Date(day).getUTCDay();
      const instances = weekday >= 1 && weekday <= 5 ? 3 : 1;
      const scaled = {
        ...resource,
        settings: {
          ...resource.settings,
          scaling: { ...resource.settings.scaling, minInstances: instances },
        },
      };
      const next = day + DAY_MS;
      segments.push({
        ...segmentOf(driver, scaled, context, new Date(day)),
        endedAt: next > now.getTime() ? null : new Date(next),
      });
    }
  }
  // Merge a week's weekday (and weekend) days into one segment each, as a real scale-out/in would write them.
  const merged: NewSegment[] = [];
  for (const segment of segments) {
    const last = merged.at(-1);
    if (last && last.resourceId === segment.resourceId && last.replicas === segment.replicas) {
      last.endedAt = segment.endedAt ?? null;
      continue;
    }
    merged.push({ ...segment });
  }
  for (let index = 0; index < merged.length; index += 2000) {
    await db.insert(usageSegments).values(merged.slice(index, index + 2000));
  }
  log(
    `${merged.length} segments of ${SERVICES} services over ${DAYS} days written in ${Date.now() - startedAt} ms`,
  );
  const accrualStartedAt = Date.now();
  await accrueUsage(db, { now, since: start });
  const [rollups] = await db.select({ rows: count() }).from(usageDaily);
  const accrualMs = Date.now() - accrualStartedAt;
  log(`accrued into ${rollups?.rows} daily rows in ${accrualMs} ms`);

  const scope = { organizationId, tenantId: organization.tenantId };
  const windows: { window: CostWindow; from?: string; to?: string }[] = [
    { window: "30d" },
    { window: "90d" },
    { window: "mtd" },
    { window: "last-month" },
    { window: "custom", from: start.toISOString().slice(0, 10), to: now.toISOString().slice(0, 10) },
  ];
  const results = [];
  for (const window of windows) {
    const query = costQuerySchema.parse(window);
    const samples: number[] = [];
    let total = 0;
    for (let round = 0; round < WARMUP + ITERATIONS; round++) {
      const began = performance.now();
      const answer = await costOverview(db, scope, query, now);
      const ms = performance.now() - began;
      if (round >= WARMUP) samples.push(ms);
      total = answer.total;
    }
    samples.sort((a, b) => a - b);
    const at = (p: number) =>
      samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)] ?? 0;
    results.push({
      window: window.window,
      days: window.window === "custom" ? DAYS : undefined,
      p50: at(50),
      p95: at(95),
      total,
    });
  }
  console.info("");
  console.info(`cost overview query, ${SERVICES} services × ${DAYS} days (${rollups?.rows} daily rows), ms:`);
  for (const result of results) {
    console.info(
      `  ${result.window.padEnd(10)} p50 ${result.p50.toFixed(1).padStart(7)}  p95 ${result.p95.toFixed(1).padStart(7)}  ` +
        `total $${result.total.toFixed(2)}${result.p95 > GOAL_P95_MS ? `  (over the ${GOAL_P95_MS} ms goal)` : ""}`,
    );
  }
  const report = {
    services: SERVICES,
    days: DAYS,
    segments: merged.length,
    dailyRows: rollups?.rows,
    accrualMs,
    goalP95Ms: GOAL_P95_MS,
    results,
    met: results.every((result) => result.p95 <= GOAL_P95_MS),
  };
  if (outputFile) writeFileSync(outputFile, `${JSON.stringify(report, null, 2)}\n`);
  if (!report.met) process.exitCode = 1;
} finally {
  await database.close();
  if (dataDir !== "memory") rmSync(dataDir, { recursive: true, force: true });
}
