import { parseSubmission } from "~/components/parse-submission.server";
import * as z from "zod";
import { errorMessages } from "#contract/errors";
import type { CreatableServiceType, ServiceType } from "#contract/service-catalogue";
import type { CostEstimateResult } from "~/features/environments/cost-estimate";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { estimateServiceCost } from "~/platform/services.server";
import { applicationFormFieldsSchema, applicationFormSchemaOf } from "~/features/applications/create-form";
import { estimateConfigSchema } from "./create-form";

/** Shown instead of an estimate while the configuration does not pass its rules yet. */
export const INCOMPLETE_CONFIG_HINT = "Complete the configuration to see an estimate.";

type Target = { api: PlatformClient; tenantId: string; environmentId: string };

/** The platform's estimate of a configuration, as data: an estimate that fails must not take the form down. */
export async function loadServiceCostEstimate(
  { api, tenantId, environmentId }: Target,
  serviceType: CreatableServiceType,
  config: unknown,
): Promise<CostEstimateResult> {
  const parsed = estimateConfigSchema(serviceType).safeParse(config);
  if (!parsed.success) return { kind: "error", message: INCOMPLETE_CONFIG_HINT };
  return estimateOf(target(api, tenantId, environmentId), serviceType, parsed.data);
}

/** The same for a create form's submitted fields (`config.engine`, ...). */
export async function loadServiceCostEstimateFromForm(
  { api, tenantId, environmentId }: Target,
  serviceType: CreatableServiceType,
  formData: FormData | URLSearchParams,
): Promise<CostEstimateResult> {
  const submission = parseSubmission(formData, {
    schema: z.object({ config: estimateConfigSchema(serviceType) }),
  });
  if (submission.status !== "success") return { kind: "error", message: INCOMPLETE_CONFIG_HINT };
  return estimateOf(target(api, tenantId, environmentId), serviceType, submission.value.config);
}

/** The same for the application create form's fields (its config, read as that form reads it). */
export async function loadApplicationCostEstimateFromForm(
  { api, tenantId, environmentId }: Target,
  formData: FormData | URLSearchParams,
): Promise<CostEstimateResult> {
  const submission = parseSubmission(formData, {
    schema: applicationFormSchemaOf(applicationFormFieldsSchema.pick({ config: true })),
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") return { kind: "error", message: INCOMPLETE_CONFIG_HINT };
  return estimateOf(target(api, tenantId, environmentId), "application", submission.value.config);
}

const target = (api: PlatformClient, tenantId: string, environmentId: string) => ({
  api,
  tenantId,
  environmentId,
});

async function estimateOf(
  { api, tenantId, environmentId }: Target,
  serviceType: ServiceType,
  config: Record<string, unknown>,
): Promise<CostEstimateResult> {
  try {
    return {
      kind: "estimate",
      estimate: await estimateServiceCost(api, tenantId, environmentId, { serviceType, config }),
    };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return { kind: "error", message: error.message || errorMessages.generic };
  }
}
