import { useRevalidator } from "@remix-run/react";
import { usePolling } from "~/hooks/use-polling";

/** SPEC §9: the cloning state is refreshed every 5 minutes, also while the page is in the background. */
export const CLONE_STATE_REFRESH_MS = 5 * 60 * 1000;
/** While the platform is working through a step, the clone page looks again this often. */
export const RUNNING_CLONE_STEP_REFRESH_MS = 5_000;

/**
 * Reloads the page's data (the environment's stage and its cloning state) every `intervalMs` while `enabled`.
 * The loaders fetch the cloning state only while the stage is in progress (SPEC §4), so this refreshes it.
 */
export function useCloneStateRefresh({ enabled, intervalMs }: { enabled: boolean; intervalMs: number }) {
  const revalidator = useRevalidator();
  usePolling(
    () => {
      if (revalidator.state === "idle") revalidator.revalidate();
    },
    { intervalMs, enabled, leading: false },
  );
}
