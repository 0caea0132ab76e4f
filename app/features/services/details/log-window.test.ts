import { describe, expect, it } from "vitest";
import { isAtBottom, logWindow, LOG_LINE_HEIGHT_PX } from "./log-window";

const lines = 100_000;
const viewportHeight = 480;
const totalHeight = lines * LOG_LINE_HEIGHT_PX;

describe("logWindow", () => {
  it("renders only the lines in view of 100,000, and the space of the others", () => {
    const top = logWindow({ count: lines, scrollTop: 0, viewportHeight });
    expect(top.start).toBe(0);
    expect(top.end - top.start).toBeLessThan(60);
    expect(top.paddingTop + (top.end - top.start) * LOG_LINE_HEIGHT_PX + top.paddingBottom).toBe(totalHeight);

    const bottom = logWindow({ count: lines, scrollTop: totalHeight - viewportHeight, viewportHeight });
    expect(bottom.end).toBe(lines);
    expect(bottom.end - bottom.start).toBeLessThan(60);
    expect(bottom.paddingBottom).toBe(0);
    expect(bottom.paddingTop).toBe(bottom.start * LOG_LINE_HEIGHT_PX);

    const middle = logWindow({ count: lines, scrollTop: 50_000 * LOG_LINE_HEIGHT_PX, viewportHeight });
    expect(middle.start).toBeLessThanOrEqual(50_000);
    expect(middle.end).toBeGreaterThanOrEqual(50_000 + viewportHeight / LOG_LINE_HEIGHT_PX);
  });

  it("renders every line of a short list", () => {
    expect(logWindow({ count: 500, scrollTop: 4000, viewportHeight })).toEqual({
      start: 0,
      end: 500,
      paddingTop: 0,
      paddingBottom: 0,
    });
  });

  it("stays inside the lines when scrolled past them (a list that just shrank) or with none", () => {
    expect(logWindow({ count: 10, scrollTop: 99_999, viewportHeight })).toEqual({
      start: 0,
      end: 10,
      paddingTop: 0,
      paddingBottom: 0,
    });
    expect(logWindow({ count: 0, scrollTop: 0, viewportHeight })).toEqual({
      start: 0,
      end: 0,
      paddingTop: 0,
      paddingBottom: 0,
    });
  });
});

describe("isAtBottom", () => {
  it("is true at the end, within a line of it, and false a screen above", () => {
    const at = (scrollTop: number) =>
      isAtBottom({ scrollTop, scrollHeight: totalHeight, clientHeight: viewportHeight });
    expect(at(totalHeight - viewportHeight)).toBe(true);
    expect(at(totalHeight - viewportHeight - LOG_LINE_HEIGHT_PX / 2)).toBe(true);
    expect(at(totalHeight - 2 * viewportHeight)).toBe(false);
  });
});
