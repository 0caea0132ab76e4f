import { useEffect, useState } from "react";

/**
 * The version a form edits. It follows the service's version while the form is clean, so a clean form shows what
 * the polling brought; while the user edits it stays put, so a revalidation never throws their input away. Forms
 * put it in their id: when it changes, conform starts the form afresh from the new values.
 */
export function useFormBaseline(version: number) {
  return useState(version);
}

/** Moves the baseline to the service's version once the form is clean. */
export function useFollowVersion(
  version: number,
  dirty: boolean,
  [baseline, setBaseline]: ReturnType<typeof useFormBaseline>,
) {
  useEffect(() => {
    if (!dirty && version !== baseline) setBaseline(version);
  }, [dirty, version, baseline, setBaseline]);
}
