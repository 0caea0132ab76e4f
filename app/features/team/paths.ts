/** The app's own addresses of the team pages (SPEC §2.2 Users). */
export const teamPagePaths = {
  members: "/settings/users",
  /** Inviting people (the invitations' page). */
  invite: "/settings/users/new",
  /** A member's page by user id; an e-mail address in its place opens the same page (SPEC §2.2 /{email}). */
  member: (userId: string) => `/settings/users/${encodeURIComponent(userId)}`,
  editMember: (userId: string) => `/settings/users/${encodeURIComponent(userId)}/edit`,
  organizationOverview: "/settings/users/organization-overview",
  /** The roles, built-in and custom. */
  roles: "/settings/users/roles",
  newRole: "/settings/users/roles/new",
  /** The organization's service accounts and their API tokens (decision 070). */
  serviceAccounts: "/settings/users/service-accounts",
  editRole: (roleId: string) => `/settings/users/roles/${encodeURIComponent(roleId)}/edit`,
};

/** User ids never hold an "@" (user_…, or the identity provider's subject): a path segment with one is an address. */
export function isEmailAddress(segment: string): boolean {
  return segment.includes("@");
}
