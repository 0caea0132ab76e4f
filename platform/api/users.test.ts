import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtInRoles, effectivePermissionsSchema, permissions } from "#contract/permissions";
import { userPaths } from "#contract/users";
import { openTestApi, type TestApi } from "./test-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe("GET users/v2/permissions", () => {
  it("gives the caller's permissions in the organization and in each environment", async () => {
    const organization = await api.createOrganization();
    const staging = await api.createEnvironment(organization.tenantId, "staging");
    const production = await api.createEnvironment(organization.tenantId, "production");
    const user = await api.createUser();
    await api.addMember(user.id, organization.organizationId, [
      { role: "read-only" },
      { role: "developer", environmentIds: [staging.id] },
    ]);

    const response = await api.call("GET", userPaths.permissions(organization.tenantId), {
      token: user.token,
    });
    expect(response.status).toBe(200);
    const body = effectivePermissionsSchema.parse(await response.json());
    expect(body.organization).toEqual(["organization.view"]);
    expect(new Set(body.environments[staging.id])).toEqual(new Set(builtInRoles.developer.permissions));
    expect(body.environments[production.id]).toEqual(["organization.view"]);
  });

  it("gives an admin every permission, and a non-member nothing", async () => {
    const admin = await api.createMember({ role: "admin" });
    const response = await api.call("GET", userPaths.permissions(admin.organization.tenantId), {
      token: admin.user.token,
    });
    expect(new Set(effectivePermissionsSchema.parse(await response.json()).organization)).toEqual(
      new Set(permissions),
    );

    const outsider = await api.createMember();
    const refused = await api.call("GET", userPaths.permissions(admin.organization.tenantId), {
      token: outsider.user.token,
    });
    expect(refused.status).toBe(403);
  });
});
