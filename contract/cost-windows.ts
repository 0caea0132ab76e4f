// The cost pages' windows and their words, free of zod: every cost page shows them, and its schemas (cost.ts) stay
// off the pages that validate no form (decision 064).

export const costWindows = ["7d", "30d", "90d", "mtd", "last-month", "custom"] as const;
export type CostWindow = (typeof costWindows)[number];
export const costWindowLabels: Record<CostWindow, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  mtd: "Month to date",
  "last-month": "Last month",
  custom: "Custom range",
};

/** SPEC §5: date pickers allow 1900-01-01 to 2099-12-31. */
export const COST_DATE_MIN = "1900-01-01";
export const COST_DATE_MAX = "2099-12-31";
