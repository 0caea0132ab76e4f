import { z } from "zod";

export const featureFlagsSchema = z.object({ featureFlags: z.record(z.string(), z.boolean()) });
export type FeatureFlags = z.infer<typeof featureFlagsSchema>["featureFlags"];

export const featureFlagQuerySchema = z.object({
  organizationId: z.string().min(1, "organizationId is a required field"),
  environmentId: z.string().optional(),
});

export const featureFlagPaths = {
  list: ({ organizationId, environmentId }: { organizationId: string; environmentId?: string }) =>
    `/v2/feature-flags?${new URLSearchParams(environmentId ? { organizationId, environmentId } : { organizationId })}`,
};
