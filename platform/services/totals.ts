import { count, inArray, sum } from "drizzle-orm";
import type { Database } from "../db/index";
import { resources } from "../db/schema";

export type ServiceTotals = { count: number; monthlyCostCents: number };
export const noServices: ServiceTotals = { count: 0, monthlyCostCents: 0 };

/** How many services each environment has and what they cost a month together, by environment id. */
export async function serviceTotalsOf(
  db: Database,
  environmentIds: string[],
): Promise<Map<string, ServiceTotals>> {
  if (!environmentIds.length) return new Map();
  const rows = await db
    .select({
      environmentId: resources.environmentId,
      count: count(),
      monthlyCostCents: sum(resources.monthlyCost).mapWith(Number),
    })
    .from(resources)
    .where(inArray(resources.environmentId, environmentIds))
    .groupBy(resources.environmentId);
  return new Map(
    rows.map((row) => [row.environmentId, { count: row.count, monthlyCostCents: row.monthlyCostCents || 0 }]),
  );
}
