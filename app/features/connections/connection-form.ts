import type { SubmissionResult } from "@conform-to/react";
import * as z from "zod";
import {
  connectionKindDefinitions,
  connectionPatterns,
  createConnectionSchema,
  methodOf,
  updateConnectionSchema,
  type ConnectionField,
  type ConnectionKind,
} from "#contract/connections";

/** The form's two ways to save: checked against the provider first, or stored unverified on purpose. */
export const saveIntents = ["save", "save-unverified"] as const;
export type SaveIntent = (typeof saveIntents)[number];

/** What the create and edit actions answer when they do not redirect. */
export type SaveConnectionResult = {
  result: SubmissionResult<string[]>;
  /** The provider refused the credentials (422): 'Save without verifying' is offered. */
  checkFailed: boolean;
};

/**
 * The connection form, checked with the platform's own request schema so a field shows the same message in the
 * browser as from the platform (keyed `fields.NAME`). Parse with `disableAutoCoercion`: an empty field stays "",
 * which the contract reports as required (or, on an edit, keeps a secret's stored value).
 */
export function connectionFormSchema(mode: "create" | "edit") {
  const request = mode === "create" ? createConnectionSchema : updateConnectionSchema;
  return z.unknown().transform((submitted, context) => {
    const { intent, ...rest } = (typeof submitted === "object" && submitted ? submitted : {}) as {
      intent?: unknown;
    };
    // 'Save without verifying' is offered after a refusal: it checks again and saves whatever the provider says,
    // so the connection shows the refused check rather than "Never checked".
    const value = { ...rest, verify: true, ifRefused: intent === "save-unverified" ? "save" : "refuse" };
    const parsed = request.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const { path, message } of parsed.error.issues) context.addIssue({ code: "custom", path, message });
    return z.NEVER;
  });
}

/** The form's inputs by name: `fields.NAME` for each field, as conform names nested values. */
export function fieldInputName(field: Pick<ConnectionField, "name">) {
  return `fields.${field.name}`;
}

/** The secret fields of a kind's method: their values never travel back from the server in a form's result. */
export function secretInputNames(kind: ConnectionKind, methodId: string): string[] {
  return (methodOf(kind, methodId)?.fields ?? [])
    .filter((field) => field.secret)
    .map((field) => fieldInputName(field));
}

/** The method a form starts with: the one asked for when the kind has it, else the kind's first. */
/** The method asked for, else the first one that can work on this platform (`unavailable` cannot). */
export function methodOrDefault(
  kind: ConnectionKind,
  asked: string | null | undefined,
  unavailable: readonly string[] = [],
): string {
  const { methods } = connectionKindDefinitions[kind];
  return (
    methods.find((method) => method.id === asked)?.id ??
    methods.find((method) => !unavailable.includes(method.id))?.id ??
    methods[0]?.id ??
    ""
  );
}

/** A field chosen from a list (a select) rather than typed: regions and other connections. */
export function isListChoice(field: Pick<ConnectionField, "options">): boolean {
  return field.options !== undefined && field.options !== "datadog-sites";
}

/** SPEC §5: an account id is checked while typing, 500 ms after the last keystroke; empty clears the error. */
export function accountIdTypingError(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === "" || connectionPatterns.accountId.regex.test(trimmed)) return null;
  return connectionPatterns.accountId.message;
}

/**
 * The values a form starts with: on an edit the connection's name and plain fields (secret fields start empty:
 * empty keeps the stored value); on a create the defaults of the fields picked from a list (a typed field shows
 * its default as a placeholder, and the platform fills it in when left empty).
 */
export function initialFormValues(
  kind: ConnectionKind,
  methodId: string,
  connection?: { name: string; method: string; fields: Record<string, string> },
) {
  const fields: Record<string, string> = {};
  for (const field of methodOf(kind, methodId)?.fields ?? []) {
    if (field.secret) continue;
    const stored = connection?.method === methodId ? connection.fields[field.name] : undefined;
    const picked = isListChoice(field) ? field.defaultValue : undefined;
    const value = stored ?? picked;
    if (value !== undefined) fields[field.name] = value;
  }
  return { name: connection?.name ?? "", kind, method: methodId, fields };
}
