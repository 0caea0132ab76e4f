import { parse } from "dotenv";
import { environmentVariableNameSchema } from "#contract/environments";
import type { EnvFileEntry, SkippedEnvFileLine } from "./env-import";

/**
 * dotenv's own pattern of one assignment (dotenv 18, lib `LINE`): `NAME=value` or `NAME: value`, optionally
 * `export`ed, the value bare, quoted (which may span lines) or empty, then an optional comment. Each match is
 * handed to dotenv's `parse`, so values read exactly as dotenv reads them; the pattern only tells where each
 * assignment is, so that the lines that are none of them can be reported instead of dropped.
 */
const ASSIGNMENT =
  /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;

export const NOT_AN_ASSIGNMENT = "Not a NAME=value line";

/**
 * Reads a .env file the way `dotenv` does (comments, quotes, `export` prefixes; a later line wins over an
 * earlier one of the same name). Keeps the names the platform accepts, each with its line number, and lists the
 * lines it skips: names the platform refuses and lines that are no assignment, each with why.
 */
export function parseEnvFile(content: string): { entries: EnvFileEntry[]; skipped: SkippedEnvFileLine[] } {
  const text = content.replace(/\r\n?/g, "\n");
  const lineStarts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    lineStarts.push(index + 1);
  }
  /** The 1-based line of a character offset (a binary search: a file may have many thousand lines). */
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };

  const byName = new Map<string, EnvFileEntry>();
  const skipped: SkippedEnvFileLine[] = [];
  const covered = new Set<number>();
  for (const match of text.matchAll(ASSIGNMENT)) {
    const [assignment, name = ""] = match;
    const start = match.index + assignment.search(/\S|$/);
    const line = lineOf(start);
    const lastLine = lineOf(match.index + assignment.trimEnd().length);
    for (let covers = line; covers <= lastLine; covers++) covered.add(covers);
    const checked = environmentVariableNameSchema.safeParse(name);
    if (!checked.success) {
      skipped.push({ line, name, reason: checked.error.issues[0]?.message ?? "Invalid name" });
      continue;
    }
    byName.set(name, { name, value: parse(assignment)[name] ?? "", line });
  }
  text.split("\n").forEach((lineText, index) => {
    const trimmed = lineText.trim();
    if (trimmed && !trimmed.startsWith("#") && !covered.has(index + 1)) {
      skipped.push({ line: index + 1, name: null, reason: NOT_AN_ASSIGNMENT });
    }
  });
  skipped.sort((a, b) => a.line - b.line);
  return { entries: [...byName.values()], skipped };
}
