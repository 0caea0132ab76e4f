import * as z from "zod";
import { COST_DATE_MAX, COST_DATE_MIN, costWindows } from "./cost-windows";
import { serviceTypes } from "./service-catalogue";

/**
 * What the organization spends (issue 16, decision 035): usage accrued hour by hour from what the engine ran,
 * rolled up per day. Every amount is in US dollars, rounded to cents; days and months are UTC.
 */

// ---------------------------------------------------------------------------------------------------------------
// Windows

const isoDate = (label: string) =>
  z
    .string({ error: `${label} is a required field` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && validDay(value), {
      message: `${label} must be a date (YYYY-MM-DD)`,
    })
    .refine((value) => value >= COST_DATE_MIN && value <= COST_DATE_MAX, {
      message: `${label} must be between ${COST_DATE_MIN} and ${COST_DATE_MAX}`,
    });

function validDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return date.toISOString().slice(0, 10) === value;
}

/** The query every cost page takes: a window (custom needs from and to, inclusive days) and an environment. */
export const costQuerySchema = z
  .object({
    window: z.enum(costWindows, { error: "Choose a window from the list" }).default("30d"),
    from: isoDate("From").optional(),
    to: isoDate("To").optional(),
    environmentId: z.guid("environmentId must be the id of an environment").optional(),
  })
  .superRefine((query, context) => {
    if (query.window !== "custom") return;
    if (!query.from)
      context.addIssue({ code: "custom", path: ["from"], message: "From is a required field" });
    if (!query.to) context.addIssue({ code: "custom", path: ["to"], message: "To is a required field" });
    if (query.from && query.to && query.from > query.to) {
      context.addIssue({ code: "custom", path: ["to"], message: "To must be on or after From" });
    }
  });
export type CostQuery = z.input<typeof costQuerySchema>;

// ---------------------------------------------------------------------------------------------------------------
// Responses

const money = z.number();

export const costWindowSchema = z.object({
  window: z.enum(costWindows),
  label: z.string(),
  /** First and last day shown, inclusive (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
});
export type CostWindowRange = z.infer<typeof costWindowSchema>;

export const costShareSchema = z.object({ key: z.string(), label: z.string(), cost: money });
export type CostShare = z.infer<typeof costShareSchema>;

export const topServiceSchema = z.object({
  resourceId: z.string(),
  name: z.string(),
  serviceType: z.enum(serviceTypes),
  environmentId: z.string(),
  environmentName: z.string(),
  cost: money,
  /** False once the service was deleted: its cost stays in the history. */
  exists: z.boolean(),
});

/** One day of the stacked chart: its total and the same total split by environment and by service type. */
export const costDaySchema = z.object({
  date: z.string(),
  total: money,
  byEnvironment: z.record(z.string(), money),
  byServiceType: z.record(z.string(), money),
});
export type CostDay = z.infer<typeof costDaySchema>;

/** How the month's end is forecast, in words the page shows as its help. */
export const FORECAST_METHOD =
  "Month to date plus the average daily cost of the last 7 full days times the days left in the month.";

/**
 * A pull request's preview environment (decision 069) and what it cost in the window: live ones by their
 * environment, removed ones by the name they had.
 */
export const previewCostSchema = z.object({
  environmentId: z.string(),
  environmentName: z.string(),
  number: z.number().int(),
  title: z.string(),
  url: z.string(),
  /** The environment it previews (its name, kept after that environment is deleted). */
  sourceName: z.string(),
  cost: money,
});
export type PreviewCost = z.infer<typeof previewCostSchema>;

export const costOverviewSchema = z.object({
  window: costWindowSchema,
  /** Everything in the window. */
  total: money,
  monthToDate: money,
  forecast: money,
  forecastMethod: z.string(),
  lastMonth: money,
  /** Forecast against last month, in percent; null when last month cost nothing. */
  changeFromLastMonth: z.number().nullable(),
  /** Usage is accrued up to here (the last full hour). */
  accruedUntil: z.string(),
  byEnvironment: z.array(costShareSchema),
  byServiceType: z.array(costShareSchema),
  topServices: z.array(topServiceSchema),
  /** Every day of the window, oldest first, zero-filled. */
  daily: z.array(costDaySchema),
  environments: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The window's environments that are (or were) previews of pull requests, costliest first. */
  previews: z.array(previewCostSchema),
});
export type CostOverview = z.infer<typeof costOverviewSchema>;

/** Provider service category of a service type (what the provider's bill calls it). */
export const cloudCostRowSchema = z.object({
  cloudAccount: z.string(),
  /** The connection's name, or "Simulated cloud". */
  cloudAccountLabel: z.string(),
  cloudProvider: z.string(),
  region: z.string(),
  category: z.string(),
  cost: money,
});
export const cloudCostSchema = z.object({
  window: costWindowSchema,
  total: money,
  byAccount: z.array(costShareSchema),
  byRegion: z.array(costShareSchema),
  byCategory: z.array(costShareSchema),
  /** The finest grain: account × region × category, most expensive first. */
  rows: z.array(cloudCostRowSchema),
});
export type CloudCost = z.infer<typeof cloudCostSchema>;

