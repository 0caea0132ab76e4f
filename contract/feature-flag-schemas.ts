import * as z from "zod";
import type { FeatureFlags } from "./feature-flags";
import { messages } from "./validation";

export const featureFlagsSchema = z.object({
  featureFlags: z.record(z.string(), z.boolean()),
}) satisfies z.ZodType<{ featureFlags: FeatureFlags }>;

export const featureFlagQuerySchema = z.object({
  // The message is given for a missing parameter too; zod's own would otherwise reach the caller.
  organizationId: z
    .string({ error: messages.required("organizationId") })
    .min(1, messages.required("organizationId")),
  environmentId: z.string().optional(),
});
