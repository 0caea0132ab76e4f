import type { SubmissionResult } from "@conform-to/react";
import * as z from "zod";
import { environmentVariableNameSchema } from "#contract/environments";
import { messages } from "#contract/validation";
import type { EnvImportSummary, SkippedEnvFileLine } from "./env-import";

/** The variables page's forms, told apart by their `intent` field. */
export const variableIntents = ["create", "update", "delete", "preview-import", "apply-import"] as const;
export type VariableIntent = (typeof variableIntents)[number];

const valueSchema = z.string().max(32_768, "Value must be at most 32768 characters");
/** A .env file's text; generous, yet bounded so one request stays small. */
export const MAX_ENV_FILE_CHARACTERS = 1_000_000;

export const createVariableSchema = z.object({
  intent: z.literal("create"),
  name: environmentVariableNameSchema,
  // An empty value is a value: conform sends nothing for it.
  value: valueSchema.default(""),
  secret: z.boolean().default(false),
});

export const updateVariableSchema = z.object({
  intent: z.literal("update"),
  id: z.string().min(1),
  name: environmentVariableNameSchema,
  value: valueSchema.optional(),
  secret: z.boolean().default(false),
  /** Set when the variable was secret: its value was not shown, so an empty field keeps it. */
  valueHidden: z.boolean().default(false),
});

/**
 * The change the edit form asks for. A secret's value was not shown, so leaving its field empty keeps the stored
 * value; emptying a plain variable's shown value sets it to the empty string.
 */
export function variableChangeOf(edit: z.infer<typeof updateVariableSchema>) {
  const { id, name, secret, value, valueHidden } = edit;
  if (value === undefined && valueHidden) return { id, name, secret };
  return { id, name, secret, value: value ?? "" };
}

export const deleteVariableSchema = z.object({
  intent: z.literal("delete"),
  id: z.string().min(1),
  name: z.string().min(1),
});

export const importEnvFileSchema = z.object({
  intent: z.enum(["preview-import", "apply-import"]),
  content: z
    .string({ error: messages.required("The .env file") })
    .max(MAX_ENV_FILE_CHARACTERS, `The .env file must be at most ${MAX_ENV_FILE_CHARACTERS} characters`),
  /** New variables are stored as secrets. */
  secret: z.boolean().default(false),
});

export const variableFormSchemas = {
  create: createVariableSchema,
  update: updateVariableSchema,
  delete: deleteVariableSchema,
  "preview-import": importEnvFileSchema,
  "apply-import": importEnvFileSchema,
} as const satisfies Record<VariableIntent, z.ZodType>;

/** The intent a submitted form names, or null for anything else. */
export function intentOf(formData: FormData): VariableIntent | null {
  const intent = formData.get("intent");
  return variableIntents.find((candidate) => candidate === intent) ?? null;
}

export type ImportPreview = EnvImportSummary & { skipped: SkippedEnvFileLine[] };

/**
 * What the variables action answers (each form submits through its own fetcher): the form's result and, for an
 * import, what it would do.
 */
export type VariablesActionData = SubmissionResult<string[]> & { preview?: ImportPreview };

/**
 * The variables page's dialogs as the address names them (`?dialog=edit&variable={id}`): without JavaScript the
 * page renders the dialog's form in place, as a plain HTML form.
 */
export type VariableDialog = { kind: "add" | "import" } | { kind: "edit" | "delete"; variableId: string };

export function variableDialogOf(query: URLSearchParams): VariableDialog | null {
  const kind = query.get("dialog");
  const variableId = query.get("variable");
  if (kind === "add" || kind === "import") return { kind };
  if ((kind === "edit" || kind === "delete") && variableId) return { kind, variableId };
  return null;
}

export function variableDialogQuery(dialog: VariableDialog): Record<string, string> {
  return "variableId" in dialog
    ? { dialog: dialog.kind, variable: dialog.variableId }
    : { dialog: dialog.kind };
}

/** The query that reveals one secret without JavaScript (the page then shows its value). */
export const revealQuery = (variableId: string) => ({ reveal: variableId });
