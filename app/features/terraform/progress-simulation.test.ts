// @vitest-environment happy-dom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  nextProgress,
  PROGRESS_CEILING,
  PROGRESS_TICK_MS,
  useSimulatedProgress,
} from "./progress-simulation";

describe("nextProgress", () => {
  it("adds a random step between 1 and 10", () => {
    expect(nextProgress(0, 0)).toBe(1);
    expect(nextProgress(0, 0.05)).toBe(1);
    expect(nextProgress(0, 0.55)).toBe(6);
    expect(nextProgress(20, 0.999)).toBe(30);
  });

  it("never passes 70 and stays there", () => {
    expect(nextProgress(65, 0.999)).toBe(PROGRESS_CEILING);
    expect(nextProgress(70, 0.5)).toBe(PROGRESS_CEILING);
  });
});

describe("useSimulatedProgress", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("moves every 2 s by the random step while the job runs", () => {
    const steps = [0.25, 0.75, 0.05];
    const { result } = renderHook(() => useSimulatedProgress(false, () => steps.shift() ?? 0.5));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(PROGRESS_TICK_MS - 1));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(3);
    act(() => vi.advanceTimersByTime(PROGRESS_TICK_MS));
    expect(result.current).toBe(11);
    act(() => vi.advanceTimersByTime(PROGRESS_TICK_MS));
    expect(result.current).toBe(12);
  });

  it("is never above 70 before completion, however long the job takes", () => {
    const { result } = renderHook(() => useSimulatedProgress(false, () => 0.999));
    for (let tick = 0; tick < 50; tick++) {
      act(() => vi.advanceTimersByTime(PROGRESS_TICK_MS));
      expect(result.current).toBeLessThanOrEqual(PROGRESS_CEILING);
    }
    expect(result.current).toBe(PROGRESS_CEILING);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("jumps to 100 when the job completes and stops ticking", () => {
    const { result, rerender } = renderHook(({ completed }) => useSimulatedProgress(completed, () => 0.5), {
      initialProps: { completed: false },
    });
    act(() => vi.advanceTimersByTime(PROGRESS_TICK_MS * 2));
    expect(result.current).toBe(10);
    rerender({ completed: true });
    expect(result.current).toBe(100);
    expect(vi.getTimerCount()).toBe(0);
  });
});
