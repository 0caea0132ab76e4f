import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import type { Member } from "#contract/users";
import {
  describeGrant,
  lastActiveLabel,
  matchesMember,
  memberRoleFormSchema,
  membersPerRole,
} from "./member-roles";

const staging = "5f0c1a52-6a43-4d3e-9b53-08d0b1c1e7a1";

function formData(entries: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

function member(overrides: Partial<Member>): Member {
  return {
    id: "user_x",
    name: "X",
    email: "x@example.com",
    picture: null,
    roles: [],
    lastActiveAt: null,
    joinedAt: "2024-01-01T00:00:00.000Z",
    ...overrides,
  };
}

describe("the member role form", () => {
  it("turns a role and its scope into the contract's grant", () => {
    const organizationWide = parseWithZod(
      formData([
        ["role", "admin"],
        ["scope", "organization"],
      ]),
      {
        schema: memberRoleFormSchema,
      },
    );
    expect(organizationWide.status === "success" && organizationWide.value).toEqual({
      role: "admin",
      environmentIds: null,
    });
    const scoped = parseWithZod(
      formData([
        ["role", "developer"],
        ["scope", "environments"],
        ["environmentIds", staging],
      ]),
      { schema: memberRoleFormSchema },
    );
    expect(scoped.status === "success" && scoped.value).toEqual({
      role: "developer",
      environmentIds: [staging],
    });
    const custom = parseWithZod(
      formData([
        ["role", `custom:${staging}`],
        ["scope", "organization"],
      ]),
      {
        schema: memberRoleFormSchema,
      },
    );
    expect(custom.status === "success" && custom.value).toEqual({
      customRoleId: staging,
      environmentIds: null,
    });
  });

  it("asks for an environment when the role is scoped, and for a known role", () => {
    const noEnvironment = parseWithZod(
      formData([
        ["role", "developer"],
        ["scope", "environments"],
      ]),
      {
        schema: memberRoleFormSchema,
      },
    );
    expect(noEnvironment.status === "error" && noEnvironment.error?.environmentIds).toEqual([
      "List at least one environment, or grant the role on the whole organization",
    ]);
    const unknown = parseWithZod(
      formData([
        ["role", "owner"],
        ["scope", "organization"],
      ]),
      {
        schema: memberRoleFormSchema,
      },
    );
    expect(unknown.status === "error" && unknown.error?.role).toEqual(["Choose a role"]);
  });
});

describe("member display helpers", () => {
  it("describes grants with their environments' names", () => {
    const names = new Map([[staging, "staging"]]);
    expect(describeGrant({ role: "admin", customRole: null, environmentIds: null }, names)).toBe("admin");
    expect(describeGrant({ role: "developer", customRole: null, environmentIds: [staging] }, names)).toBe(
      "developer on staging",
    );
  });

  it("counts members per role in the catalogue's order", () => {
    const grant = (role: "admin" | "read-only") => ({ role, customRole: null, environmentIds: null });
    expect(
      membersPerRole([
        member({ roles: [grant("read-only")] }),
        member({ roles: [grant("admin"), grant("admin")] }),
        member({ roles: [grant("read-only")] }),
      ]),
    ).toEqual([
      { role: "admin", count: 1 },
      { role: "read-only", count: 2 },
    ]);
  });

  it("searches by name or e-mail and says when a member was last active", () => {
    const bob = member({ name: "Bob Stone", email: "bob@example.com" });
    expect(matchesMember(bob, "STONE")).toBe(true);
    expect(matchesMember(bob, "bob@")).toBe(true);
    expect(matchesMember(bob, "ada")).toBe(false);
    const now = new Date("2024-05-01T12:00:00Z");
    expect(lastActiveLabel(null, now)).toBe("Never");
    expect(lastActiveLabel("2024-05-01T11:57:00Z", now)).toBe("3 minutes ago");
    expect(lastActiveLabel("2024-04-29T12:00:00Z", now)).toBe("2 days ago");
  });
});
