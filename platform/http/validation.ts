import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type * as z from "zod";
import { apiErrorCodes, apiErrorMessages, fieldErrorsOf } from "#contract/errors";
import { nulCharacterFieldErrors } from "#contract/validation";
import { HttpError } from "./errors";
import { invalidFields } from "../lib/errors";
import { wellFormed } from "../lib/well-formed";

/**
 * Reads the JSON body, the one way JSON enters the platform, and validates it with a contract schema; a 400 is
 * thrown before any handler writes. Its strings are made well-formed first, so none reaches jsonb or text broken.
 */
export async function readJsonBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
): Promise<z.output<Schema>> {
  let body: unknown;
  try {
    body = wellFormed(await c.req.json());
  } catch {
    throw new HttpError(400, { message: apiErrorMessages.invalidJson, code: apiErrorCodes.invalidJson });
  }
  return validate(schema, body);
}

/** Validates the query string (first value of each parameter) with a contract schema. */
export function readQuery<Schema extends z.ZodType>(c: Context, schema: Schema): z.output<Schema> {
  return validate(schema, c.req.query());
}

/**
 * Answers with a body checked against the contract's response schema, so the API cannot drift from what the app
 * parses; a mismatch is a server bug and surfaces as a logged 500.
 */
export function sendJson<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  body: z.input<Schema>,
  status: ContentfulStatusCode = 200,
) {
  return c.json(schema.parse(body) as object, status);
}

function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const nulCharacters = nulCharacterFieldErrors(input);
  if (Object.keys(nulCharacters).length) throw invalidFields(nulCharacters);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? "Request is not valid";
  throw new HttpError(400, {
    message,
    code: apiErrorCodes.validationFailed,
    fieldErrors: fieldErrorsOf(result.error),
  });
}
