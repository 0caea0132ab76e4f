import * as z from "zod";
import { requiredText } from "./required-text";
import { patterns } from "./validation";

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

/**
 * "Acme Corp, Inc." → "acme-corp-inc": the identifier made from an organization's name, as the form fills it in
 * while the user types the name and as the app takes it when the identifier is left empty.
 */
export function suggestTenantName(displayName: string): string {
  return (
    displayName
      .normalize("NFKD")
      // Decomposed, "è" is "e" and a combining accent: the accent goes, the letter stays.
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "")
  );
}
