import * as z from "zod";
import {
  budgetListSchema,
  budgetResponseSchema,
  cloudCostSchema,
  costOverviewSchema,
  costPaths,
  kubernetesCostSchema,
  type BudgetRequest,
  type CostQuery,
} from "#contract/cost";
import type { PlatformClient } from "./client.server";

const noContentSchema = z.unknown();

export function getCostOverview(api: PlatformClient, tenantId: string, query: CostQuery) {
  return api.get(costPaths.overview(tenantId, query), costOverviewSchema);
}

export function getCloudCost(api: PlatformClient, tenantId: string, query: CostQuery) {
  return api.get(costPaths.cloud(tenantId, query), cloudCostSchema);
}

export function getKubernetesCost(api: PlatformClient, tenantId: string, query: CostQuery) {
  return api.get(costPaths.kubernetes(tenantId, query), kubernetesCostSchema);
}

/** The overview's daily rows and total as the platform's CSV (text). */
export function exportCost(api: PlatformClient, tenantId: string, query: CostQuery) {
  return api.get(costPaths.export(tenantId, query), z.string());
}

export function listBudgets(api: PlatformClient, tenantId: string) {
  return api.get(costPaths.budgets(tenantId), budgetListSchema);
}

export function createBudget(api: PlatformClient, tenantId: string, budget: BudgetRequest) {
  return api.post(costPaths.budgets(tenantId), budgetResponseSchema, budget);
}

export function updateBudget(api: PlatformClient, tenantId: string, budgetId: string, amount: number) {
  return api.put(costPaths.budget(tenantId, budgetId), budgetResponseSchema, { amount });
}

export async function deleteBudget(api: PlatformClient, tenantId: string, budgetId: string) {
  await api.delete(costPaths.budget(tenantId, budgetId), noContentSchema);
}
