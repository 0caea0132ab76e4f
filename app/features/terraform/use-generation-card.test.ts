// @vitest-environment happy-dom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CloudConnectionJobStatus } from "#contract/tools";
import { generationCardReducer, isDownloadPending } from "./generation-card-state";
import { JOB_ID_STORAGE_KEY, REGION_STORAGE_KEY } from "./job-storage";
import { PROGRESS_TICK_MS } from "./progress-simulation";
import { CAROUSEL_INTERVAL_MS, TERRAFORM_DOWNLOADED_EVENT, useGenerationCard } from "./use-generation-card";

const downloadUrl = "http://platform.test/files/terraform/job.zip?expires=1&signature=s";

function renderCard(initial: { status?: CloudConnectionJobStatus; downloadUrl?: string | null } = {}) {
  const analytics = { capture: vi.fn() };
  const reload = vi.fn();
  const view = renderHook(
    ({ status, downloadUrl: url }) =>
      useGenerationCard({ status, downloadUrl: url, slideCount: 5, analytics, random: () => 0.5, reload }),
    { initialProps: { status: initial.status, downloadUrl: initial.downloadUrl ?? null } },
  );
  return { ...view, analytics, reload };
}

describe("the generation card's states", () => {
  it("go INITIATED → READY → DOWNLOADED and never back", () => {
    expect(generationCardReducer("INITIATED", { type: "job-status", status: "STARTING_TERRAFORMER" })).toBe(
      "INITIATED",
    );
    expect(generationCardReducer("INITIATED", { type: "downloaded" })).toBe("INITIATED");
    expect(generationCardReducer("INITIATED", { type: "job-status", status: "COMPLETED" })).toBe("READY");
    expect(generationCardReducer("READY", { type: "downloaded" })).toBe("DOWNLOADED");
    expect(generationCardReducer("DOWNLOADED", { type: "job-status", status: "COMPLETED" })).toBe(
      "DOWNLOADED",
    );
  });

  it("keep the download button loading while INITIATED or without a link", () => {
    expect(isDownloadPending("INITIATED", downloadUrl)).toBe(true);
    expect(isDownloadPending("READY", null)).toBe(true);
    expect(isDownloadPending("READY", downloadUrl)).toBe(false);
  });
});

describe("useGenerationCard", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it("simulates progress while generating and jumps to 100 when the job completes", () => {
    const { result, rerender } = renderCard({ status: "INITIATING" });
    expect(result.current.state).toBe("INITIATED");
    expect(result.current.downloadPending).toBe(true);
    act(() => vi.advanceTimersByTime(PROGRESS_TICK_MS * 3));
    expect(result.current.progress).toBe(15);
    rerender({ status: "STARTING_TERRAFORMER", downloadUrl: null });
    expect(result.current.state).toBe("INITIATED");
    rerender({ status: "COMPLETED", downloadUrl });
    expect(result.current.state).toBe("READY");
    expect(result.current.progress).toBe(100);
    expect(result.current.downloadPending).toBe(false);
  });

  it("turns the carousel every 5 s until the download, then stops", () => {
    const { result, rerender } = renderCard({ status: "INITIATING" });
    expect(result.current.slide).toBe(0);
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS - 1));
    expect(result.current.slide).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.slide).toBe(1);
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 4));
    expect(result.current.slide).toBe(0);
    rerender({ status: "COMPLETED", downloadUrl });
    act(() => result.current.downloaded());
    const slide = result.current.slide;
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 3));
    expect(result.current.slide).toBe(slide);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("records the download, forgets the region and keeps the job", () => {
    localStorage.setItem(REGION_STORAGE_KEY, "eu-west-1");
    localStorage.setItem(JOB_ID_STORAGE_KEY, "job-1");
    const { result, analytics } = renderCard({ status: "COMPLETED", downloadUrl });
    expect(result.current.state).toBe("READY");
    act(() => result.current.downloaded());
    expect(result.current.state).toBe("DOWNLOADED");
    expect(analytics.capture).toHaveBeenCalledExactlyOnceWith(TERRAFORM_DOWNLOADED_EVENT);
    expect(localStorage.getItem(REGION_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(JOB_ID_STORAGE_KEY)).toBe("job-1");
  });

  it("records nothing while there is nothing to download", () => {
    const { result, analytics } = renderCard({ status: "STARTING_TERRAFORMER" });
    act(() => result.current.downloaded());
    expect(result.current.state).toBe("INITIATED");
    expect(analytics.capture).not.toHaveBeenCalled();
  });

  it("starts over on 'Generate new Terraform': region and job forgotten, page reloaded", () => {
    localStorage.setItem(REGION_STORAGE_KEY, "eu-west-1");
    localStorage.setItem(JOB_ID_STORAGE_KEY, "job-1");
    const { result, reload } = renderCard({ status: "COMPLETED", downloadUrl });
    act(() => result.current.downloaded());
    act(() => result.current.generateNew());
    expect(localStorage.getItem(REGION_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(JOB_ID_STORAGE_KEY)).toBeNull();
    expect(reload).toHaveBeenCalledOnce();
  });
});
