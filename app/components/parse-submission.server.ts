import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod as parseWithConform } from "@conform-to/zod/v4";

/** Each field's maximum length, by the field's name as conform names it (`config.name`, `tags[]`). */
type MaxLengths = Record<string, number>;
type Submission = { reply: (...args: never[]) => SubmissionResult };

const maxLengthsBySchema = new WeakMap<object, MaxLengths>();

/**
 * conform's parseWithZod, whose `submission.reply()` never sends a value back longer than its field's maximum: a
 * reply echoes what was submitted so the form shows it again, and a value over the maximum (refused anyway) would
 * otherwise travel back whole, up to the size of the request. Every submission parsed on the server goes through
 * here (lint keeps it so); the browser's own validation (onValidate) uses conform's parse, which never leaves it.
 */
export const parseSubmission = ((payload: FormData | URLSearchParams, options: { schema: unknown }) => {
  const submission: Submission | Promise<Submission> = parseWithConform(payload, options as never);
  const maxLengths = maxLengthsOf(options.schema);
  return submission instanceof Promise
    ? submission.then((settled) => boundReplies(settled, maxLengths))
    : boundReplies(submission, maxLengths);
}) as typeof parseWithConform;

function boundReplies(submission: Submission, maxLengths: MaxLengths): Submission {
  const reply = submission.reply.bind(submission);
  submission.reply = ((...args: never[]) => {
    const result = reply(...args);
    return result.initialValue
      ? {
          ...result,
          initialValue: bounded(result.initialValue, "", maxLengths) as typeof result.initialValue,
        }
      : result;
  }) as Submission["reply"];
  return submission;
}

/** `value` with each string cut to its field's maximum length. */
function bounded(value: unknown, name: string, maxLengths: MaxLengths): unknown {
  if (typeof value === "string") {
    const maxLength = maxLengths[name];
    return maxLength !== undefined && value.length > maxLength ? value.slice(0, maxLength) : value;
  }
  if (Array.isArray(value)) return value.map((item) => bounded(item, `${name}[]`, maxLengths));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        bounded(item, name ? `${name}.${key}` : key, maxLengths),
      ]),
    );
  }
  return value;
}

/**
 * The schema's maximum lengths, read from zod's own definitions (conform's getZodConstraint finds none in zod 4.6's
 * schemas, and zod's toJSONSchema would add its JSON Schema code to every page with a form). A field with different
 * maxima in the branches of a union gets the largest.
 */
function maxLengthsOf(schema: unknown): MaxLengths {
  if (!isZodSchema(schema)) return {};
  let maxLengths = maxLengthsBySchema.get(schema);
  if (!maxLengths) {
    maxLengths = {};
    collectMaxLengths(schema, "", maxLengths);
    maxLengthsBySchema.set(schema, maxLengths);
  }
  return maxLengths;
}

/** What this walk reads of a zod 4 schema: its definition, and a string's maximum length. */
type ZodSchema = {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, ZodSchema>;
      element?: ZodSchema;
      innerType?: ZodSchema;
      in?: ZodSchema;
      out?: ZodSchema;
      options?: ZodSchema[];
      left?: ZodSchema;
      right?: ZodSchema;
    };
  };
  maxLength?: number | null;
};

function isZodSchema(value: unknown): value is ZodSchema {
  return typeof value === "object" && value !== null && "_zod" in value;
}

function collectMaxLengths(schema: ZodSchema, name: string, into: MaxLengths): void {
  const def = schema._zod.def;
  if (def.type === "string" && typeof schema.maxLength === "number") {
    into[name] = Math.max(into[name] ?? 0, schema.maxLength);
  }
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    collectMaxLengths(child, name ? `${name}.${key}` : key, into);
  }
  if (def.type === "array" && def.element) collectMaxLengths(def.element, `${name}[]`, into);
  // Wrappers (optional, default, pipe, union, intersection) keep the field's name; a lazy schema is not entered.
  for (const inner of [def.innerType, def.in, def.out, def.left, def.right, ...(def.options ?? [])]) {
    if (inner) collectMaxLengths(inner, name, into);
  }
}
