import { and, between, desc, eq, inArray, min, sql, sum, type SQL } from "drizzle-orm";
import type { CloudProvider } from "#contract/cloud-providers";
import { costWindowLabels } from "#contract/cost-windows";
import {
  FORECAST_METHOD,
  type CloudCost,
  type CostDay,
  type CostOverview,
  type CostShare,
  type CostWindowRange,
  type PreviewCost,
  type costQuerySchema,
} from "#contract/cost";
import { serviceTypeLabels, type ServiceType } from "#contract/service-catalogue";
import type * as z from "zod";
import type { Database } from "../db/index";
import {
  connections,
  environments,
  organizations,
  previews,
  resources,
  usageDaily,
  usageDailyTotals,
  usageMonthly,
} from "../db/schema";
import { accruedUntil, DAY_MS, floorToDay, floorToHour, monthStartOf } from "./accrual";
import { forecastMonthEnd } from "./forecast";
import { SIMULATED_CLOUD_ACCOUNT } from "./usage";

/**
 * The cost queries (issue 16, decision 035). They read the daily and monthly rollups only, never the segments:
 * one row per service and day, so a year of 1,000 services answers within the bench's 200 ms.
 */

export type CostQueryInput = z.output<typeof costQuerySchema>;
/** The organization, and optionally one of its environments. */
export type CostScope = { organizationId: string; environmentId?: string | null };

export const roundCents = (value: number) => Math.round(value * 100) / 100;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);
const dayAfter = (day: string, days: number) =>
  isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
const previousMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1));

/** The days a window shows, inclusive, with `now`'s day as today (UTC). */
export function windowRange(query: CostQueryInput, now: Date): CostWindowRange {
  const today = isoDay(now);
  const label = costWindowLabels[query.window];
  switch (query.window) {
    case "7d":
      return { window: query.window, label, from: dayAfter(today, -6), to: today };
    case "30d":
      return { window: query.window, label, from: dayAfter(today, -29), to: today };
    case "90d":
      return { window: query.window, label, from: dayAfter(today, -89), to: today };
    case "mtd":
      return { window: query.window, label, from: isoDay(monthStartOf(now)), to: today };
    case "last-month": {
      const start = previousMonthStart(now);
      return {
        window: query.window,
        label,
        from: isoDay(start),
        to: dayAfter(isoDay(monthStartOf(now)), -1),
      };
    }
    case "custom":
      return { window: query.window, label, from: query.from ?? today, to: query.to ?? today };
  }
}

function daysOf(range: Pick<CostWindowRange, "from" | "to">): string[] {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = dayAfter(day, 1)) days.push(day);
  return days;
}

function inScope(scope: CostScope, ...conditions: (SQL | undefined)[]) {
  return and(
    eq(usageDaily.organizationId, scope.organizationId),
    scope.environmentId ? eq(usageDaily.environmentId, scope.environmentId) : undefined,
    ...conditions,
  );
}

const costSum = sum(usageDaily.cost).mapWith(Number);

/** Shares, most expensive first. */
function sharesOf(totals: Map<string, { label: string; cost: number }>): CostShare[] {
  return [...totals]
    .map(([key, { label, cost }]) => ({ key, label, cost: roundCents(cost) }))
    .sort((a, b) => b.cost - a.cost || a.label.localeCompare(b.label));
}

function add(totals: Map<string, { label: string; cost: number }>, key: string, label: string, cost: number) {
  const entry = totals.get(key) ?? { label, cost: 0 };
  entry.cost += cost;
  totals.set(key, entry);
}

