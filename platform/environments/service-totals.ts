import { count, inArray, sum } from "drizzle-orm";
import type { Stage } from "#contract/stages";
import type { Database } from "../db/index";
import { resources } from "../db/schema";

export type ServiceTotals = { count: number; monthlyCostCents: number; stages: Set<Stage> };
export const noServices: ServiceTotals = { count: 0, monthlyCostCents: 0, stages: new Set() };

/**
 * How many services each environment has, what they cost a month together and which stages they are in (the
 * environment's own stage follows from them), by environment id.
 */
export async function serviceTotalsOf(
  db: Database,
  environmentIds: string[],
): Promise<Map<string, ServiceTotals>> {
  if (!environmentIds.length) return new Map();
  const rows = await db
    .select({
      environmentId: resources.environmentId,
      stage: resources.stage,
      count: count(),
      monthlyCostCents: sum(resources.monthlyCost).mapWith(Number),
    })
    .from(resources)
    .where(inArray(resources.environmentId, environmentIds))
    .groupBy(resources.environmentId, resources.stage);
  const totals = new Map<string, ServiceTotals>();
  for (const row of rows) {
    const environment = totals.get(row.environmentId) ?? { count: 0, monthlyCostCents: 0, stages: new Set() };
    environment.count += row.count;
    environment.monthlyCostCents += row.monthlyCostCents || 0;
    environment.stages.add(row.stage as Stage);
    totals.set(row.environmentId, environment);
  }
  return totals;
}
