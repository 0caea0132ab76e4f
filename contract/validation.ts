import { z } from "zod";

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

/** A required, trimmed text field with the spec's generic messages. */
export function requiredText(label: string, { min = 1, max = 255 }: { min?: number; max?: number } = {}) {
  // An empty value reports only "required", not also "at least N characters".
  return z
    .string({ error: messages.required(label) })
    .trim()
    .min(1, { error: messages.required(label), abort: true })
    .min(min, `${label} ${messages.min(min)}`)
    .max(max, `${label} ${messages.max(max)}`);
}
