/**
 * What a write changed, for the audit log, built from the request body by allowlist: only the values named here
 * are copied (names of variables and whether they are secret, add-on switches, the name of what is created, ids);
 * of everything else only the field names are kept. Values of variables, passwords, tokens and service settings
 * never reach the log, whatever shape a future route's body has.
 */
export function summarizeChange(body: unknown): Record<string, unknown> | null {
  if (!isRecord(body)) return null;
  const summary: Record<string, unknown> = { fields: Object.keys(body).sort() };
  if (typeof body.name === "string") summary.name = body.name;
  // A fastboot's starter stack (contract/fastboot.ts): a catalogue id.
  if (typeof body.stack === "string") summary.stack = body.stack;
  if (Array.isArray(body.envVariables)) {
    summary.variables = body.envVariables.filter(isRecord).map((variable) => ({
      ...(typeof variable.id === "string" ? { id: variable.id } : {}),
      ...(typeof variable.name === "string" ? { name: variable.name } : {}),
      ...(typeof variable.secret === "boolean" ? { secret: variable.secret } : {}),
      ...("value" in variable ? { valueChanged: true } : {}),
    }));
  }
  if (Array.isArray(body.envVariableIds)) {
    summary.variableIds = body.envVariableIds.filter((id) => typeof id === "string");
  }
  if (Array.isArray(body.addons)) {
    summary.addons = body.addons
      .filter(isRecord)
      .map((addon) => ({ name: String(addon.name), enabled: addon.enabled === true }));
  }
  // A service's configuration holds passwords and keys: which settings changed, never to what.
  if (isRecord(body.config)) summary.config = Object.keys(body.config).sort();
  if (isRecord(body.settings)) summary.settings = Object.keys(body.settings).sort();
  if (typeof body.retentionDays === "number") summary.retentionDays = body.retentionDays;
  // A connection's fields hold tokens and keys: its kind and which fields were sent, never their values.
  if (typeof body.kind === "string") summary.kind = body.kind;
  if (isRecord(body.fields)) summary.connectionFields = Object.keys(body.fields).sort();
  return summary;
}

/** The variable names a write names, as its target when the path names none. */
export function variableNamesOf(summary: Record<string, unknown> | null): string | null {
  if (Array.isArray(summary?.variableIds) && summary.variableIds.length)
    return summary.variableIds.join(", ");
  const variables = summary?.variables;
  if (!Array.isArray(variables)) return null;
  const names = variables
    .map((variable: { name?: string; id?: string }) => variable.name ?? variable.id)
    .filter((name): name is string => typeof name === "string");
  return names.length ? names.join(", ") : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
