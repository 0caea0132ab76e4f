import { useRevalidator } from "@remix-run/react";
import { usePolling } from "~/hooks/use-polling";
import { useRootData } from "~/hooks/use-root-data";

/**
 * SPEC's job polling: while the platform works on something a page shows (a deployment, a clone step, a
 * fastboot), the page looks again every 5 s. POLL_INTERVAL_MS overrides it (the end-to-end tests shorten it);
 * the root loader hands the configured value to the browser.
 */
export const DEFAULT_POLL_INTERVAL_MS = 5000;

/** The configured busy poll interval (root loader data), SPEC's 5 s without it. */
export function usePollInterval(): number {
  return useRootData()?.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
}

/**
 * The one "revalidate while busy" loop: while `enabled`, reloads the page's data every `intervalMs`, not at once
 * (the caller has just loaded it), and never while a reload is still under way. Revalidation keeps forms as they
 * are (they follow a new version only while clean), so it may run while someone edits.
 */
export function useRevalidateWhile(enabled: boolean, intervalMs: number) {
  const revalidator = useRevalidator();
  usePolling(
    () => {
      if (revalidator.state === "idle") revalidator.revalidate();
    },
    { intervalMs, enabled, leading: false },
  );
}

/** useRevalidateWhile at the busy poll interval (SPEC's 5 s unless configured). */
export function useRevalidateWhileBusy(busy: boolean) {
  useRevalidateWhile(busy, usePollInterval());
}