/** Month to date, last month and the month's end forecast of the scope, as accrued up to `until`. */
export async function monthFigures(db: Database, scope: CostScope, until: Date) {
  const thisMonth = isoDay(monthStartOf(until));
  const lastMonth = isoDay(previousMonthStart(until));
  const today = isoDay(floorToDay(until));
  const weekAgo = dayAfter(today, -7);
  const [months] = await db
    .select({
      thisMonth:
        sql<number>`coalesce(sum(${usageMonthly.cost}) filter (where ${usageMonthly.month} = ${thisMonth}), 0)`.mapWith(
          Number,
        ),
      lastMonth:
        sql<number>`coalesce(sum(${usageMonthly.cost}) filter (where ${usageMonthly.month} = ${lastMonth}), 0)`.mapWith(
          Number,
        ),
    })
    .from(usageMonthly)
    .where(
      and(
        eq(usageMonthly.organizationId, scope.organizationId),
        scope.environmentId ? eq(usageMonthly.environmentId, scope.environmentId) : undefined,
        inArray(usageMonthly.month, [thisMonth, lastMonth]),
      ),
    );
  const inTotalsScope = (...conditions: SQL[]) =>
    and(
      eq(usageDailyTotals.organizationId, scope.organizationId),
      scope.environmentId ? eq(usageDailyTotals.environmentId, scope.environmentId) : undefined,
      ...conditions,
    );
  const [days] = await db
    .select({
      lastFullDays:
        sql<number>`coalesce(sum(${usageDailyTotals.cost}) filter (where ${usageDailyTotals.day} < ${today}), 0)`.mapWith(
          Number,
        ),
      today:
        sql<number>`coalesce(sum(${usageDailyTotals.cost}) filter (where ${usageDailyTotals.day} = ${today}), 0)`.mapWith(
          Number,
        ),
    })
    .from(usageDailyTotals)
    .where(inTotalsScope(between(usageDailyTotals.day, weekAgo, today)));
  const [first] = await db
    .select({ day: min(usageDailyTotals.day) })
    .from(usageDailyTotals)
    .where(inTotalsScope());
  const firstDay = first?.day && first.day > weekAgo ? first.day : weekAgo;
  const fullDays = Math.max(0, Math.round((Date.parse(today) - Date.parse(firstDay)) / DAY_MS));
  const monthToDate = months?.thisMonth ?? 0;
  const forecast = forecastMonthEnd({
    accruedUntil: until,
    monthToDate,
    lastFullDays: days?.lastFullDays ?? 0,
    fullDays,
    today: days?.today ?? 0,
  });
  return { monthToDate, lastMonth: months?.lastMonth ?? 0, forecast };
}

/** Where usage is accrued up to: the cursor, or the last full hour before the worker's first run. */
export async function accrualPoint(db: Database, now: Date): Promise<Date> {
  return (await accruedUntil(db)) ?? floorToHour(now);
}

/** The cells of the window: cost per day, environment and service type (the chart, the tables and the CSV). */
async function windowCells(db: Database, scope: CostScope, range: CostWindowRange) {
  return db
    .select({
      day: usageDailyTotals.day,
      environmentId: usageDailyTotals.environmentId,
      environmentName: usageDailyTotals.environmentName,
      serviceType: usageDailyTotals.serviceType,
      cost: usageDailyTotals.cost,
    })
    .from(usageDailyTotals)
    .where(
      and(
        eq(usageDailyTotals.organizationId, scope.organizationId),
        scope.environmentId ? eq(usageDailyTotals.environmentId, scope.environmentId) : undefined,
        between(usageDailyTotals.day, range.from, range.to),
      ),
    );
}

/**
 * The window's most expensive services: each service's running total at the window's last day less the one before
 * its first (two index lookups a service, whatever the window's length), for the services of the months it spans.
 */
async function topServices(db: Database, scope: CostScope, range: CostWindowRange, limit: number) {
  const fromMonth = `${range.from.slice(0, 7)}-01`;
  const toMonth = `${range.to.slice(0, 7)}-01`;
  const environmentFilter = scope.environmentId ? sql`and environment_id = ${scope.environmentId}` : sql``;
  const result = await db.execute(sql`
    select resource_id as "resourceId", environment_id as "environmentId", name, service_type as "serviceType",
      environment_name as "environmentName", cost
    from (
      select m.resource_id, m.environment_id, max(m.service_name) as name, max(m.service_type) as service_type,
        max(m.environment_name) as environment_name,
        coalesce((select d.cumulative_cost from usage_daily d
            where d.resource_id = m.resource_id and d.day <= ${range.to} order by d.day desc limit 1), 0)
          - coalesce((select d.cumulative_cost from usage_daily d
            where d.resource_id = m.resource_id and d.day < ${range.from} order by d.day desc limit 1), 0) as cost
      from usage_monthly m
      where m.organization_id = ${scope.organizationId} and m.month between ${fromMonth} and ${toMonth}
        ${environmentFilter}
      group by m.resource_id, m.environment_id
    ) services
    where cost > 0
    order by cost desc, name
    limit ${limit}`);
  return rowsOf<{
    resourceId: string;
    environmentId: string;
    name: string;
    serviceType: string;
    environmentName: string;
    cost: number | string;
  }>(result).map((row) => ({ ...row, cost: Number(row.cost) }));
}

