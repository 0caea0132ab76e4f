/** The app's own addresses of the team pages (SPEC §2.2 Users). */
export const teamPagePaths = {
  members: "/settings/users",
  /** Inviting people (the invitations' page). */
  invite: "/settings/users/new",
  member: (userId: string) => `/settings/users/${encodeURIComponent(userId)}`,
  editMember: (userId: string) => `/settings/users/${encodeURIComponent(userId)}/edit`,
  organizationOverview: "/settings/users/organization-overview",
  /** The roles, built-in and custom. */
  roles: "/settings/users/roles",
  newRole: "/settings/users/roles/new",
  editRole: (roleId: string) => `/settings/users/roles/${encodeURIComponent(roleId)}/edit`,
};
