import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { errorMessages } from "#contract/errors";
import { dataWithToast } from "~/toast.server";
import { isPlatformError, type PlatformError } from "./client.server";

type Replyable = {
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult;
};

/**
 * The answer of an action whose platform call failed (SPEC §8): the platform's field errors go to their fields
 * (with `fieldPrefix` removed, e.g. "tenant."); anything else becomes a form error and an error toast with the
 * platform's message, the restricted-access message for a 403, or the generic message. What the user typed stays.
 */
export async function rejectSubmission(
  submission: Replyable,
  error: unknown,
  headers: Headers,
  { fieldPrefix = "" }: { fieldPrefix?: string } = {},
) {
  if (!isPlatformError(error)) throw error;
  const status = error.status || 502;
  if (error.fieldErrors) {
    const fieldErrors = Object.fromEntries(
      Object.entries(error.fieldErrors).map(([key, messages]) => [key.replace(fieldPrefix, ""), messages]),
    );
    return data(submission.reply({ fieldErrors }), { status, headers });
  }
  const message = userMessageOf(error);
  return dataWithToast(
    submission.reply({ formErrors: [message] }),
    { variant: "error", message },
    { status, headers },
  );
}

/** What the user is told about a failed platform call: restricted access for a 403, else the platform's message. */
export function userMessageOf(error: PlatformError): string {
  return error.status === 403 ? errorMessages.restrictedAccess : error.message || errorMessages.generic;
}
