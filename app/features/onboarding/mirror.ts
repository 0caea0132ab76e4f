import { useEffect } from "react";

/**
 * SPEC §3: the browser mirrors whether the organization's onboarding is in progress in local storage. The platform's
 * state is the truth: the onboarding pages write the mirror from it, finishing or dismissing clears it, and the
 * mirror only chooses where a link points (the error page's 'Take me home', the shell's way back to onboarding);
 * where it leads, the server decides again.
 */
export const ONBOARDING_STORAGE_KEY = "persist:onboarding-in-progress";

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readOnboardingMirror(storage = browserStorage()): boolean {
  try {
    return storage?.getItem(ONBOARDING_STORAGE_KEY) === "true";
  } catch {
    return false;
  }
}

export function writeOnboardingMirror(inProgress: boolean, storage = browserStorage()): void {
  try {
    if (inProgress) storage?.setItem(ONBOARDING_STORAGE_KEY, "true");
    else storage?.removeItem(ONBOARDING_STORAGE_KEY);
  } catch {
    // Storage blocked (private windows): links then go home, where the server decides.
  }
}

/** Keeps the mirror equal to the platform's state while an onboarding page shows it. */
export function useOnboardingMirror(inProgress: boolean): void {
  useEffect(() => writeOnboardingMirror(inProgress), [inProgress]);
}

/** The addresses a step's screen may go back to: the walk-through (at a step) or the overview, nothing else. */
const ONBOARDING_RETURN = /^\/onboarding(\/overview)?(\?step=[a-z-]+)?$/;

/**
 * A `returnTo` address into onboarding, the only kind the product's screens go back to after a step (any other
 * value gives null). A strict pattern rather than a general check: it is a same-origin path by construction.
 */
export function onboardingReturnTo(value: string | null | undefined): string | null {
  return value && ONBOARDING_RETURN.test(value) ? value : null;
}

/** `path` with `returnTo` added, so the screen it opens offers the way back to `returnTo`. */
export function withReturnTo(path: string, returnTo: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams({ returnTo })}`;
}
