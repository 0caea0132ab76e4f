// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  CLONE_STATE_REFRESH_MS,
  RUNNING_CLONE_STEP_REFRESH_MS,
  useCloneStateRefresh,
} from "./use-clone-state-refresh";

const revalidator = vi.hoisted(() => ({ state: "idle" as "idle" | "loading", revalidate: vi.fn() }));
vi.mock("@remix-run/react", () => ({ useRevalidator: () => revalidator }));

beforeEach(() => {
  vi.useFakeTimers();
  revalidator.state = "idle";
  revalidator.revalidate.mockReset();
});
afterEach(() => vi.useRealTimers());

describe("useCloneStateRefresh", () => {
  it("refreshes every 5 minutes (SPEC §9), not at once: the page was just loaded", () => {
    expect(CLONE_STATE_REFRESH_MS).toBe(300_000);
    renderHook(() => useCloneStateRefresh({ enabled: true, intervalMs: CLONE_STATE_REFRESH_MS }));
    expect(revalidator.revalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CLONE_STATE_REFRESH_MS - 1);
    expect(revalidator.revalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CLONE_STATE_REFRESH_MS * 2);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(3);
  });

  it("keeps refreshing while the page is hidden", () => {
    renderHook(() => useCloneStateRefresh({ enabled: true, intervalMs: CLONE_STATE_REFRESH_MS }));
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    vi.advanceTimersByTime(CLONE_STATE_REFRESH_MS);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
  });

  it("does nothing while not enabled (the stage is not in progress) and stops when it ends", () => {
    const { rerender } = renderHook(({ enabled }) => useCloneStateRefresh({ enabled, intervalMs: 5_000 }), {
      initialProps: { enabled: false },
    });
    vi.advanceTimersByTime(60_000);
    expect(revalidator.revalidate).not.toHaveBeenCalled();
    rerender({ enabled: true });
    vi.advanceTimersByTime(RUNNING_CLONE_STEP_REFRESH_MS);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
    rerender({ enabled: false });
    vi.advanceTimersByTime(60_000);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
  });

  it("does not start another refresh while one is under way", () => {
    renderHook(() => useCloneStateRefresh({ enabled: true, intervalMs: 5_000 }));
    revalidator.state = "loading";
    vi.advanceTimersByTime(5_000);
    expect(revalidator.revalidate).not.toHaveBeenCalled();
  });
});
