/** One name and value read from a .env file, with the (1-based) line it is on. */
export type EnvFileEntry = { name: string; value: string; line: number };

/** A line of a .env file the import leaves out: a name the platform refuses (`name`), or no assignment at all. */
export type SkippedEnvFileLine = { line: number; name: string | null; reason: string };

/** What the environment holds for a name, with the plaintext of a secret (so changes can be told apart). */
export type CurrentVariable = { id: string; name: string; value: string; secret: boolean };

export type EnvImportPreview = {
  added: EnvFileEntry[];
  changed: (EnvFileEntry & { id: string; secret: boolean })[];
  unchanged: string[];
};

/**
 * Compares a parsed .env file with the environment's variables by name: names the environment lacks are new,
 * names whose value differs are changed (they keep their id and secrecy), the rest are unchanged. Each list is
 * sorted by name.
 */
export function previewEnvImport(entries: EnvFileEntry[], current: CurrentVariable[]): EnvImportPreview {
  const byName = new Map(current.map((variable) => [variable.name, variable]));
  const preview: EnvImportPreview = { added: [], changed: [], unchanged: [] };
  for (const entry of entries) {
    const existing = byName.get(entry.name);
    if (!existing) preview.added.push(entry);
    else if (existing.value !== entry.value)
      preview.changed.push({ ...entry, id: existing.id, secret: existing.secret });
    else preview.unchanged.push(entry.name);
  }
  const byEntryName = (a: { name: string }, b: { name: string }) => compareNames(a.name, b.name);
  preview.added.sort(byEntryName);
  preview.changed.sort(byEntryName);
  preview.unchanged.sort(compareNames);
  return preview;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The names the preview lists, without values: what the page shows before applying. */
export function previewSummary(preview: EnvImportPreview) {
  return {
    added: preview.added.map((entry) => entry.name),
    changed: preview.changed.map((entry) => entry.name),
    unchanged: preview.unchanged,
  };
}
export type EnvImportSummary = ReturnType<typeof previewSummary>;
