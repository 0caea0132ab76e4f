import type { OrganizationClaim } from "#contract/identity";

export type CurrentOrganization = { id: string; name: string; displayName: string; tenantId: string };

/** The organization the user works in: the first of the identity token's organizations that has a tenant. */
export function currentOrganization(organizations: OrganizationClaim[]): CurrentOrganization | null {
  for (const organization of organizations) {
    const tenantId = organization.metadata.tenant_id;
    if (!tenantId) {
      console.error(`organization ${organization.id} has no tenant id`);
      continue;
    }
    return { id: organization.id, name: organization.name, displayName: organization.display_name, tenantId };
  }
  return null;
}
