import { useBlocker, type Blocker, type BlockerFunction } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";

export type UnsavedChangesOptions = {
  /**
   * Only submissions of the form with this id count as leaving on purpose (conform: `form.id`). Without it,
   * submitting any form of the page does.
   */
  formId?: string;
};

/** The name of conform's reserved intent field. */
const CONFORM_INTENT = "__intent__";

/**
 * Whether a submit event is someone submitting the form. Conform validates on blur (the blur caused by
 * clicking a link, for example) by submitting through a hidden `__intent__` button and cancelling it; its
 * list buttons use the same name. Neither leaves the page.
 */
export function isUserSubmission(event: Pick<SubmitEvent, "submitter">): boolean {
  const submitter = event.submitter;
  if (!(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement)) return true;
  return !submitter.hidden && submitter.name !== CONFORM_INTENT;
}

/**
 * SPEC §2.7: while `isDirty`, navigating away is held for the unsaved-changes dialog (render
 * `<UnsavedChangesDialog blocker={...} />` with the returned blocker) and unloading the page asks the
 * browser's own question. Submitting the form is not leaving it: those navigations pass.
 */
export function useUnsavedChanges(isDirty: boolean, { formId }: UnsavedChangesOptions = {}): Blocker {
  // Set during the submit event of the guarded form; Remix starts the submission's navigation synchronously
  // inside that event, so the blocker function below still sees it, and it is cleared right after.
  const submitting = useRef(false);

  useEffect(() => {
    if (!isDirty) return;
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (formId && !(form instanceof HTMLFormElement && form.id === formId)) return;
      if (!isUserSubmission(event)) return;
      submitting.current = true;
      window.setTimeout(() => {
        submitting.current = false;
      }, 0);
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (submitting.current) return;
      event.preventDefault();
      // Older browsers show the question only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("submit", onSubmit, true);
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      window.removeEventListener("submit", onSubmit, true);
      window.removeEventListener("beforeunload", onBeforeUnload);
    };
  }, [isDirty, formId]);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      isDirty &&
      !submitting.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [isDirty],
  );
  return useBlocker(shouldBlock);
}
