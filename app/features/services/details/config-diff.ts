import type { ConfigDiff } from "#contract/services";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What differs between two configurations (or settings), one entry per changed leaf: objects are compared key by
 * key (`scaling.maxInstances`), arrays and values as a whole. Entries follow the keys' order, `before`'s first.
 */
export function diffValues(before: unknown, after: unknown, path = ""): ConfigDiff {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => diffValues(before[key], after[key], path ? `${path}.${key}` : key));
  }
  if (sameValue(before, after)) return [];
  const entry: ConfigDiff[number] = { path: path || "(value)" };
  if (before !== undefined) entry.before = before;
  if (after !== undefined) entry.after = after;
  return [entry];
}

/** A value as one line of text: "—" for nothing, lists joined, objects in short JSON. */
export function formatDiffValue(value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    return value.every((item) => typeof item !== "object" || item === null)
      ? value.map(String).join(", ")
      : value.map((item) => formatDiffValue(item)).join("; ");
  }
  if (isPlainObject(value)) {
    return Object.entries(value)
      .map(([key, inner]) => `${key}=${formatDiffValue(inner)}`)
      .join(", ");
  }
  return JSON.stringify(value);
}

/** One row of a diff as the page shows it: `path: before → after`. */
export type DiffRow = { path: string; before: string; after: string };

export function diffRows(diff: ConfigDiff): DiffRow[] {
  return diff.map((entry) => ({
    path: entry.path,
    before: formatDiffValue(entry.before),
    after: formatDiffValue(entry.after),
  }));
}
