import type { Permission } from "#contract/permissions";
import { allows, type ShellPermissions } from "~/features/permissions/permissions";

/** The settings area (SPEC §2.2 Users and Connections, issue 12 audit log). */
export const settingsPaths = {
  members: "/settings/users",
  invitations: "/settings/users/invite",
  roles: "/settings/users/roles",
  organizationOverview: "/settings/users/organization-overview",
  auditLog: "/settings/audit-log",
  /** A member's own API tokens (decision 070). */
  apiTokens: "/settings/api-tokens",
  /** The connections' cards; contract/connections.ts's connectionPages has every connections page. */
  connections: "/settings/connections",
  /** The platform API's reference, from its OpenAPI document (decision 071). */
  apiReference: "/settings/api-reference",
} as const;

export type SettingsNavItem = { label: string; to: string; permission: Permission };

/** The settings nav: each page with the permission its page needs to be of use. */
export const settingsNavigation: readonly SettingsNavItem[] = [
  { label: "Members", to: settingsPaths.members, permission: "organization.view" },
  { label: "Invitations", to: settingsPaths.invitations, permission: "users.manage" },
  { label: "Roles", to: settingsPaths.roles, permission: "organization.view" },
  { label: "Organization", to: settingsPaths.organizationOverview, permission: "organization.view" },
  { label: "Connections", to: settingsPaths.connections, permission: "organization.view" },
  { label: "Audit log", to: settingsPaths.auditLog, permission: "audit.view" },
  { label: "API tokens", to: settingsPaths.apiTokens, permission: "organization.view" },
  { label: "API reference", to: settingsPaths.apiReference, permission: "organization.view" },
];

/** The settings pages the user's permissions open (all while permissions are not in use). */
export function visibleSettingsItems(permissions: ShellPermissions | undefined): SettingsNavItem[] {
  return settingsNavigation.filter((item) => allows(permissions, item.permission));
}
