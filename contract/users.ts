/** Paths of SPEC §7 Users under /v2/organizations/{t}/ (issue 12). */
const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;

export const userPaths = {
  /** GET: the caller's effective permissions, in the organization and per environment. */
  permissions: (tenantId: string) => `${organization(tenantId)}/users/v2/permissions`,
};
