import * as z from "zod";
import { messages } from "./validation";

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
