import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { errorMessages } from "#contract/errors";
import type { JobPollResult } from "~/features/terraform/job-poll";
import { isPlatformError } from "~/platform/client.server";
import { requirePlatformClient } from "~/platform/request.server";
import { getCloudConnectionJob } from "~/platform/tools.server";

/**
 * The job as the page polls it every 5 s. Failures are answered as data, not thrown: a poll that fails must not
 * replace the page with the error boundary (SPEC §8: a connection job error is a toast with the message).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, headers } = await requirePlatformClient(request);
  try {
    const job = await getCloudConnectionJob(api, params.jobId ?? "");
    return data<JobPollResult>({ kind: "job", job }, { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    if (error.status === 404) return data<JobPollResult>({ kind: "not-found" }, { headers });
    return data<JobPollResult>(
      { kind: "error", message: error.message || errorMessages.generic },
      { headers },
    );
  }
}
