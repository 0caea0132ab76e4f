import * as z from "zod";
import { patterns, requiredText } from "./validation";

export const tenantSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  displayName: z.string(),
  approved: z.boolean(),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const tenantNameSchema = requiredText("Identifier", { min: 3, max: 40 }).regex(
  patterns.lowercaseAlphanumericHyphen.regex,
  patterns.lowercaseAlphanumericHyphen.message,
);
export const tenantDisplayNameSchema = requiredText("Organization name", { max: 80 });

export const createTenantRequestSchema = z.object({
  tenant: z.object({ name: tenantNameSchema, displayName: tenantDisplayNameSchema }),
});
export type CreateTenantRequest = z.infer<typeof createTenantRequestSchema>;

export const tenantResponseSchema = z.object({ tenant: tenantSchema });

export const tenantPaths = {
  create: () => "/tenant",
  one: (tenantId: string) => `/tenant/${encodeURIComponent(tenantId)}`,
};

/** "Acme Corp, Inc." → "acme-corp-inc": a suggested identifier for a display name. */
export function suggestTenantName(displayName: string): string {
  return displayName
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}
