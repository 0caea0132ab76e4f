// @vitest-environment happy-dom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useWhenWanted } from "./use-when-wanted";

// The browser's own scheduling, which happy-dom lacks or never fires: an idle callback and a viewport observer whose
// callbacks the test calls when it wants (a chart's visitor scrolling, the main thread going quiet).
let idleCallbacks: Array<() => void> = [];
let observed: Array<(entries: Array<{ isIntersecting: boolean }>) => void> = [];
beforeEach(() => {
  idleCallbacks = [];
  observed = [];
  vi.stubGlobal("requestIdleCallback", (callback: () => void) => idleCallbacks.push(callback));
  vi.stubGlobal("cancelIdleCallback", () => {});
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
        observed.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
  Object.defineProperty(document, "readyState", { value: "complete", configurable: true });
});
afterEach(() => vi.unstubAllGlobals());

const element = () => ({ current: document.createElement("div") });

describe("useWhenWanted", () => {
  it("waits while the page starts: no chart's code is wanted before the browser is idle or the chart in view", () => {
    const { result } = renderHook(() => useWhenWanted(element()));
    expect(result.current).toBe(false);
  });

  it("is wanted once the browser is idle", () => {
    const { result } = renderHook(() => useWhenWanted(element()));
    act(() => idleCallbacks.forEach((callback) => callback()));
    expect(result.current).toBe(true);
  });

  it("is wanted as soon as it scrolls into view, idle or not", () => {
    const { result } = renderHook(() => useWhenWanted(element()));
    act(() => observed.forEach((callback) => callback([{ isIntersecting: false }])));
    expect(result.current).toBe(false);
    act(() => observed.forEach((callback) => callback([{ isIntersecting: true }])));
    expect(result.current).toBe(true);
  });

  it("waits for the page's load before anything else: start-up keeps the network", () => {
    Object.defineProperty(document, "readyState", { value: "interactive", configurable: true });
    const { result } = renderHook(() => useWhenWanted(element()));
    expect(idleCallbacks).toHaveLength(0);
    expect(observed).toHaveLength(0);
    act(() => {
      Object.defineProperty(document, "readyState", { value: "complete", configurable: true });
      window.dispatchEvent(new Event("load"));
    });
    act(() => idleCallbacks.forEach((callback) => callback()));
    expect(result.current).toBe(true);
  });
});
