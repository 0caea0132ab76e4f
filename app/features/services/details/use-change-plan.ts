import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { ChangePlan } from "#contract/change-plans";
import { servicePagePaths } from "../paths";

/** The pause after the last change before the plan is asked for again. */
const PLAN_DEBOUNCE_MS = 500;

/**
 * The plan of the configuration form's current values, asked for a pause after each change while the form differs
 * from what is saved (`dirty`); null before the first answer, when the form is incomplete, or once it is clean.
 */
export function useChangePlan({
  environmentName,
  serviceId,
  formId,
  formValue,
  dirty,
}: {
  environmentName: string;
  serviceId: string;
  formId: string;
  formValue: unknown;
  dirty: boolean;
}): ChangePlan | null {
  const fetcher = useFetcher<{ plan: ChangePlan | null }>();
  const { submit } = fetcher;
  const configKey = JSON.stringify((formValue as { config?: unknown } | undefined)?.config ?? null);
  const lastKey = useRef<string | null>(null);

  useEffect(() => {
    if (!dirty || configKey === lastKey.current) return;
    const timer = setTimeout(() => {
      const form = document.getElementById(formId);
      if (!(form instanceof HTMLFormElement)) return;
      lastKey.current = configKey;
      const query = new URLSearchParams();
      for (const [name, value] of new FormData(form)) {
        if (name.startsWith("config.") && typeof value === "string") query.append(name, value);
      }
      submit(query, { method: "get", action: servicePagePaths.changePlan(environmentName, serviceId) });
    }, PLAN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [configKey, dirty, environmentName, formId, serviceId, submit]);

  return dirty ? (fetcher.data?.plan ?? null) : null;
}
