import { data } from "@remix-run/node";
import { serviceErrorMessages } from "#contract/services";
import { rejectSubmission } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";

type Replyable = Parameters<typeof rejectSubmission>[0];

/**
 * A create that the platform refused: a taken name is an error of the name field (409 without field errors);
 * field errors land on their fields (`config.storageGb` is the form's own name); anything else is a form error and
 * an error toast. What was typed stays.
 */
export async function rejectCreate(submission: Replyable, error: unknown, headers: Headers) {
  if (
    isPlatformError(error) &&
    error.status === 409 &&
    !error.fieldErrors &&
    error.message === serviceErrorMessages.nameTaken
  ) {
    return data(submission.reply({ fieldErrors: { name: [error.message] } }), { status: 409, headers });
  }
  return rejectSubmission(submission, error, headers);
}
