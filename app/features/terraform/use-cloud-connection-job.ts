import { useCallback, useEffect, useRef, useState } from "react";
import type { CloudConnectionJob } from "#contract/tools";
import type { ToastInput } from "~/toast";
import { usePolling } from "~/hooks/use-polling";
import { DEFAULT_POLL_INTERVAL_MS } from "~/hooks/use-revalidate-while";
import { jobStorage } from "./job-storage";
import type { JobPollResult, StartedJob } from "./job-poll";

/** SPEC §9: the job is polled every 5 s (POLL_INTERVAL_MS may shorten it); the AWS console opens 1 s after the job was created. */
export const JOB_POLL_INTERVAL_MS = DEFAULT_POLL_INTERVAL_MS;
export const REDIRECT_DELAY_MS = 1000;

export type CloudConnectionJobDependencies = {
  /** Asks for the job; the answer arrives as `result` (a fetcher's load and data). */
  load: (jobId: string) => void;
  result: JobPollResult | undefined;
  notify: (toast: ToastInput) => void;
  openWindow?: (url: string) => void;
  now?: () => number;
  /** The configured busy poll interval (usePollInterval); SPEC's 5 s by default. */
  pollIntervalMs?: number;
};

function openInNewTab(url: string) {
  window.open(url, "_blank", "noopener,noreferrer");
}

/**
 * SPEC §4 cloud connection job: no stored id shows the form (INITIATING); a created job's id is stored once
 * (STARTING_TERRAFORMER) and polled every 5 s until COMPLETED; FAILED shows its details in an error toast and
 * forgets the job; a download link whose expiry has passed forgets it too.
 */
export function useCloudConnectionJob(
  startedJob: StartedJob | null | undefined,
  {
    load,
    result,
    notify,
    openWindow = openInNewTab,
    now = Date.now,
    pollIntervalMs = JOB_POLL_INTERVAL_MS,
  }: CloudConnectionJobDependencies,
) {
  /** undefined until the browser's storage has been read (the server renders the form). */
  const [jobId, setJobId] = useState<string | null | undefined>(undefined);
  const [job, setJob] = useState<CloudConnectionJob | null>(null);
  const [redirectUrl, setRedirectUrl] = useState<string | null>(null);
  const handledStart = useRef<string | null>(null);
  const handledResult = useRef<JobPollResult | undefined>(undefined);

  useEffect(() => {
    setJobId((current) => (current === undefined ? jobStorage.jobId() : current));
  }, []);

  const forget = useCallback(() => {
    jobStorage.clearJobId();
    setJobId(null);
    setJob(null);
    setRedirectUrl(null);
  }, []);

  useEffect(() => {
    if (!startedJob || handledStart.current === startedJob.id) return;
    handledStart.current = startedJob.id;
    jobStorage.saveStartedJob(startedJob.id, startedJob.awsAccountRegion);
    setJobId(startedJob.id);
    setJob(null);
    setRedirectUrl(startedJob.redirectURL);
    const timer = setTimeout(() => openWindow(startedJob.redirectURL), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [startedJob, openWindow]);

  useEffect(() => {
    if (!result || handledResult.current === result || !jobId) return;
    handledResult.current = result;
    if (result.kind === "error") {
      notify({ id: `cloud-connection-error-${result.message}`, variant: "error", message: result.message });
      return;
    }
    if (result.kind === "not-found") return forget();
    const polled = result.job;
    if (polled.id !== jobId) return;
    if (polled.status === "FAILED") {
      notify({
        id: `cloud-connection-failed-${polled.id}`,
        variant: "error",
        message: polled.details ?? "Terraform generation failed",
      });
      return forget();
    }
    if (polled.downloadURLExpirationTime > 0 && polled.downloadURLExpirationTime * 1000 <= now())
      return forget();
    setJob(polled);
    if (polled.status !== "INITIATING") setRedirectUrl(null);
    else setRedirectUrl((current) => current ?? polled.redirectURL);
  }, [result, jobId, notify, forget, now]);

  const completed = job?.status === "COMPLETED";
  usePolling(() => jobId && load(jobId), {
    intervalMs: pollIntervalMs,
    enabled: Boolean(jobId) && !completed,
  });

  return {
    /** undefined before the stored id was read, null without a job. */
    jobId,
    job,
    /** The AWS console link while the role is awaited, for "Click here if you are not redirected to AWS". */
    redirectUrl,
  };
}
