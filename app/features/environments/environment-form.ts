import * as z from "zod";
import { cloudProviderSchema } from "#contract/cloud-provider-schema";
import { isRegionOf } from "#contract/cloud-providers";
import { createEnvironmentRequestSchema } from "#contract/environments";
import { cloudProviderLabels } from "./cloud-regions";

/**
 * The create (and clone) form: the contract's request, plus the region checked against the chosen provider's
 * catalogue so a mismatch is explained at the region field. Cloning names the source in a hidden field.
 * The cloud account is optional.
 */
export const environmentFormSchema = createEnvironmentRequestSchema
  .extend({
    sourceEnvironmentId: z.string().trim().min(1).optional(),
    // A cleared choice is an empty field: no cloud account.
    cloudConnectionId: createEnvironmentRequestSchema.shape.cloudConnectionId.unwrap().unwrap().optional(),
  })
  .superRefine((value, context) => {
    if (!isRegionOf(value.cloudProvider, value.region)) {
      context.addIssue({
        code: "custom",
        path: ["region"],
        message: `Choose a region of ${cloudProviderLabels[value.cloudProvider]}`,
      });
    }
  });

export function parseCloudProvider(value: unknown) {
  const parsed = cloudProviderSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
