import { Box, ScrollArea, Text } from "@mantine/core";
import { useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import type { LogLine } from "#contract/services";
import { mantineClasses } from "~/components/mantine-classes";
import { isAtBottom, logWindow, LOG_LINE_HEIGHT_PX } from "./log-window";

/** The box's height when full; the one it reports before it is laid out (happy-dom) is taken as this. */
const VIEWER_MAX_HEIGHT_PX = 480;

/** One height for every line (log-window.ts): a line does not wrap, the box scrolls sideways to its end. */
const lineStyle = {
  height: LOG_LINE_HEIGHT_PX,
  lineHeight: `${LOG_LINE_HEIGHT_PX}px`,
  fontSize: "var(--mantine-font-size-xs)",
  fontFamily: "'Roboto Mono', monospace",
  whiteSpace: "pre",
} as const;
const levelColors: Record<LogLine["level"], string> = {
  error: "var(--mantine-color-red-4)",
  warn: "var(--mantine-color-yellow-4)",
  info: "var(--mantine-color-gray-3)",
  debug: "var(--mantine-color-gray-6)",
};

// Scrollable by keyboard: the box is a region a user reads by scrolling. The browser's scroll anchoring is off:
// the viewer keeps the lines in place itself when the oldest drop off (it would move them twice).
const viewportProps = {
  tabIndex: 0,
  style: { overflowAnchor: "none" },
  "data-testid": "log-viewport",
} as const;

const neverChanges = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/**
 * Log lines in a monospace, dark viewer, each coloured by its level. Once the page runs, only the lines in view are
 * rendered (log-window.ts); the server renders them all (a tail or a search holds a few hundred), so the box scrolls
 * through every one without JavaScript. With `follow`, the box sticks to its last line as lines arrive, unless the
 * user scrolled up: `onFollowChange` says when that changes, and setting `follow.following` again jumps to the end.
 */
export function LogViewer({
  lines,
  label,
  empty,
  follow,
}: {
  lines: readonly LogLine[];
  label: string;
  empty: string;
  follow?: { following: boolean; onFollowChange: (following: boolean) => void };
}) {
  const viewport = useRef<HTMLDivElement>(null);
  const following = follow?.following ?? false;
  // The server renders every line, and so does hydration; a render in the browser after it renders those in view.
  const windowed = useSyncExternalStore(neverChanges, inBrowser, onServer);
  // Where the box is scrolled, once laid out; before that, at the end when following, else at the start.
  const [view, setView] = useState<{ scrollTop: number; height: number } | null>(null);

  // The lines of the last layout: when the oldest drop off the top (the tail's limit), the box scrolls up by as many
  // so that a user who scrolled up keeps reading the same lines.
  const laidOut = useRef(lines);
  useLayoutEffect(() => {
    const box = viewport.current;
    const previous = laidOut.current;
    laidOut.current = lines;
    if (!box) return;
    if (following) {
      box.scrollTop = box.scrollHeight;
    } else {
      const dropped = lines.length ? previous.findIndex((line) => line.id === lines[0]?.id) : -1;
      if (dropped > 0) box.scrollTop -= dropped * LOG_LINE_HEIGHT_PX;
    }
    setView({ scrollTop: box.scrollTop, height: box.clientHeight || VIEWER_MAX_HEIGHT_PX });
  }, [lines, following]);

  const onScroll = () => {
    const box = viewport.current;
    if (!box) return;
    setView({ scrollTop: box.scrollTop, height: box.clientHeight || VIEWER_MAX_HEIGHT_PX });
    const atBottom = isAtBottom(box);
    if (follow && atBottom !== follow.following) follow.onFollowChange(atBottom);
  };

  const shown = windowed
    ? logWindow({
        count: lines.length,
        scrollTop: view?.scrollTop ?? (following ? Infinity : 0),
        viewportHeight: view?.height ?? VIEWER_MAX_HEIGHT_PX,
      })
    : { start: 0, end: lines.length, paddingTop: 0, paddingBottom: 0 };
  return (
    <Box
      role="log"
      aria-label={label}
      bg="dark.8"
      p="sm"
      style={{ borderRadius: "var(--mantine-radius-sm)", fontFamily: "'Roboto Mono', monospace" }}
    >
      {lines.length ? (
        <ScrollArea.Autosize
          mah={VIEWER_MAX_HEIGHT_PX}
          viewportRef={viewport}
          onScrollPositionChange={onScroll}
          viewportProps={viewportProps}
        >
          <div style={{ paddingTop: shown.paddingTop, paddingBottom: shown.paddingBottom }}>
            {lines.slice(shown.start, shown.end).map((line) => (
              // Plain elements with Mantine's Text class; their style is here, not in the global style sheet every
              // page loads, since only this lazily loaded viewer shows log lines.
              <div
                key={line.id}
                className={mantineClasses.text}
                style={{ ...lineStyle, color: levelColors[line.level] }}
                data-level={line.level}
                data-testid="log-line"
              >
                {line.at.slice(0, 19).replace("T", " ")} [{line.level.toUpperCase()}] {line.podName}{" "}
                {line.message}
              </div>
            ))}
          </div>
        </ScrollArea.Autosize>
      ) : (
        <Text size="sm" c="gray.5" data-testid="logs-empty">
          {empty}
        </Text>
      )}
    </Box>
  );
}
