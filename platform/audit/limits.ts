/**
 * How much of what a caller sent an audit row keeps. A refused request is recorded whatever its body held, so
 * without limits one call could write a megabyte into the log; with them a row stays a few kilobytes.
 */
export const AUDIT_LIMITS = {
  /** Characters of one string (a name, a field name, a target). */
  text: 256,
  /** Items of one list, and fields of one object. */
  items: 50,
  /** Levels of nesting below the summary itself. */
  depth: 4,
  /** Characters of the whole summary as JSON. */
  summary: 8192,
} as const;

/** What a cut value says in place of what was left out. */
export const cutMarker = (what: string) => `[cut: ${what}]`;

/** The string well-formed and at most AUDIT_LIMITS.text characters, saying how long it was when cut. */
export function boundedText(value: string): string {
  const text = value.toWellFormed();
  return text.length > AUDIT_LIMITS.text
    ? `${text.slice(0, AUDIT_LIMITS.text)}…${cutMarker(`${text.length} characters`)}`
    : text;
}

/**
 * The summary as the log stores it: strings and keys well-formed and cut, lists and objects cut to their first
 * items, nesting cut below AUDIT_LIMITS.depth, and fields past AUDIT_LIMITS.summary characters left out, each cut
 * saying what it left out.
 */
export function boundedSummary(summary: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!summary) return null;
  const bounded = boundedValue(summary, 0) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  let length = 2;
  const entries = Object.entries(bounded);
  for (const [index, [key, value]] of entries.entries()) {
    length += JSON.stringify(key).length + JSON.stringify(value).length + 2;
    if (length > AUDIT_LIMITS.summary) {
      kept["…"] = cutMarker(`${entries.length - index} more fields, the summary is too long`);
      break;
    }
    kept[key] = value;
  }
  return kept;
}

function boundedValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return boundedText(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth > AUDIT_LIMITS.depth) return cutMarker("nested too deep");
  if (Array.isArray(value)) {
    const items = value.slice(0, AUDIT_LIMITS.items).map((item) => boundedValue(item, depth + 1));
    const left = value.length - items.length;
    return left > 0 ? [...items, cutMarker(`${left} more items`)] : items;
  }
  const entries = Object.entries(value);
  const kept = Object.fromEntries(
    entries
      .slice(0, AUDIT_LIMITS.items)
      .map(([key, item]) => [boundedText(key), boundedValue(item, depth + 1)]),
  );
  const left = entries.length - AUDIT_LIMITS.items;
  return left > 0 ? { ...kept, "…": cutMarker(`${left} more fields`) } : kept;
}
