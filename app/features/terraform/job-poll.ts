import type { SubmissionResult } from "@conform-to/react";
import type { CloudConnectionJob } from "#contract/tools";

/** What the job route answers the page's poll: the job, no such job (any more), or the platform's error. */
export type JobPollResult =
  | { kind: "job"; job: CloudConnectionJob }
  | { kind: "not-found" }
  | { kind: "error"; message: string };

/** The job a submitted connect form created, as the action hands it to the page. */
export type StartedJob = { id: string; redirectURL: string; awsAccountRegion: string };

/** What the connect form's action answers: conform's result, and the job when one was created. */
export type ConnectActionData = { result: SubmissionResult<string[]>; job: StartedJob | null };
