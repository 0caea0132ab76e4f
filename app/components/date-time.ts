/**
 * The one way the app writes a date or a time: in UTC and saying so, the same on every page, and the same on the
 * server and in the browser (a page rendered in one zone and hydrated in another would otherwise differ). Everyone
 * in an organization reads the same moment the same way, as the API, the logs and the date pickers give it.
 */

const TIME_ZONE = "UTC";

const parse = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "2025-01-31T08:30:12Z" → "2025-01-31 08:30 UTC"; "—" for none; a value that is no date as it is. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = parse(iso);
  return date ? `${date.toISOString().slice(0, 16).replace("T", " ")} ${TIME_ZONE}` : iso;
}

/** "2025-01-31T08:30:12Z" → "2025-01-31" (the day in UTC). */
export function formatDate(iso: string): string {
  return parse(iso)?.toISOString().slice(0, 10) ?? iso;
}

const month = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: TIME_ZONE });

/** "2026-11-27T10:00:00Z" → "November 2026" (the month in UTC). */
export function formatMonth(iso: string): string {
  const date = parse(iso);
  return date ? month.format(date) : iso;
}
