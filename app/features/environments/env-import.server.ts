import { MAX_IMPORTED_VARIABLES } from "#contract/environments";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { importVariables, listVariables, revealVariableValue } from "~/platform/environments.server";
import { parseEnvFile } from "./env-file.server";
import {
  previewEnvImport,
  type CurrentVariable,
  type EnvFileEntry,
  type EnvImportPreview,
  type SkippedEnvFileLine,
} from "./env-import";
import { mapWithConcurrency } from "./map-with-concurrency";

const REVEAL_CONCURRENCY = 8;

export type PlannedEnvImport = {
  preview: EnvImportPreview;
  skipped: SkippedEnvFileLine[];
  /** Why the import cannot be applied as it is, if it cannot. */
  problem: string | null;
};

/**
 * What importing `content` into the environment would do now. Secrets named in the file are revealed so that
 * an unchanged secret is not reported (and rewritten) as changed.
 */
export async function planEnvImport(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  content: string,
): Promise<PlannedEnvImport> {
  const { entries, skipped } = parseEnvFile(content);
  const namesInFile = new Set(entries.map((entry) => entry.name));
  const variables = await listVariables(api, tenantId, environmentId);
  const current = await mapWithConcurrency(
    variables,
    REVEAL_CONCURRENCY,
    async (variable): Promise<CurrentVariable> => {
      if (!variable.secret || !namesInFile.has(variable.name)) return variable;
      const value = await revealVariableValue(api, tenantId, environmentId, variable.id);
      return { ...variable, value: value ?? variable.value };
    },
  );
  const preview = previewEnvImport(entries, current);
  return { preview, skipped, problem: problemOf(entries.length, skipped.length, preview) };
}

function problemOf(entries: number, skipped: number, preview: EnvImportPreview): string | null {
  if (entries === 0 && skipped === 0) return "The file has no variables (lines like NAME=value).";
  if (preview.added.length + preview.changed.length > MAX_IMPORTED_VARIABLES) {
    return `One import adds and changes at most ${MAX_IMPORTED_VARIABLES} variables.`;
  }
  return null;
}

/** The platform refused entries of the import: what it said about each, by the line of the file it came from. */
export class EnvImportRejected extends Error {
  constructor(readonly lineErrors: string[]) {
    super(lineErrors.join("\n"));
  }
}

/**
 * Changes the variables whose values differ and adds the new ones (as secrets when `secret`) in one platform
 * call, which writes all of them or none. Entries the platform refuses are reported by their line.
 */
export async function applyEnvImport(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  preview: EnvImportPreview,
  { secret }: { secret: boolean },
) {
  const written: EnvFileEntry[] = [...preview.changed, ...preview.added];
  if (!written.length) return;
  try {
    await importVariables(
      api,
      tenantId,
      environmentId,
      written.map(({ name, value }) => ({ name, value, secret })),
    );
  } catch (error) {
    if (!isPlatformError(error) || !error.fieldErrors) throw error;
    throw new EnvImportRejected(lineErrorsOf(written, error.fieldErrors));
  }
}

/** `envVariables.3.value: [message]` → "Line 12 (NAME): message", in line order. */
export function lineErrorsOf(written: EnvFileEntry[], fieldErrors: Record<string, string[]>): string[] {
  return Object.entries(fieldErrors)
    .map(([field, messages]) => {
      const index = Number(/^envVariables\.(\d+)\./.exec(field)?.[1] ?? Number.NaN);
      const entry = written[index];
      const message = messages.join(" ") || "Refused by the platform";
      return entry
        ? { line: entry.line, text: `Line ${entry.line} (${entry.name}): ${message}` }
        : { line: Infinity, text: message };
    })
    .sort((a, b) => a.line - b.line)
    .map(({ text }) => text);
}
