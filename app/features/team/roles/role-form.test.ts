import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { permissions } from "#contract/permissions";
import { customRoleRequestSchema } from "#contract/users";
import { holdersPerRole, permissionGroups, roleFormSchema } from "./role-form";

function submit(fields: [string, string][]) {
  const formData = new FormData();
  for (const [name, value] of fields) formData.append(name, value);
  return parseWithZod(formData, { schema: roleFormSchema });
}

/** The field errors of a refused submission. */
function errorsOf(fields: [string, string][]) {
  const submission = submit(fields);
  if (submission.status === "success") throw new Error("expected the form to be refused");
  return submission.error ?? {};
}

describe("the role form", () => {
  it("groups every permission of the catalogue exactly once", () => {
    const grouped = permissionGroups.flatMap((group) => group.permissions);
    expect(grouped.toSorted()).toEqual([...permissions].toSorted());
  });

  it("sends the checked permissions and the one every member holds, in the catalogue's order", () => {
    const submission = submit([
      ["name", " Deployer "],
      ["permissions", "services.deploy"],
      ["permissions", "environments.create"],
    ]);
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    expect(submission.value).toEqual({
      name: "Deployer",
      description: "",
      permissions: ["organization.view", "environments.create", "services.deploy"],
    });
    expect(customRoleRequestSchema.parse(submission.value)).toEqual(submission.value);
  });

  it("reports each field's problem with the contract's messages", () => {
    expect(errorsOf([["description", "x".repeat(256)]])).toMatchObject({
      name: ["Name is a required field"],
      description: ["Description must be at most 255 characters"],
      permissions: ["Choose at least one permission"],
    });
  });

  it("refuses a built-in role's name and a role that only views", () => {
    expect(
      errorsOf([
        ["name", "Admin"],
        ["permissions", "organization.view"],
      ]),
    ).toMatchObject({
      name: ["A built-in role already has this name"],
      permissions: ["Choose at least one permission"],
    });
  });

  it("refuses a permission outside the catalogue", () => {
    expect(
      errorsOf([
        ["name", "Deployer"],
        ["permissions", "everything.do"],
      ]).permissions,
    ).toEqual(["Choose permissions of the catalogue"]);
  });
});

describe("holdersPerRole", () => {
  it("counts each member once per role, by built-in name or custom role id", () => {
    const deployer = { id: "0b7e5e57-3c3f-4a5e-9f55-2b0a3c1d8e01", name: "Deployer" };
    const holders = holdersPerRole([
      { roles: [{ role: "admin", customRole: null, environmentIds: null }] },
      {
        roles: [
          { role: null, customRole: deployer, environmentIds: ["staging"] },
          { role: null, customRole: deployer, environmentIds: ["production"] },
          { role: "read-only", customRole: null, environmentIds: null },
        ],
      },
    ]);
    expect(Object.fromEntries(holders)).toEqual({ admin: 1, [deployer.id]: 1, "read-only": 1 });
  });
});
