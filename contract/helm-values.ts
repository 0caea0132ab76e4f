import { LineCounter, parseDocument, type YAMLError } from "yaml";

/**
 * Helm values as a user types them (issue 15): YAML whose top level is a mapping, checked for syntax with a message
 * naming the line. The yaml parser weighs 30 KB gzip, so the browser imports this module lazily
 * (`await import("#contract/helm-values")`) when a Helm chart source is chosen, never from a module every page loads.
 */

export type HelmValuesCheck =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; line: number; column: number; message: string };

/** "Line 3, column 5: Map keys must be unique" from a parser error, without the parser's code excerpt. */
export function describeYamlError(error: YAMLError): { line: number; column: number; message: string } {
  const [position] = error.linePos ?? [];
  const line = position?.line ?? 1;
  const column = position?.col ?? 1;
  const reason =
    error.code === "MULTIPLE_DOCS"
      ? "Only one YAML document is allowed; remove the --- separator"
      : (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
  return { line, column, message: `Line ${line}, column ${column}: ${reason}` };
}

/** Checks Helm values: valid YAML, one document, a mapping at the top (Helm merges values by key). Empty is `{}`. */
export function checkHelmValues(text: string): HelmValuesCheck {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const [error] = document.errors;
  if (error) return { ok: false, ...describeYamlError(error) };
  let values: unknown;
  try {
    // Throws on an alias to no anchor, and on aliases that would expand past 100 copies (a "billion laughs").
    values = document.toJS({ maxAliasCount: 100 });
  } catch (thrown) {
    const reason = thrown instanceof Error ? thrown.message : String(thrown);
    return { ok: false, line: 1, column: 1, message: `Line 1, column 1: ${reason}` };
  }
  if (values === null || values === undefined) return { ok: true, values: {} };
  if (typeof values !== "object" || Array.isArray(values)) {
    const offset = document.contents?.range?.[0] ?? 0;
    const { line, col } = lineCounter.linePos(offset);
    return {
      ok: false,
      line,
      column: col,
      message: `Line ${line}, column ${col}: Values must be a mapping of keys to values, such as "replicaCount: 2"`,
    };
  }
  return { ok: true, values: values as Record<string, unknown> };
}

/** For a zod refinement: the message of the first problem, or null when the values are fine. */
export function helmValuesProblem(text: string): string | null {
  const check = checkHelmValues(text);
  return check.ok ? null : check.message;
}