/** The rows of a raw query, from either driver (both answer `{ rows }`). */
function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

export async function costOverview(
  db: Database,
  scope: CostScope & { tenantId: string },
  query: CostQueryInput,
  now: Date,
): Promise<CostOverview> {
  const range = windowRange(query, now);
  const until = await accrualPoint(db, now);
  const cells = await windowCells(db, scope, range);
  const top = await topServices(db, scope, range, 10);
  const figures = await monthFigures(db, scope, until);
  const current = await db
    .select({ id: environments.id, name: environments.name })
    .from(environments)
    .innerJoin(organizations, eq(organizations.tenantId, environments.tenantId))
    .where(eq(organizations.id, scope.organizationId))
    .orderBy(environments.name);
  const existing = top.length
    ? new Set(
        (
          await db
            .select({ id: resources.id })
            .from(resources)
            .where(
              inArray(
                resources.id,
                top.map((row) => row.resourceId),
              ),
            )
        ).map((row) => row.id),
      )
    : new Set<string>();

  const byEnvironment = new Map<string, { label: string; cost: number }>();
  const byServiceType = new Map<string, { label: string; cost: number }>();
  const daily = new Map<string, CostDay>(
    daysOf(range).map((day) => [day, { date: day, total: 0, byEnvironment: {}, byServiceType: {} }]),
  );
  let total = 0;
  for (const cell of cells) {
    total += cell.cost;
    add(byEnvironment, cell.environmentId, cell.environmentName, cell.cost);
    add(
      byServiceType,
      cell.serviceType,
      serviceTypeLabels[cell.serviceType as ServiceType] ?? cell.serviceType,
      cell.cost,
    );
    const day = daily.get(cell.day);
    if (!day) continue;
    day.total += cell.cost;
    day.byEnvironment[cell.environmentId] = (day.byEnvironment[cell.environmentId] ?? 0) + cell.cost;
    day.byServiceType[cell.serviceType] = (day.byServiceType[cell.serviceType] ?? 0) + cell.cost;
  }
  const roundValues = (values: Record<string, number>) =>
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, roundCents(value)]));
  return {
    window: range,
    total: roundCents(total),
    monthToDate: roundCents(figures.monthToDate),
    forecast: roundCents(figures.forecast),
    forecastMethod: FORECAST_METHOD,
    lastMonth: roundCents(figures.lastMonth),
    changeFromLastMonth:
      figures.lastMonth > 0
        ? Math.round(((figures.forecast - figures.lastMonth) / figures.lastMonth) * 1000) / 10
        : null,
    accruedUntil: until.toISOString(),
    byEnvironment: sharesOf(byEnvironment),
    byServiceType: sharesOf(byServiceType),
    topServices: top.map((row) => ({
      resourceId: row.resourceId,
      name: row.name,
      serviceType: row.serviceType as ServiceType,
      environmentId: row.environmentId,
      environmentName: row.environmentName,
      cost: roundCents(row.cost),
      exists: existing.has(row.resourceId),
    })),
    daily: [...daily.values()].map((day) => ({
      ...day,
      total: roundCents(day.total),
      byEnvironment: roundValues(day.byEnvironment),
      byServiceType: roundValues(day.byServiceType),
    })),
    environments: current,
    previews: await previewCostsOf(db, scope.tenantId, sharesOf(byEnvironment), current),
  };
}

/**
 * Which of the window's environment shares are pull requests' previews: a live one by its environment's id, a
 * removed one (its environment deleted) by the name it had, the newest preview of that name.
 */