const allocationSchema = z.object({
  /** vCPU and GB of memory requested (average over the window) and typically used. */
  cpuRequested: z.number(),
  memoryGbRequested: z.number(),
  cpuUsed: z.number(),
  memoryGbUsed: z.number(),
  requestedCost: money,
  usedCost: money,
  /** Used cost over requested cost, in percent. */
  efficiency: z.number(),
});
export const kubernetesWorkloadSchema = allocationSchema.extend({
  name: z.string(),
  kind: z.enum(["Deployment", "DaemonSet"]),
  /** Average replicas over the window. */
  replicas: z.number(),
  /** The application behind it, when there is one. */
  resourceId: z.string().nullable(),
});
export const kubernetesNamespaceSchema = allocationSchema.extend({
  name: z.string(),
  workloads: z.array(kubernetesWorkloadSchema),
});
export const kubernetesClusterSchema = z.object({
  resourceId: z.string(),
  name: z.string(),
  serviceType: z.enum(["kubernetes", "control-plane"]),
  environmentId: z.string(),
  environmentName: z.string(),
  region: z.string(),
  /** Everything the cluster cost in the window. */
  cost: money,
  /** Capacity (average over the window). */
  cpuCapacity: z.number(),
  memoryGbCapacity: z.number(),
  requestedCost: money,
  usedCost: money,
  /** Capacity not requested by any workload. */
  idleCost: money,
  /** Used cost over the cluster's cost, in percent. */
  efficiency: z.number(),
  namespaces: z.array(kubernetesNamespaceSchema),
});
export type KubernetesCluster = z.infer<typeof kubernetesClusterSchema>;
export const kubernetesCostSchema = z.object({
  window: costWindowSchema,
  total: money,
  idleCost: money,
  clusters: z.array(kubernetesClusterSchema),
});
export type KubernetesCost = z.infer<typeof kubernetesCostSchema>;

/** The CSV export's header: the daily rows of the window by environment and service type, then a Total row. */
export const costCsvColumns = ["date", "environment", "serviceType", "cost"] as const;

// ---------------------------------------------------------------------------------------------------------------
// Budgets

export const BUDGET_THRESHOLDS = [80, 100] as const;
export const budgetAlertKinds = ["actual", "forecast"] as const;
export type BudgetAlertKind = (typeof budgetAlertKinds)[number];
export const MAX_BUDGET_AMOUNT = 100_000_000;

export const budgetRequestSchema = z.object({
  /** Null or absent: the whole organization. */
  environmentId: z.guid("environmentId must be the id of an environment").nullable().default(null),
  amount: z
    .number({ error: "Amount is a required field" })
    .positive("Amount must be a positive number")
    .max(MAX_BUDGET_AMOUNT, `Amount must be at most ${MAX_BUDGET_AMOUNT}`)
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      message: "Amount must be in whole cents",
    }),
});
export const budgetUpdateSchema = budgetRequestSchema.pick({ amount: true });
export type BudgetRequest = z.input<typeof budgetRequestSchema>;

export const budgetAlertSchema = z.object({
  id: z.string(),
  budgetId: z.string(),
  environmentId: z.string().nullable(),
  environmentName: z.string().nullable(),
  month: z.string(),
  kind: z.enum(budgetAlertKinds),
  threshold: z.number().int(),
  value: money,
  budgetAmount: money,
  at: z.string(),
});
export type BudgetAlert = z.infer<typeof budgetAlertSchema>;

export const budgetSchema = z.object({
  id: z.string(),
  environmentId: z.string().nullable(),
  /** Null for the organization's budget. */
  environmentName: z.string().nullable(),
  amount: money,
  /** This month's spend and forecast in the budget's scope, and their share of it in percent. */
  monthToDate: money,
  forecast: money,
  spentPercent: z.number(),
  forecastPercent: z.number(),
  createdAt: z.string(),
});
export type Budget = z.infer<typeof budgetSchema>;

export const budgetListSchema = z.object({
  budgets: z.array(budgetSchema),
  /** Alerts of every budget, newest first (the last 100). */
  alerts: z.array(budgetAlertSchema),
});
export type BudgetList = z.infer<typeof budgetListSchema>;
export const budgetResponseSchema = z.object({ budget: budgetSchema });

// ---------------------------------------------------------------------------------------------------------------
// Paths

const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;

function withQuery(path: string, query: CostQuery | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const costPaths = {
  /** GET: costOverviewSchema; 400 with field errors for a bad window. */
  overview: (tenantId: string, query?: CostQuery) => withQuery(`${organization(tenantId)}/cost`, query),
  /** GET: cloudCostSchema. */
  cloud: (tenantId: string, query?: CostQuery) => withQuery(`${organization(tenantId)}/cost/cloud`, query),
  /** GET: kubernetesCostSchema. */
  kubernetes: (tenantId: string, query?: CostQuery) =>
    withQuery(`${organization(tenantId)}/cost/kubernetes`, query),
  /** GET: text/csv with costCsvColumns, the overview's daily rows and its total. */
  export: (tenantId: string, query?: CostQuery) => withQuery(`${organization(tenantId)}/cost/export`, query),
  /** GET: budgetListSchema; POST budgetRequestSchema: 201 budgetResponseSchema (409 when the scope has one). */
  budgets: (tenantId: string) => `${organization(tenantId)}/cost/budgets`,
  /** PUT budgetRequestSchema's amount: budgetResponseSchema; DELETE: 204. */
  budget: (tenantId: string, budgetId: string) =>
    `${organization(tenantId)}/cost/budgets/${encodeURIComponent(budgetId)}`,
};
