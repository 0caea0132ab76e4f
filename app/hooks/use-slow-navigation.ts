import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";

/** SPEC §2.7: navigations that take longer than about this show the loading overlay. */
export const SLOW_NAVIGATION_MS = 300;

/** True once `busy` has lasted `delayMs` without a break; false as soon as it ends. */
export function useDelayedFlag(busy: boolean, delayMs: number): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!busy) {
      setLate(false);
      return;
    }
    const timer = window.setTimeout(() => setLate(true), delayMs);
    return () => window.clearTimeout(timer);
  }, [busy, delayMs]);
  return busy && late;
}

/** True while a page navigation (a link or a form submission) has been running for more than `delayMs`. */
export function useSlowNavigation(delayMs = SLOW_NAVIGATION_MS): boolean {
  return useDelayedFlag(useNavigation().state !== "idle", delayMs);
}
