// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLONE_STATE_REFRESH_MS } from "~/features/environments/use-clone-state-refresh";
import {
  DEFAULT_POLL_INTERVAL_MS,
  usePollInterval,
  useRevalidateWhile,
  useRevalidateWhileBusy,
} from "./use-revalidate-while";

const revalidator = vi.hoisted(() => ({ state: "idle" as "idle" | "loading", revalidate: vi.fn() }));
const root = vi.hoisted(() => ({ data: undefined as { pollIntervalMs: number } | undefined }));
vi.mock("@remix-run/react", () => ({
  useRevalidator: () => revalidator,
  useRouteLoaderData: (id: string) => (id === "root" ? root.data : undefined),
}));

beforeEach(() => {
  vi.useFakeTimers();
  revalidator.state = "idle";
  revalidator.revalidate.mockReset();
  root.data = undefined;
});
afterEach(() => vi.useRealTimers());

describe("useRevalidateWhile", () => {
  it("refreshes the clone state every 5 minutes (SPEC §9), not at once: the page was just loaded", () => {
    expect(CLONE_STATE_REFRESH_MS).toBe(300_000);
    renderHook(() => useRevalidateWhile(true, CLONE_STATE_REFRESH_MS));
    expect(revalidator.revalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CLONE_STATE_REFRESH_MS - 1);
    expect(revalidator.revalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CLONE_STATE_REFRESH_MS * 2);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(3);
  });

  it("keeps refreshing while the page is hidden", () => {
    renderHook(() => useRevalidateWhile(true, CLONE_STATE_REFRESH_MS));
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    vi.advanceTimersByTime(CLONE_STATE_REFRESH_MS);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
  });

  it("does nothing while not enabled and stops when it ends", () => {
    const { rerender } = renderHook(({ enabled }) => useRevalidateWhile(enabled, 5_000), {
      initialProps: { enabled: false },
    });
    vi.advanceTimersByTime(60_000);
    expect(revalidator.revalidate).not.toHaveBeenCalled();
    rerender({ enabled: true });
    vi.advanceTimersByTime(5_000);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
    rerender({ enabled: false });
    vi.advanceTimersByTime(60_000);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
  });

  it("does not start another refresh while one is under way", () => {
    renderHook(() => useRevalidateWhile(true, 5_000));
    revalidator.state = "loading";
    vi.advanceTimersByTime(5_000);
    expect(revalidator.revalidate).not.toHaveBeenCalled();
  });
});

describe("useRevalidateWhileBusy", () => {
  it("polls every 5 s (SPEC's job polling) when nothing is configured", () => {
    expect(DEFAULT_POLL_INTERVAL_MS).toBe(5000);
    expect(renderHook(() => usePollInterval()).result.current).toBe(5000);
    renderHook(() => useRevalidateWhileBusy(true));
    vi.advanceTimersByTime(4_999);
    expect(revalidator.revalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(1);
  });

  it("follows the interval the root loader hands over (POLL_INTERVAL_MS)", () => {
    root.data = { pollIntervalMs: 500 };
    renderHook(() => useRevalidateWhileBusy(true));
    vi.advanceTimersByTime(1_000);
    expect(revalidator.revalidate).toHaveBeenCalledTimes(2);
  });
});