async function previewCostsOf(
  db: Database,
  tenantId: string,
  shares: CostShare[],
  current: { id: string }[],
): Promise<PreviewCost[]> {
  if (!shares.length) return [];
  const rows = await db
    .select({
      environmentId: previews.environmentId,
      environmentName: previews.environmentName,
      number: previews.number,
      title: previews.title,
      url: previews.url,
      sourceName: previews.sourceEnvironmentName,
    })
    .from(previews)
    .where(eq(previews.tenantId, tenantId))
    .orderBy(desc(previews.createdAt));
  const live = new Set(current.map((environment) => environment.id));
  return shares.flatMap((share) => {
    const preview =
      rows.find((row) => row.environmentId === share.key) ??
      (live.has(share.key)
        ? undefined
        : rows.find((row) => row.environmentId === null && row.environmentName === share.label));
    if (!preview) return [];
    const { number, title, url, sourceName } = preview;
    return [
      {
        environmentId: share.key,
        environmentName: share.label,
        number,
        title,
        url,
        sourceName,
        cost: share.cost,
      },
    ];
  });
}

/** The CSV of what the overview shows for the window: its daily cells by environment and type, then its total. */
export async function costCsv(
  db: Database,
  scope: CostScope,
  query: CostQueryInput,
  now: Date,
): Promise<string> {
  const range = windowRange(query, now);
  const cells = (await windowCells(db, scope, range)).sort(
    (a, b) =>
      a.day.localeCompare(b.day) ||
      a.environmentName.localeCompare(b.environmentName) ||
      a.serviceType.localeCompare(b.serviceType),
  );
  const total = cells.reduce((sum, cell) => sum + cell.cost, 0);
  const lines = [
    "date,environment,serviceType,cost",
    ...cells.map((cell) =>
      [cell.day, csvField(cell.environmentName), cell.serviceType, roundCents(cell.cost).toFixed(2)].join(
        ",",
      ),
    ),
    `Total,,,${roundCents(total).toFixed(2)}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** A field as CSV writes it, and defused for spreadsheets (a leading =, +, - or @ starts a formula). */
function csvField(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** What each provider's bill calls the service behind a type. */
export const providerCategories: Record<CloudProvider, Record<ServiceType, string>> = {
  AWS: {
    application: "AWS Fargate",
    database: "Amazon RDS",
    cache: "Amazon ElastiCache",
    queue: "Amazon SQS",
    "file-storage": "Amazon S3",
    "nosql-database": "Amazon DynamoDB",
    serverless: "AWS Lambda",
    kubernetes: "Amazon EKS",
    "control-plane": "Amazon EKS",
    network: "Amazon VPC",
    tls: "AWS Certificate Manager",
  },
  GCP: {
    application: "Cloud Run",
    database: "Cloud SQL",
    cache: "Memorystore",
    queue: "Pub/Sub",
    "file-storage": "Cloud Storage",
    "nosql-database": "Firestore",
    serverless: "Cloud Functions",
    kubernetes: "Google Kubernetes Engine",
    "control-plane": "Google Kubernetes Engine",
    network: "Cloud NAT",
    tls: "Certificate Manager",
  },
  AZURE: {
    application: "Container Apps",
    database: "Azure Database",
    cache: "Azure Cache for Redis",
    queue: "Service Bus",
    "file-storage": "Blob Storage",
    "nosql-database": "Cosmos DB",
    serverless: "Azure Functions",
    kubernetes: "Azure Kubernetes Service",
    "control-plane": "Azure Kubernetes Service",
    network: "Virtual Network",
    tls: "App Service Certificates",
  },
  CONTAINERS: {
    application: "Containers",
    database: "Containers",
    cache: "Containers",
    queue: "Containers",
    "file-storage": "Containers",
    "nosql-database": "Containers",
    serverless: "Containers",
    kubernetes: "Containers",
    "control-plane": "Containers",
    network: "Containers",
    tls: "Containers",
  },
};

export const SIMULATED_CLOUD_LABEL = "Simulated cloud";

export async function cloudCost(
  db: Database,
  scope: CostScope,
  query: CostQueryInput,
  now: Date,
): Promise<CloudCost> {
  const range = windowRange(query, now);
  const cells = await db
    .select({
      cloudAccount: usageDaily.cloudAccount,
      cloudProvider: usageDaily.cloudProvider,
      region: usageDaily.region,
      serviceType: usageDaily.serviceType,
      cost: costSum,
    })
    .from(usageDaily)
    .where(inScope(scope, between(usageDaily.day, range.from, range.to)))
    .groupBy(usageDaily.cloudAccount, usageDaily.cloudProvider, usageDaily.region, usageDaily.serviceType);
  const accountIds = [...new Set(cells.map((cell) => cell.cloudAccount))].filter(
    (account) => account !== SIMULATED_CLOUD_ACCOUNT,
  );
  const names = new Map(
    accountIds.length
      ? (
          await db
            .select({ id: connections.id, name: connections.name })
            .from(connections)
            .where(
              and(eq(connections.organizationId, scope.organizationId), inArray(connections.id, accountIds)),
            )
        ).map((row) => [row.id, row.name])
      : [],
  );
  const accountLabel = (account: string) =>
    account === SIMULATED_CLOUD_ACCOUNT
      ? SIMULATED_CLOUD_LABEL
      : (names.get(account) ?? "Removed connection");
  const rows = new Map<string, CloudCost["rows"][number]>();
  const byAccount = new Map<string, { label: string; cost: number }>();
  const byRegion = new Map<string, { label: string; cost: number }>();
  const byCategory = new Map<string, { label: string; cost: number }>();
  let total = 0;
  for (const cell of cells) {
    const provider = cell.cloudProvider as CloudProvider;
    const category = providerCategories[provider]?.[cell.serviceType as ServiceType] ?? cell.serviceType;
    const label = accountLabel(cell.cloudAccount);
    total += cell.cost;
    add(byAccount, cell.cloudAccount, label, cell.cost);
    add(byRegion, `${provider}:${cell.region}`, `${cell.region} (${provider})`, cell.cost);
    add(byCategory, category, category, cell.cost);
    const key = [cell.cloudAccount, provider, cell.region, category].join("|");
    const row = rows.get(key) ?? {
      cloudAccount: cell.cloudAccount,
      cloudAccountLabel: label,
      cloudProvider: provider,
      region: cell.region,
      category,
      cost: 0,
    };
    row.cost += cell.cost;
    rows.set(key, row);
  }
  return {
    window: range,
    total: roundCents(total),
    byAccount: sharesOf(byAccount),
    byRegion: sharesOf(byRegion),
    byCategory: sharesOf(byCategory),
    rows: [...rows.values()]
      .map((row) => ({ ...row, cost: roundCents(row.cost) }))
      .sort((a, b) => b.cost - a.cost || a.category.localeCompare(b.category)),
  };
}

/** Per-service sums of the window for the Kubernetes allocation (./kubernetes.ts). */
export async function kubernetesUsage(db: Database, scope: CostScope, range: CostWindowRange) {
  return db
    .select({
      resourceId: usageDaily.resourceId,
      environmentId: usageDaily.environmentId,
      environmentName: sql<string>`max(${usageDaily.environmentName})`,
      name: sql<string>`max(${usageDaily.serviceName})`,
      serviceType: sql<string>`max(${usageDaily.serviceType})`,
      region: sql<string>`max(${usageDaily.region})`,
      cost: costSum,
      hours: sum(usageDaily.hours).mapWith(Number),
      replicaHours: sum(usageDaily.replicaHours).mapWith(Number),
      cpuHours: sum(usageDaily.cpuHours).mapWith(Number),
      memoryGbHours: sum(usageDaily.memoryGbHours).mapWith(Number),
      cpuUsedHours: sum(usageDaily.cpuUsedHours).mapWith(Number),
      memoryUsedGbHours: sum(usageDaily.memoryUsedGbHours).mapWith(Number),
    })
    .from(usageDaily)
    .where(
      inScope(
        scope,
        between(usageDaily.day, range.from, range.to),
        inArray(usageDaily.serviceType, ["kubernetes", "control-plane", "application"]),
      ),
    )
    .groupBy(usageDaily.resourceId, usageDaily.environmentId);
}

export type KubernetesUsageRow = Awaited<ReturnType<typeof kubernetesUsage>>[number];
