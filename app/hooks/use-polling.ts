import { useEffect, useRef } from "react";

/**
 * The one polling hook: while `enabled`, calls `poll` at once and then every `intervalMs`. The latest `poll`
 * is always the one called, so callers need not memoise it; turning `enabled` off stops the timer.
 */
export function usePolling(
  poll: () => void,
  { intervalMs, enabled }: { intervalMs: number; enabled: boolean },
) {
  const latest = useRef(poll);
  useEffect(() => {
    latest.current = poll;
  });
  useEffect(() => {
    if (!enabled) return;
    latest.current();
    const timer = setInterval(() => latest.current(), intervalMs);
    return () => clearInterval(timer);
  }, [enabled, intervalMs]);
}
