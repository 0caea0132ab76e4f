import { useEffect, useState } from "react";
import type { ServiceActionData } from "./action-data";

/**
 * The version a form edits and the values it started from. Both follow the service while the form is clean, so a
 * clean form shows what the polling (or a save) brought; while the user edits they stay put, so a revalidation
 * never throws their input away. Forms put the version in their id (when it changes, conform starts the form
 * afresh) and take their defaults from the baseline, so "dirty" is measured against what the form showed, not
 * against newer values it has not taken yet (a saved draft that differs from the live configuration, another
 * person's change).
 */
export function useFormBaseline<Values>(version: number, values: Values) {
  const [baseline, setBaseline] = useState({ version, values });
  return [baseline, setBaseline] as const;
}

/** Moves the baseline to the service's version and values once the form is clean. */
export function useFollowVersion<Values>(
  version: number,
  values: Values,
  dirty: boolean,
  [baseline, setBaseline]: ReturnType<typeof useFormBaseline<Values>>,
) {
  useEffect(() => {
    if (!dirty && version !== baseline.version) setBaseline({ version, values });
  }, [dirty, version, values, baseline.version, setBaseline]);
}

/**
 * The conflict of the form's last refused save, kept until the form's next answer: a revalidation (the page polls
 * while the service is busy, as after someone else's settings change) clears the action data, and without the
 * conflict's version the next save would be refused as stale again. Dropped once the form follows a newer version.
 */
export function useConflict(actionData: ServiceActionData | undefined, baselineVersion: number) {
  const [conflict, setConflict] = useState(actionData?.conflict);
  useEffect(() => {
    if (actionData) setConflict(actionData.conflict);
  }, [actionData]);
  return conflict && conflict.version >= baselineVersion ? conflict : undefined;
}
