import { useEffect, useRef } from "react";

/**
 * The one polling hook: while `enabled`, calls `poll` at once (unless `leading` is false: the caller already
 * has fresh data) and then every `intervalMs`. The latest `poll` is always the one called, so callers need not
 * memoise it; turning `enabled` off stops the timer. The timer keeps running while the page is in the background.
 */
export function usePolling(
  poll: () => void,
  { intervalMs, enabled, leading = true }: { intervalMs: number; enabled: boolean; leading?: boolean },
) {
  const latest = useRef(poll);
  useEffect(() => {
    latest.current = poll;
  });
  useEffect(() => {
    if (!enabled) return;
    if (leading) latest.current();
    const timer = setInterval(() => latest.current(), intervalMs);
    return () => clearInterval(timer);
  }, [enabled, intervalMs, leading]);
}
