import type { CostWindow } from "#contract/cost-windows";

/** The window form's values as the page shows them again (strings, as they came in the query). */
export type CostSearchValues = { window: CostWindow; from: string; to: string; environmentId: string };

/** The query every cost page sends the platform (custom range only with its days). */
export type CostSearchQuery = { window: CostWindow; from?: string; to?: string; environmentId?: string };

export type CostSearch =
  | { kind: "query"; query: CostSearchQuery; values: CostSearchValues }
  | { kind: "invalid"; fieldErrors: Record<string, string[]>; values: CostSearchValues };

/** The query string that keeps `values` (for the tabs, the drill-down links and the CSV export). */
export function costSearchString(values: CostSearchValues, changes: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  const merged: Record<string, string> = { ...values, ...changes };
  for (const [name, value] of Object.entries(merged)) {
    if (!value) continue;
    if ((name === "from" || name === "to") && merged.window !== "custom") continue;
    params.set(name, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Where the cost pages live. */
export const costPagePaths = {
  overview: "/cost",
  cloud: "/cost/cloud",
  kubernetes: "/cost/kubernetes",
  budgets: "/cost/budgets",
  export: "/cost/export",
};
