import * as z from "zod";
import { awsAccountIdTextSchema, awsRegionSchema } from "#contract/tools";
import { patterns } from "#contract/validation";

/** The connect form: both fields required, the account id exactly 12 digits (SPEC §5). */
export const connectAwsAccountSchema = z.object({
  awsAccountID: awsAccountIdTextSchema,
  awsAccountRegion: awsRegionSchema,
});

/** SPEC §5, §9: the account id is checked while typing, 500 ms after the last keystroke. */
export const ACCOUNT_ID_DEBOUNCE_MS = 500;

/** The message while typing: none for an empty field (emptying it clears the error) or a valid id. */
export function accountIdTypingError(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === "" || patterns.accountId.regex.test(trimmed)) return null;
  return patterns.accountId.message;
}
