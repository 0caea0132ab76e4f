import { z } from "zod";
import { patterns, requiredText } from "./validation";

export const tenantSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  displayName: z.string(),
  approved: z.boolean(),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const createTenantRequestSchema = z.object({
  tenant: z.object({
    name: requiredText("Name", { min: 3, max: 40 }).regex(
      patterns.lowercaseAlphanumericHyphen.regex,
      patterns.lowercaseAlphanumericHyphen.message,
    ),
    displayName: requiredText("Display name", { max: 80 }),
  }),
});
export type CreateTenantRequest = z.infer<typeof createTenantRequestSchema>;

export const tenantResponseSchema = z.object({ tenant: tenantSchema });

export const tenantPaths = {
  create: () => "/tenant",
  one: (tenantId: string) => `/tenant/${encodeURIComponent(tenantId)}`,
};
