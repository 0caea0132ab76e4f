import { parseSubmission } from "~/components/parse-submission.server";
import { data } from "@remix-run/node";
import { errorMessages } from "#contract/errors";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { createCloudConnectionJob, initializeAccount } from "~/platform/tools.server";
import { dataWithToast } from "~/toast.server";
import { connectAwsAccountSchema } from "./connect-form";
import type { ConnectActionData } from "./job-poll";

/**
 * The connect form's action, shared by the cloud-connection page and the marketplace tool: initializes the
 * user's tool account, creates the job, and hands the page its id and AWS console link. A refusal by the
 * platform shows its message in an error toast (SPEC §8 connection job error).
 */
export async function connectAwsAccount(
  request: Request,
  { api, headers }: { api: PlatformClient; headers: Headers },
) {
  const submission = parseSubmission(await request.formData(), { schema: connectAwsAccountSchema });
  if (submission.status !== "success") {
    return data<ConnectActionData>({ result: submission.reply(), job: null }, { status: 400, headers });
  }
  try {
    await initializeAccount(api);
    const job = await createCloudConnectionJob(api, {
      awsAccountID: Number(submission.value.awsAccountID),
      awsAccountRegion: submission.value.awsAccountRegion,
    });
    return data<ConnectActionData>(
      {
        result: submission.reply(),
        job: { id: job.id, redirectURL: job.redirectURL, awsAccountRegion: job.awsAccountRegion },
      },
      { headers },
    );
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const message =
      error.status === 403 ? errorMessages.restrictedAccess : error.message || errorMessages.generic;
    return dataWithToast<ConnectActionData>(
      { result: submission.reply(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}), job: null },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
}
