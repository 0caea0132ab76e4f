import type { PlatformClient } from "~/platform/client.server";
import {
  createVariables,
  listVariables,
  revealVariableValue,
  updateVariables,
} from "~/platform/environments.server";
import { parseEnvFile } from "./env-file.server";
import { previewEnvImport, type CurrentVariable, type EnvImportPreview } from "./env-import";
import { mapWithConcurrency } from "./map-with-concurrency";

/** The platform takes at most this many variables per request (contract). */
export const MAX_VARIABLES_PER_REQUEST = 500;
const REVEAL_CONCURRENCY = 8;

export type PlannedEnvImport = {
  preview: EnvImportPreview;
  rejected: { name: string; reason: string }[];
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
  const { entries, rejected } = parseEnvFile(content);
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
  return { preview, rejected, problem: problemOf(entries.length, rejected.length, preview) };
}

function problemOf(entries: number, rejected: number, preview: EnvImportPreview): string | null {
  if (entries === 0 && rejected === 0) return "The file has no variables (lines like NAME=value).";
  if (
    preview.added.length > MAX_VARIABLES_PER_REQUEST ||
    preview.changed.length > MAX_VARIABLES_PER_REQUEST
  ) {
    return `One import adds and changes at most ${MAX_VARIABLES_PER_REQUEST} variables each.`;
  }
  return null;
}

/** Changes the variables whose values differ, then adds the new ones (as secrets when `secret`). */
export async function applyEnvImport(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  preview: EnvImportPreview,
  { secret }: { secret: boolean },
) {
  if (preview.changed.length) {
    await updateVariables(
      api,
      tenantId,
      environmentId,
      preview.changed.map(({ id, value }) => ({ id, value })),
    );
  }
  if (preview.added.length) {
    await createVariables(
      api,
      tenantId,
      environmentId,
      preview.added.map(({ name, value }) => ({ name, value, secret })),
    );
  }
}
