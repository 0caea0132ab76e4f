/**
 * A log viewer's windowing: of however many lines (100,000 stay fluid), only those in view and a few around them
 * are rendered; padding above and below keeps the scroll bar true. Every line has one height, so where each
 * one is follows from its index.
 */

/** The height of one log line (log-viewer.tsx): lines do not wrap, the box scrolls sideways. */
export const LOG_LINE_HEIGHT_PX = 20;
/**
 * Below this many lines every one is rendered: windowing pays off for long lists only, and a short one stays whole
 * for the browser's find-in-page. The live tail keeps fewer (TAIL_LOGS_LOG_LIMIT).
 */
const WINDOWED_FROM_LINES = 1000;
/** Lines rendered beyond each edge of the view, so a fast scroll does not show blank rows. */
const OVERSCAN_LINES = 10;

export type LogWindow = { start: number; end: number; paddingTop: number; paddingBottom: number };

/** The lines `[start, end)` to render for a box of `viewportHeight` scrolled to `scrollTop`. */
export function logWindow({
  count,
  scrollTop,
  viewportHeight,
}: {
  count: number;
  scrollTop: number;
  viewportHeight: number;
}): LogWindow {
  if (count < WINDOWED_FROM_LINES) return { start: 0, end: count, paddingTop: 0, paddingBottom: 0 };
  const inView = Math.ceil(viewportHeight / LOG_LINE_HEIGHT_PX);
  // A box scrolled past the end of a list that just shrank shows its last lines.
  const first = Math.min(
    Math.max(0, Math.floor(scrollTop / LOG_LINE_HEIGHT_PX)),
    Math.max(0, count - inView),
  );
  const start = Math.max(0, first - OVERSCAN_LINES);
  const end = Math.min(count, first + inView + OVERSCAN_LINES);
  return {
    start,
    end,
    paddingTop: start * LOG_LINE_HEIGHT_PX,
    paddingBottom: (count - end) * LOG_LINE_HEIGHT_PX,
  };
}

/** Whether a box shows its last line: the tail follows new lines only then (within half a line, for rounding). */
export function isAtBottom(box: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= LOG_LINE_HEIGHT_PX / 2;
}
