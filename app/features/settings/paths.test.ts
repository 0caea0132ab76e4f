import { describe, expect, it } from "vitest";
import { builtInRoles } from "#contract/permissions";
import { visibleSettingsItems } from "./paths";

const everywhere = (permissions: readonly (typeof builtInRoles.admin.permissions)[number][]) => ({
  organization: [...permissions],
  environments: {},
});

describe("the settings nav", () => {
  it("shows a read-only member the members, roles, organization, connections, their API tokens and the API reference, not the invitations or the audit log", () => {
    expect(visibleSettingsItems(everywhere(builtInRoles["read-only"].permissions))).toEqual([
      { label: "Members", to: "/settings/users", permission: "organization.view" },
      { label: "Roles", to: "/settings/users/roles", permission: "organization.view" },
      { label: "Organization", to: "/settings/users/organization-overview", permission: "organization.view" },
      { label: "Connections", to: "/settings/connections", permission: "organization.view" },
      { label: "API tokens", to: "/settings/api-tokens", permission: "organization.view" },
      { label: "API reference", to: "/settings/api-reference", permission: "organization.view" },
    ]);
  });

  it("shows an admin every page, invitations for users.manage and the audit log for audit.view", () => {
    expect(
      visibleSettingsItems(everywhere(builtInRoles.admin.permissions)).map((item) => item.label),
    ).toEqual([
      "Members",
      "Invitations",
      "Roles",
      "Organization",
      "Connections",
      "Audit log",
      "API tokens",
      "API reference",
    ]);
    expect(
      visibleSettingsItems(everywhere(["organization.view", "audit.view"])).map((item) => item.label),
    ).toEqual([
      "Members",
      "Roles",
      "Organization",
      "Connections",
      "Audit log",
      "API tokens",
      "API reference",
    ]);
  });

  it("shows every page while permissions are not in use", () => {
    expect(visibleSettingsItems(null)).toHaveLength(8);
  });
});
