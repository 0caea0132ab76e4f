import { costQuerySchema, costWindows, type CostWindow } from "#contract/cost";

/** The window form's values as the page shows them again (strings, as they came in the query). */
export type CostSearchValues = { window: CostWindow; from: string; to: string; environmentId: string };

/** The query every cost page sends the platform (custom range only with its days). */
export type CostSearchQuery = { window: CostWindow; from?: string; to?: string; environmentId?: string };

export type CostSearch =
  | { kind: "query"; query: CostSearchQuery; values: CostSearchValues }
  | { kind: "invalid"; fieldErrors: Record<string, string[]>; values: CostSearchValues };

const DEFAULT_WINDOW: CostWindow = "30d";

/**
 * The cost pages' query from the address: a window (30 days unless told), the custom range's days and an
 * environment, checked with the contract's schema; bad values become field errors keyed like the form's fields.
 */
export function buildCostSearch(search: URLSearchParams): CostSearch {
  const window = search.get("window") ?? "";
  const values: CostSearchValues = {
    window: (costWindows as readonly string[]).includes(window) ? (window as CostWindow) : DEFAULT_WINDOW,
    from: search.get("from") ?? "",
    to: search.get("to") ?? "",
    environmentId: search.get("environmentId") ?? "",
  };
  const custom = values.window === "custom";
  const parsed = costQuerySchema.safeParse({
    window: window || undefined,
    from: custom ? values.from || undefined : undefined,
    to: custom ? values.to || undefined : undefined,
    environmentId: values.environmentId || undefined,
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      fieldErrors[String(issue.path[0] ?? "window")] ??= [issue.message];
    return { kind: "invalid", fieldErrors, values };
  }
  const { from, to, environmentId } = parsed.data;
  return {
    kind: "query",
    query: {
      window: parsed.data.window,
      ...(custom ? { from, to } : {}),
      ...(environmentId ? { environmentId } : {}),
    },
    values,
  };
}

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
