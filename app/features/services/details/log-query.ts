import { logLevels } from "#contract/service-catalogue";
import { logQuerySchema, type LogLine, type LogQuery } from "#contract/services";
import { toIsoDateTime } from "~/components/utc-date-time";
import { SEARCH_LOGS_LOG_LIMIT } from "./dynamic-settings";
import { commaList } from "./view";

/** The log search form's values as the page shows them again (strings, as they came in the query). */
export type LogSearchValues = { text: string; level: string; podNames: string[]; from: string; to: string };

/** What the live tail receives each time it asks (the logs-feed route): the new lines, or why there are none. */
export type LogsFeed =
  | { kind: "lines"; logs: LogLine[]; podNames: string[] }
  | { kind: "error"; message: string };

export type LogSearch =
  | { kind: "query"; query: LogQuery; values: LogSearchValues }
  | { kind: "invalid"; fieldErrors: Record<string, string[]>; values: LogSearchValues };

const fieldLabels: Record<string, string> = { from: "Start", to: "End", text: "Text", level: "Level" };

/**
 * The SEARCH query of the logs tab from the page's query: `text`, `level`, `podNames`, `from` and `to` (the
 * search form's fields), where `timestamps=<start>,<end>` (a link from history) stands for a missing `from`/`to`.
 * Bad values become field errors keyed like the form's fields.
 */
export function buildLogSearch(search: URLSearchParams): LogSearch {
  const [start = "", end = ""] = commaList(search.get("timestamps"));
  const values: LogSearchValues = {
    text: search.get("text") ?? "",
    level: search.get("level") ?? "",
    podNames: commaList(search.get("podNames")),
    from: search.get("from") ?? start,
    to: search.get("to") ?? end,
  };
  const parsed = logQuerySchema.safeParse({
    logType: "SEARCH",
    text: values.text.trim() || undefined,
    level: values.level || undefined,
    podNames: values.podNames.length ? values.podNames.join(",") : undefined,
    from: values.from ? toIsoDateTime(values.from) : undefined,
    to: values.to ? toIsoDateTime(values.to) : undefined,
    limit: SEARCH_LOGS_LOG_LIMIT,
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "text");
      const message = issue.message.startsWith("must ")
        ? `${fieldLabels[key] ?? key} ${issue.message}`
        : issue.message;
      // The first problem of a field is the one worth telling.
      fieldErrors[key] ??= [message];
    }
    return { kind: "invalid", fieldErrors, values };
  }
  const { logType, text, level, podNames, from, to, limit } = parsed.data;
  const query: LogQuery = { logType, limit };
  if (text) query.text = text;
  if (level) query.level = level;
  if (podNames) query.podNames = podNames;
  if (from) query.from = from;
  if (to) query.to = to;
  return { kind: "query", query, values };
}

export const logLevelOptions = logLevels.map((level) => ({ value: level, label: level.toUpperCase() }));

/**
 * The live tail after new lines arrived: lines already held are not repeated, and only the newest `limit` are kept.
 */
export function appendTail(held: readonly LogLine[], incoming: readonly LogLine[], limit: number): LogLine[] {
  const known = new Set(held.map((line) => line.id));
  const merged = [...held, ...incoming.filter((line) => !known.has(line.id))];
  return merged.length > limit ? merged.slice(merged.length - limit) : merged;
}

/** The id to ask for lines after: the newest held line's, or none before the first answer. */
export function tailCursor(held: readonly LogLine[]): string | undefined {
  return held.at(-1)?.id;
}
