/**
 * The one way the app writes a date or a time: in UTC and saying so, the same on every page, and the same on the
 * server and in the browser (a page rendered in one zone and hydrated in another would otherwise differ). Everyone
 * in an organization reads the same moment the same way, as the API, the logs and the date pickers give it.
 */

/** `value` in ISO 8601, UTC, cut to `length` characters, "T" as a space; null when it is no date. */
function utc(value: string, length: number): string | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, length).replace("T", " ");
}

/** "2025-01-31T08:30:12Z" → "2025-01-31 08:30 UTC"; "—" for none; a value that is no date as it is. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const text = utc(iso, 16);
  return text ? `${text} UTC` : iso;
}

/** "2025-01-31T08:30:12Z" → "2025-01-31" (the day in UTC). */
export function formatDate(iso: string): string {
  return utc(iso, 10) ?? iso;
}

/** "2026-11-27T10:00:00Z" → "November 2026" (the month in UTC). */
export function formatMonth(iso: string): string {
  const month = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
  return utc(iso, 10) ? month.format(new Date(iso)) : iso;
}
