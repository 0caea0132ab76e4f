// Free of zod: the list pages read its messages, so it builds no schema (the required-text rule is
// required-text.ts, decision 064).

/** Patterns and messages from SPEC §5, shared by the app's forms and the platform's checks. */
export const patterns = {
  lettersDigitsHyphen: {
    regex: /^[A-Za-z](?!.*--)[A-Za-z0-9-]*[A-Za-z]$|^[A-Za-z]$/,
    message:
      "Value must contain only letters, digits and hyphens, begin and end with a letter, and have no consecutive hyphens.",
  },
  lowercaseAlphanumericHyphen: {
    regex: /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/,
    message:
      "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
  },
  accountId: { regex: /^\d{12}$/, message: "Value must be a 12-digit number." },
  url: { regex: /^(oci|https?):\/\/[^\s"']+$/, message: "Value must be a valid URL." },
} as const;

export const messages = {
  required: (path: string) => `${path} is a required field`,
  email: "must be a valid email",
  url: "must be a valid URL",
  min: (min: number) => `must be at least ${min} characters`,
  max: (max: number) => `must be at most ${max} characters`,
  positive: "must be a positive number",
  integer: "must be an integer",
} as const;

/**
 * The rest of SPEC §5's pattern catalogue, for the services' forms (contract/services.ts) and the platform's
 * checks of the same fields.
 */
export const servicePatterns = {
  lettersDigitsHyphenSpaces: {
    regex: /^[A-Za-z0-9][A-Za-z0-9 -]*$/,
    message: "Value must contain only letters, digits, hyphens and spaces.",
  },
  lettersDigitsSpacesUnderscores: {
    regex: /^[A-Za-z0-9][A-Za-z0-9 _-]*$/,
    message: "Value must contain only letters, digits, hyphens, spaces and underscores.",
  },
  lowercaseDigitsHyphen: {
    regex: /^[a-z0-9-]+$/,
    message: "Value must contain only lowercase letters, digits and hyphens.",
  },
  lowercaseNoConsecutiveHyphens: {
    regex: /^(?!.*--)[a-z0-9-]+$/,
    message: "Value must contain only lowercase letters, digits and hyphens, with no consecutive hyphens.",
  },
  lowercaseStartingWithLetter: {
    regex: /^[a-z][a-z0-9]*$/,
    message: "Value must contain only lowercase letters and digits, and begin with a letter.",
  },
  lowercaseWithPeriods: {
    regex: /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/,
    message:
      "Value must contain only lowercase letters, digits, hyphens and periods, and begin and end with a letter or digit.",
  },
  accountIdWithDashes: {
    regex: /^\d{4}-?\d{4}-?\d{4}$/,
    message: "Value must be 12 digits, optionally with dashes every 4 digits (e.g. 1234-5678-9012).",
  },
  identifier: {
    regex: /^[A-Za-z_.-][A-Za-z0-9_.-]*$/,
    message:
      "Value must contain only letters, numbers, hyphens, underscores and periods, and begin with a letter, hyphen, underscore or period.",
  },
  email: { regex: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: messages.email },
} as const;

/**
 * U+0000 (NUL) is refused in every text a caller sends: PostgreSQL text cannot store it, and nothing a user means
 * to type contains it.
 */
export const NUL_CHARACTER_MESSAGE = "Value must not contain the NUL character (U+0000).";

/**
 * Field errors (`{ "a.b": [message] }`, as contract/errors.ts's fieldErrorsOf) for every string in `value`, at any
 * depth and in object keys too, that contains U+0000. Checked before any schema, so every schema's text fields
 * and query parameters refuse it the same way.
 */
export function nulCharacterFieldErrors(value: unknown): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  const visit = (node: unknown, path: string[]) => {
    if (typeof node === "string") {
      if (node.includes("\u0000")) fieldErrors[path.length ? path.join(".") : "_"] = [NUL_CHARACTER_MESSAGE];
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...path, String(index)]));
    } else if (node && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        visit(key, path);
        visit(item, [...path, key]);
      }
    }
  };
  visit(value, []);
  return fieldErrors;
}
