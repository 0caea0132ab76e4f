import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { ServiceType } from "#contract/service-catalogue";
import type { CostEstimateResult } from "~/features/environments/cost-estimate";
import { servicePagePaths } from "../paths";
import { expandListFields } from "./list-fields";

/** The pause after the last change before the estimate is asked for again. */
const ESTIMATE_DEBOUNCE_MS = 500;

/**
 * The estimate of the form's current configuration: the one the page loaded, then, a pause after each change, the
 * one the estimate resource route answers for the form's fields. `formValue` is conform's `form.value`.
 */
export function useServiceCostEstimate({
  initial,
  environmentName,
  serviceType,
  formId,
  formValue,
}: {
  initial: CostEstimateResult;
  environmentName: string;
  serviceType: ServiceType;
  formId: string;
  formValue: unknown;
}) {
  const fetcher = useFetcher<CostEstimateResult>();
  const { submit } = fetcher;
  const value = formValue as { config?: unknown; subjectAlternativeNamesText?: unknown } | undefined;
  const configKey = JSON.stringify([value?.config ?? null, value?.subjectAlternativeNamesText ?? null]);
  const lastKey = useRef(configKey);

  useEffect(() => {
    if (configKey === lastKey.current) return;
    lastKey.current = configKey;
    const timer = setTimeout(() => {
      const form = document.getElementById(formId);
      if (!(form instanceof HTMLFormElement)) return;
      const query = new URLSearchParams();
      for (const [name, value] of expandListFields(new FormData(form))) {
        // Only the configuration counts; the name, the intent and conform's own fields do not.
        if (name.startsWith("config.") && typeof value === "string") query.append(name, value);
      }
      query.set("serviceType", serviceType);
      submit(query, { method: "get", action: servicePagePaths.estimateCost(environmentName) });
    }, ESTIMATE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [configKey, environmentName, formId, serviceType, submit]);

  return { result: fetcher.data ?? initial, loading: fetcher.state !== "idle" };
}
