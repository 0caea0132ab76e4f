import * as z from "zod";

/** One entry of the ID token's `organizations` claim (SPEC §3). */
export const organizationClaimSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string(),
  metadata: z.object({ tenant_id: z.string().optional() }).default({}),
});
export type OrganizationClaim = z.infer<typeof organizationClaimSchema>;

export const ORGANIZATIONS_CLAIM = "organizations";

export const healthSchema = z.object({ status: z.literal("ok") });
