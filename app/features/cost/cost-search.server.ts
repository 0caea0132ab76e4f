// The cost pages' query read from the address with the contract's schema: on the server only, so the pages' code
// loads no zod (decision 064).
import { costQuerySchema } from "#contract/cost";
import { costWindows, type CostWindow } from "#contract/cost-windows";
import type { CostSearch, CostSearchValues } from "./cost-search";

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
