import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod as parseWithConform } from "@conform-to/zod/v4";
import * as z from "zod";

/** Each field's maximum length, by the field's name as conform names it (`config.name`, `tags[]`). */
type MaxLengths = Record<string, number>;
type Submission = { reply: (...args: never[]) => SubmissionResult };
type JsonSchema = {
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

const maxLengthsBySchema = new WeakMap<object, MaxLengths>();

/**
 * conform's parseWithZod, whose `submission.reply()` never sends a value back longer than its field's maximum: a
 * reply echoes what was submitted so the form shows it again, and a value over the maximum (refused anyway) would
 * otherwise travel back whole, up to the size of the request. Every form parses through here, in the action and in
 * the browser alike.
 */
export const parseWithZod = ((payload: FormData | URLSearchParams, options: { schema: unknown }) => {
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
 * The schema's maximum lengths, from its JSON Schema as the form submits it (conform's getZodConstraint finds none
 * in zod 4.6's schemas). A field with different maxima in the branches of a union gets the largest.
 */
function maxLengthsOf(schema: unknown): MaxLengths {
  if (!(schema instanceof z.ZodType)) return {};
  let maxLengths = maxLengthsBySchema.get(schema);
  if (!maxLengths) {
    maxLengths = {};
    try {
      collectMaxLengths(
        z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema,
        "",
        maxLengths,
      );
    } catch {
      // A schema JSON Schema cannot express (a cycle) echoes its values uncut, as large as the body limit lets them.
    }
    maxLengthsBySchema.set(schema, maxLengths);
  }
  return maxLengths;
}

function collectMaxLengths(node: JsonSchema, name: string, into: MaxLengths): void {
  if (node.maxLength !== undefined) into[name] = Math.max(into[name] ?? 0, node.maxLength);
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    collectMaxLengths(child, name ? `${name}.${key}` : key, into);
  }
  if (node.items) collectMaxLengths(node.items, `${name}[]`, into);
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) {
    collectMaxLengths(branch, name, into);
  }
}
