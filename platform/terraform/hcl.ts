import { Expression, FunctionCall, isPlainMap, Reference, type HclBody, type HclValue } from "./model";

/** Turns a reference into the expression text that stands for it: `aws_vpc.main.id` or a quoted literal. */
export type ResolveReference = (reference: Reference) => string;

const INDENT = "  ";
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Keys that would be read as expressions rather than names in an object constructor. */
const keywordKeys = new Set(["true", "false", "null", "for", "in", "if", "endfor", "endif"]);

/** A double-quoted HCL string; `${` and `%{` are escaped so AWS values never become template expressions. */
export function quote(text: string): string {
  let result = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (character === "\\") result += "\\\\";
    else if (character === '"') result += '\\"';
    else if (character === "\n") result += "\\n";
    else if (character === "\r") result += "\\r";
    else if (character === "\t") result += "\\t";
    else if (code < 0x20) result += `\\u${code.toString(16).padStart(4, "0")}`;
    else result += character;
  }
  // Replacer functions, because "$$" in a replacement string means a single "$".
  return `"${result.replaceAll("${", () => "$${").replaceAll("%{", () => "%%{")}"`;
}

function renderKey(key: string): string {
  return identifierPattern.test(key) && !keywordKeys.has(key) ? key : quote(key);
}

function isScalar(value: HclValue): boolean {
  return !Array.isArray(value) && !isPlainMap(value) && !(value instanceof FunctionCall);
}

/** A value as HCL; lists of scalars stay on one line, maps and lists of maps span lines at `depth`. */
export function renderValue(value: HclValue, depth: number, resolve: ResolveReference): string {
  if (value === null) return "null";
  if (typeof value === "string") return quote(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as an HCL number`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Reference) return resolve(value);
  if (value instanceof Expression) return value.text;
  if (value instanceof FunctionCall) {
    return `${value.name}(${value.args.map((arg) => renderValue(arg, depth, resolve)).join(", ")})`;
  }
  const inner = INDENT.repeat(depth + 1);
  const closing = INDENT.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every(isScalar))
      return `[${value.map((item) => renderValue(item, depth, resolve)).join(", ")}]`;
    const items = value.map((item) => `${inner}${renderValue(item, depth + 1, resolve)},`);
    return `[\n${items.join("\n")}\n${closing}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const lines = alignAssignments(
    entries.map(([key, item]) => ({ name: renderKey(key), value: renderValue(item, depth + 1, resolve) })),
  ).map((line) => `${inner}${line}`);
  return `{\n${lines.join("\n")}\n${closing}}`;
}

/**
 * `name = value` lines aligned as `terraform fmt` aligns them: each run of single-line assignments pads its
 * names to the longest; an assignment whose value spans lines stands alone and ends the run.
 */
function alignAssignments(assignments: { name: string; value: string }[]): string[] {
  const lines: string[] = [];
  let run: { name: string; value: string }[] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map(({ name }) => name.length));
    for (const { name, value } of run) lines.push(`${name.padEnd(width)} = ${value}`);
    run = [];
  };
  for (const assignment of assignments) {
    if (assignment.value.includes("\n")) {
      flush();
      lines.push(`${assignment.name} = ${assignment.value}`);
    } else {
      run.push(assignment);
    }
  }
  flush();
  return lines;
}

/**
 * The lines of a body at `depth`: runs of attributes with their `=` aligned (as `terraform fmt` does), nested
 * blocks separated from them by a blank line.
 */
export function renderBody(body: HclBody, depth: number, resolve: ResolveReference): string[] {
  const indent = INDENT.repeat(depth);
  const lines: string[] = [];
  let index = 0;
  while (index < body.length) {
    const item = body[index];
    if (!item) break;
    if (lines.length > 0) lines.push("");
    if (item.kind === "block") {
      lines.push(`${indent}${item.type} {`, ...renderBody(item.body, depth + 1, resolve), `${indent}}`);
      index += 1;
      continue;
    }
    const run: { name: string; value: HclValue }[] = [];
    while (index < body.length) {
      const next = body[index];
      if (!next || next.kind !== "attribute") break;
      run.push(next);
      index += 1;
    }
    const rendered = run.map(({ name, value }) => ({ name, value: renderValue(value, depth, resolve) }));
    for (const line of alignAssignments(rendered)) lines.push(`${indent}${line}`);
  }
  return lines;
}

/** A top-level block such as `resource "aws_vpc" "main" { ... }`. */
export function renderTopLevelBlock(
  type: string,
  labels: string[],
  body: HclBody,
  resolve: ResolveReference,
): string {
  const header = [type, ...labels.map(quote)].join(" ");
  const inner = renderBody(body, 1, resolve);
  return inner.length ? `${header} {\n${inner.join("\n")}\n}\n` : `${header} {\n}\n`;
}
