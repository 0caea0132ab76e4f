/** The app's invitation pages (SPEC §2.2 Users). */
export const invitationPagePaths = {
  members: "/settings/users",
  invite: "/settings/users/new",
  list: "/settings/users/invite",
  one: (email: string) => `/settings/users/${encodeURIComponent(email)}`,
};
