import { useEffect, useState, type RefObject } from "react";

/** Longest wait for an idle moment: a busy page still gets its part after this. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * Whether a part that loads its own code (a chart) is wanted yet: after the page's load, once the browser is idle or
 * the part is in view, whichever comes first. Until then the page's start-up has the network and the main thread to
 * itself. False on the server and at hydration, so both render the same placeholder.
 */
export function useWhenWanted(ref: RefObject<Element | null>): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return;
    let stop = () => {};
    const watch = () => {
      const want = () => setWanted(true);
      // Safari has no requestIdleCallback: a timeout after the load event is the nearest it offers.
      let cancelIdle: () => void;
      if (typeof requestIdleCallback === "function") {
        const handle = requestIdleCallback(want, { timeout: IDLE_TIMEOUT_MS });
        cancelIdle = () => cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(want, 1);
        cancelIdle = () => window.clearTimeout(handle);
      }
      const observer =
        typeof IntersectionObserver === "function" && ref.current
          ? new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && want())
          : null;
      if (observer && ref.current) observer.observe(ref.current);
      stop = () => {
        cancelIdle();
        observer?.disconnect();
      };
    };
    if (document.readyState === "complete") {
      watch();
      return () => stop();
    }
    window.addEventListener("load", watch, { once: true });
    return () => {
      window.removeEventListener("load", watch);
      stop();
    };
  }, [ref, wanted]);
  return wanted;
}
