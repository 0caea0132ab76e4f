import { useEffect, useReducer, useState } from "react";
import type { CloudConnectionJobStatus } from "#contract/tools";
import type { Analytics } from "~/features/analytics/analytics";
import { generationCardReducer, isDownloadPending } from "./generation-card-state";
import { jobStorage } from "./job-storage";
import { useSimulatedProgress } from "./progress-simulation";

/** SPEC §2.4, §9: the promotional slides change every 5 s until the file is downloaded. */
export const CAROUSEL_INTERVAL_MS = 5000;
export const TERRAFORM_DOWNLOADED_EVENT = "Terraform Downloaded";

/** The index of the slide to show, advancing every 5 s while `running`. */
export function useCarousel(slideCount: number, running: boolean): number {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!running || slideCount < 2) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % slideCount), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [running, slideCount]);
  return index;
}

/**
 * The generation card's behaviour (SPEC §4): its state from the job's status, the simulated progress, the
 * carousel, and what downloading and starting over do.
 */
export function useGenerationCard({
  status,
  downloadUrl,
  slideCount,
  analytics,
  random,
  reload = () => window.location.reload(),
}: {
  status: CloudConnectionJobStatus | undefined;
  downloadUrl: string | null | undefined;
  slideCount: number;
  analytics: Pick<Analytics, "capture">;
  random?: () => number;
  reload?: () => void;
}) {
  const [state, dispatch] = useReducer(generationCardReducer, "INITIATED");
  useEffect(() => {
    if (status) dispatch({ type: "job-status", status });
  }, [status]);
  const progress = useSimulatedProgress(state !== "INITIATED", random);
  const slide = useCarousel(slideCount, state !== "DOWNLOADED");

  return {
    state,
    progress,
    slide,
    downloadPending: isDownloadPending(state, downloadUrl),
    /** The link itself opens the file in a new tab; this records the download. */
    downloaded: () => {
      if (state === "INITIATED" || !downloadUrl) return;
      analytics.capture(TERRAFORM_DOWNLOADED_EVENT);
      jobStorage.clearRegion();
      dispatch({ type: "downloaded" });
    },
    /** "Generate new Terraform": forgets the region and the job, and starts again from the form. */
    generateNew: () => {
      jobStorage.clearRegion();
      jobStorage.clearJobId();
      reload();
    },
  };
}
