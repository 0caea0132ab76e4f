import { estimateCostRequestSchema } from "#contract/environments";
import { errorMessages } from "#contract/errors";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { estimateEnvironmentCost } from "~/platform/environments.server";
import type { CostEstimateResult } from "./cost-estimate";

/**
 * The platform's estimate for a choice, as data rather than a thrown error: an estimate that cannot be had must
 * not take the form around it down with it.
 */
export async function loadCostEstimate(
  api: PlatformClient,
  tenantId: string,
  choice: { cloudProvider: unknown; region: unknown; addons?: unknown },
): Promise<CostEstimateResult> {
  const request = estimateCostRequestSchema.safeParse(choice);
  if (!request.success) {
    return { kind: "error", message: request.error.issues[0]?.message ?? errorMessages.generic };
  }
  try {
    return { kind: "estimate", estimate: await estimateEnvironmentCost(api, tenantId, request.data) };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return { kind: "error", message: error.message || errorMessages.generic };
  }
}
