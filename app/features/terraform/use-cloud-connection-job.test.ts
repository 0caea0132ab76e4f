// @vitest-environment happy-dom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CloudConnectionJob } from "#contract/tools";
import type { JobPollResult, StartedJob } from "./job-poll";
import { JOB_ID_STORAGE_KEY, REGION_STORAGE_KEY } from "./job-storage";
import { JOB_POLL_INTERVAL_MS, REDIRECT_DELAY_MS, useCloudConnectionJob } from "./use-cloud-connection-job";

const now = new Date("2026-03-01T10:00:00Z").getTime();

function jobWith(overrides: Partial<CloudConnectionJob> = {}): CloudConnectionJob {
  return {
    id: "job-1",
    status: "INITIATING",
    details: null,
    redirectURL:
      "https://console.aws.amazon.com/cloudformation/home?region=eu-west-1#/stacks/quickcreate?x=1",
    downloadURL: null,
    downloadURLExpirationTime: 0,
    awsAccountID: "123456789012",
    awsAccountRegion: "eu-west-1",
    roleName: "CloudConsoleReadOnly-abc",
    createdAt: new Date(now).toISOString(),
    ...overrides,
  };
}

function renderJob(startedJob: StartedJob | null = null) {
  const load = vi.fn();
  const notify = vi.fn();
  const openWindow = vi.fn();
  const view = renderHook(
    ({ started, result }: { started: StartedJob | null; result: JobPollResult | undefined }) =>
      useCloudConnectionJob(started, { load, result, notify, openWindow, now: () => Date.now() }),
    { initialProps: { started: startedJob, result: undefined as JobPollResult | undefined } },
  );
  const answer = (result: JobPollResult) => view.rerender({ started: startedJob, result });
  return { ...view, load, notify, openWindow, answer };
}

beforeEach(() => {
  vi.useFakeTimers({ now });
  localStorage.clear();
});
afterEach(() => vi.useRealTimers());

describe("without a stored job", () => {
  it("shows the form and polls nothing", () => {
    const { result, load } = renderJob();
    expect(result.current.jobId).toBeNull();
    act(() => vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS * 3));
    expect(load).not.toHaveBeenCalled();
  });
});

describe("a job the form just created", () => {
  const started: StartedJob = {
    id: "job-1",
    redirectURL: jobWith().redirectURL,
    awsAccountRegion: "eu-west-1",
  };

  it("is stored once with its region and opens the AWS console after 1 s", () => {
    const { result, openWindow, rerender } = renderJob(started);
    expect(localStorage.getItem(JOB_ID_STORAGE_KEY)).toBe("job-1");
    expect(localStorage.getItem(REGION_STORAGE_KEY)).toBe("eu-west-1");
    expect(result.current.redirectUrl).toBe(started.redirectURL);
    act(() => vi.advanceTimersByTime(REDIRECT_DELAY_MS - 1));
    expect(openWindow).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(openWindow).toHaveBeenCalledExactlyOnceWith(started.redirectURL);
    localStorage.setItem(JOB_ID_STORAGE_KEY, "changed elsewhere");
    rerender({ started, result: undefined });
    act(() => vi.advanceTimersByTime(REDIRECT_DELAY_MS * 2));
    expect(openWindow).toHaveBeenCalledOnce();
    expect(localStorage.getItem(JOB_ID_STORAGE_KEY)).toBe("changed elsewhere");
  });

  it("is polled at once and every 5 s until it is COMPLETED", () => {
    const { result, load, answer } = renderJob(started);
    expect(load).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS));
    expect(load).toHaveBeenCalledTimes(2);
    answer({ kind: "job", job: jobWith({ status: "STARTING_TERRAFORMER" }) });
    expect(result.current.job?.status).toBe("STARTING_TERRAFORMER");
    expect(result.current.redirectUrl).toBeNull();
    act(() => vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS));
    expect(load).toHaveBeenCalledTimes(3);
    const expiresAt = now / 1000 + 86_400;
    answer({
      kind: "job",
      job: jobWith({
        status: "COMPLETED",
        downloadURL: "http://x/y.zip",
        downloadURLExpirationTime: expiresAt,
      }),
    });
    expect(result.current.job?.status).toBe("COMPLETED");
    act(() => vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS * 5));
    expect(load).toHaveBeenCalledTimes(3);
    expect(load).toHaveBeenCalledWith("job-1");
  });
});

describe("a stored job", () => {
  beforeEach(() => localStorage.setItem(JOB_ID_STORAGE_KEY, "job-1"));

  it("that FAILED shows its details in an error toast and is forgotten", () => {
    const { result, notify, load, answer } = renderJob();
    expect(result.current.jobId).toBe("job-1");
    answer({ kind: "job", job: jobWith({ status: "FAILED", details: "The role could not be assumed" }) });
    expect(notify).toHaveBeenCalledExactlyOnceWith({
      id: "cloud-connection-failed-job-1",
      variant: "error",
      message: "The role could not be assumed",
    });
    expect(result.current.jobId).toBeNull();
    expect(localStorage.getItem(JOB_ID_STORAGE_KEY)).toBeNull();
    const calls = load.mock.calls.length;
    act(() => vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS * 2));
    expect(load).toHaveBeenCalledTimes(calls);
  });

  it("whose download link has expired is forgotten", () => {
    const { result, answer } = renderJob();
    answer({
      kind: "job",
      job: jobWith({
        status: "COMPLETED",
        downloadURL: "http://x/y.zip",
        downloadURLExpirationTime: now / 1000 - 1,
      }),
    });
    expect(result.current.jobId).toBeNull();
    expect(localStorage.getItem(JOB_ID_STORAGE_KEY)).toBeNull();
  });

  it("that the platform no longer knows is forgotten", () => {
    const { result, answer } = renderJob();
    answer({ kind: "not-found" });
    expect(result.current.jobId).toBeNull();
  });

  it("whose poll fails shows the message in an error toast and keeps polling", () => {
    const { result, notify, load, answer } = renderJob();
    answer({ kind: "error", message: "Could not establish link with server" });
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ variant: "error", message: "Could not establish link with server" }),
    );
    expect(result.current.jobId).toBe("job-1");
    const calls = load.mock.calls.length;
    act(() => vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS));
    expect(load).toHaveBeenCalledTimes(calls + 1);
  });
});
