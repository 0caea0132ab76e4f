import type { OrganizationClaim } from "#contract/identity";

export type CurrentOrganization = { id: string; name: string; displayName: string; tenantId: string };

/** First hostname labels that name the product itself, never an organization (SPEC §9). */
export const PRODUCT_HOST_LABELS = ["localhost", "app-dev", "staging", "app"];

/** The organizations the product can work in: those with a tenant. One without is logged as an exception. */
export function usableOrganizations(organizations: OrganizationClaim[]): CurrentOrganization[] {
  return organizations.flatMap((organization) => {
    const tenantId = organization.metadata.tenant_id;
    if (!tenantId) {
      console.error(
        JSON.stringify({
          level: "error",
          action: "organization-without-tenant",
          organizationId: organization.id,
        }),
      );
      return [];
    }
    return [
      { id: organization.id, name: organization.name, displayName: organization.display_name, tenantId },
    ];
  });
}

/** The organization named by a hostname's first label (acme-corp.console.example → acme-corp), if any. */
export function subdomainOrganizationName(hostname: string): string | null {
  const labels = hostname.toLowerCase().split(".");
  if (labels.length < 2) return null;
  const first = labels[0] ?? "";
  if (!first || PRODUCT_HOST_LABELS.includes(first) || /^\d+$/.test(first)) return null;
  return first;
}

/**
 * SPEC §4 organization resolution: the switchOrg query parameter, else the stored organization, else the one
 * matching the current subdomain, else the first. Each candidate counts only if the user belongs to it.
 */
export function resolveOrganization(
  organizations: OrganizationClaim[],
  {
    switchOrg,
    storedId,
    hostname,
  }: { switchOrg?: string | null; storedId?: string | null; hostname: string },
): CurrentOrganization | null {
  const usable = usableOrganizations(organizations);
  const byIdOrName = (value: string | null | undefined) =>
    value
      ? usable.find((organization) => organization.id === value || organization.name === value)
      : undefined;
  const subdomain = subdomainOrganizationName(hostname);
  return (
    byIdOrName(switchOrg) ??
    byIdOrName(storedId) ??
    (subdomain ? usable.find((organization) => organization.name === subdomain) : undefined) ??
    usable[0] ??
    null
  );
}
