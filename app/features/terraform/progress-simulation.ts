import { useEffect, useState } from "react";

/** SPEC §4, §9: every 2 s the bar moves by a random step of up to 10, never past 70 before the job completes. */
export const PROGRESS_TICK_MS = 2000;
export const PROGRESS_MAX_STEP = 10;
export const PROGRESS_CEILING = 70;
export const PROGRESS_COMPLETE = 100;

/** The next value of the simulated bar; `random` is in [0, 1) (Math.random), the step between 1 and 10. */
export function nextProgress(value: number, random: number): number {
  if (value >= PROGRESS_CEILING) return value;
  const step = Math.min(PROGRESS_MAX_STEP, Math.max(1, Math.ceil(random * PROGRESS_MAX_STEP)));
  return Math.min(PROGRESS_CEILING, value + step);
}

/**
 * The bar's value: simulated while the job runs (the platform reports no percentage), 100 as soon as it has
 * completed. The timer stops once the ceiling or completion is reached.
 */
export function useSimulatedProgress(completed: boolean, random: () => number = Math.random): number {
  const [value, setValue] = useState(0);
  const atCeiling = value >= PROGRESS_CEILING;
  useEffect(() => {
    if (completed || atCeiling) return;
    const timer = setInterval(() => setValue((current) => nextProgress(current, random())), PROGRESS_TICK_MS);
    return () => clearInterval(timer);
  }, [completed, atCeiling, random]);
  return completed ? PROGRESS_COMPLETE : value;
}
