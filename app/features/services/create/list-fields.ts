// The TLS form's list of alternative names, typed as text: a module of its own, without the configuration rules, so
// the cost estimate's hook (which the applications' create page uses too) does not bring them along.

/** The TLS form's textarea of alternative names: one per line or separated by commas. */
export const ALTERNATIVE_NAMES_TEXT_FIELD = "subjectAlternativeNamesText";
const ALTERNATIVE_NAMES_FIELD = "config.subjectAlternativeNames";

/**
 * The form data with the alternative names textarea turned into the list the schema reads
 * (`config.subjectAlternativeNames[0]`, ...), so its errors are keyed by position. Other forms pass unchanged.
 */
export function expandListFields<T extends FormData | URLSearchParams>(formData: T): T {
  const text = formData.get(ALTERNATIVE_NAMES_TEXT_FIELD);
  if (typeof text !== "string") return formData;
  const expanded = (formData instanceof FormData ? new FormData() : new URLSearchParams()) as T;
  for (const [name, value] of formData.entries()) {
    if (!name.startsWith(ALTERNATIVE_NAMES_FIELD)) expanded.append(name, value as string & File);
  }
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .forEach((alternativeName, index) =>
      expanded.append(`${ALTERNATIVE_NAMES_FIELD}[${index}]`, alternativeName),
    );
  return expanded;
}

/** "config.subjectAlternativeNames[1]" → 1; the list's own errors → null. */
export function alternativeNameIndexOf(errorKey: string): number | null {
  const match = /^config\.subjectAlternativeNames\[(\d+)\]$/.exec(errorKey);
  return match ? Number(match[1]) : null;
}
