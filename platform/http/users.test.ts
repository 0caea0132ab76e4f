import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorCodes } from "#contract/errors";
import { builtInRoles, effectivePermissionsSchema, permissions } from "#contract/permissions";
import {
  freePlan,
  lastAdminMessage,
  memberListSchema,
  memberResponseSchema,
  organizationSettingsSchema,
  roleListSchema,
  roleResponseSchema,
  subscriptionSchema,
  userDetailsSchema,
  userPaths,
} from "#contract/users";
import { customRoles, memberships, roleGrants, users } from "../db/schema";
import { openTestApi, type TestApi } from "../testing/http-harness";

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

/** An organization with an admin, a read-only member and two environments. */
async function team() {
  const admin = await api.createMember({ role: "admin" });
  const { organizationId, tenantId } = admin.organization;
  const reader = await api.createUser();
  await api.addMember(reader.id, organizationId, "read-only");
  const staging = await api.createEnvironment(tenantId, "staging");
  const production = await api.createEnvironment(tenantId, "production");
  return { admin: admin.user, reader, organizationId, tenantId, staging, production };
}

async function rename(userId: string, name: string) {
  await api.db.update(users).set({ name }).where(eq(users.id, userId));
}

async function grantsOf(organizationId: string, userId: string) {
  return api.db
    .select({ role: roleGrants.role, environmentIds: roleGrants.environmentIds })
    .from(roleGrants)
    .where(and(eq(roleGrants.organizationId, organizationId), eq(roleGrants.userId, userId)));
}

describe("GET users/v2 and GET users (v1)", () => {
  it("lists the organization's members sorted by name, with their grants and scope, and no one else", async () => {
    const { admin, reader, organizationId, tenantId, staging } = await team();
    await rename(admin.id, "zoe Admin");
    await rename(reader.id, "Adam Reader");
    const [custom] = await api.db
      .insert(customRoles)
      .values({ organizationId, name: "Deployers", permissions: ["services.deploy"] })
      .returning();
    const scoped = await api.createUser();
    await rename(scoped.id, "Mia Scoped");
    await api.addMember(scoped.id, organizationId, [
      { role: "developer", environmentIds: [staging.id] },
      { customRoleId: custom?.id ?? "", environmentIds: null },
    ]);
    const outsider = await api.createMember();

    const response = await api.call("GET", userPaths.membersV2(tenantId), { token: admin.token });
    expect(response.status).toBe(200);
    const { users: members } = memberListSchema.parse(await response.json());
    expect(members.map((member) => member.name)).toEqual(["Adam Reader", "Mia Scoped", "zoe Admin"]);
    expect(members.map((member) => member.id)).not.toContain(outsider.user.id);
    expect(members[1]).toMatchObject({
      id: scoped.id,
      email: scoped.email,
      roles: [
        { role: null, customRole: { id: custom?.id, name: "Deployers" }, environmentIds: null },
        { role: "developer", customRole: null, environmentIds: [staging.id] },
      ],
    });
  });

  it("gives v1 role names only with include_roles, and refuses a malformed flag", async () => {
    const { admin, reader, tenantId } = await team();
    const plain = userDetailsSchema.parse(
      await (await api.call("GET", userPaths.membersV1(tenantId), { token: reader.token })).json(),
    );
    expect(plain.userDetails).toHaveLength(2);
    expect(plain.userDetails.every((user) => user.roles === undefined)).toBe(true);

    const withRoles = userDetailsSchema.parse(
      await (
        await api.call("GET", userPaths.membersV1(tenantId, { includeRoles: true }), { token: reader.token })
      ).json(),
    );
    expect(withRoles.userDetails.find((user) => user.id === admin.id)?.roles).toEqual(["admin"]);
    expect(withRoles.userDetails.find((user) => user.id === reader.id)?.roles).toEqual(["read-only"]);

    const bad = await api.call("GET", `${userPaths.membersV1(tenantId)}?include_roles=maybe`, {
      token: reader.token,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fieldErrors: { include_roles: expect.any(Array) } });
  });

  it("records a member's last activity at most once a minute", async () => {
    const { admin, organizationId, tenantId } = await team();
    const lastActive = async () =>
      (
        await api.db
          .select({ at: memberships.lastActiveAt })
          .from(memberships)
          .where(and(eq(memberships.userId, admin.id), eq(memberships.organizationId, organizationId)))
      )[0]?.at;
    expect(await lastActive()).toBeNull();
    await api.call("GET", userPaths.membersV2(tenantId), { token: admin.token });
    const first = await lastActive();
    expect(first).toBeInstanceOf(Date);

    const recent = new Date(Date.now() - 30_000);
    await api.db.update(memberships).set({ lastActiveAt: recent }).where(eq(memberships.userId, admin.id));
    await api.call("GET", userPaths.membersV2(tenantId), { token: admin.token });
    expect(await lastActive()).toEqual(recent);

    const old = new Date(Date.now() - 120_000);
    await api.db.update(memberships).set({ lastActiveAt: old }).where(eq(memberships.userId, admin.id));
    const response = await api.call("GET", userPaths.membersV2(tenantId), { token: admin.token });
    expect((await lastActive())?.getTime()).toBeGreaterThan(old.getTime() + 60_000);
    const listed = memberListSchema.parse(await response.json()).users.find((user) => user.id === admin.id);
    expect(listed?.lastActiveAt).not.toBeNull();
  });
});

describe("GET users/{id} and POST users/v2/roles/update/get-by-email", () => {
  it("finds a member by id or e-mail, and answers 404 for another organization's user", async () => {
    const { admin, reader, tenantId } = await team();
    const outsider = await api.createMember();

    const byId = await api.call("GET", userPaths.member(tenantId, reader.id), { token: reader.token });
    expect(memberResponseSchema.parse(await byId.json()).userDetail).toMatchObject({
      id: reader.id,
      roles: [{ role: "read-only", environmentIds: null }],
    });
    const foreign = await api.call("GET", userPaths.member(tenantId, outsider.user.id), {
      token: admin.token,
    });
    expect(foreign.status).toBe(404);

    const byEmail = await api.call("POST", userPaths.memberByEmail(tenantId), {
      token: admin.token,
      json: { userEmail: reader.email.toUpperCase() },
    });
    expect(memberResponseSchema.parse(await byEmail.json()).userDetail.id).toBe(reader.id);
    const foreignEmail = await api.call("POST", userPaths.memberByEmail(tenantId), {
      token: admin.token,
      json: { userEmail: outsider.user.email },
    });
    expect(foreignEmail.status).toBe(404);
    const invalid = await api.call("POST", userPaths.memberByEmail(tenantId), {
      token: admin.token,
      json: { userEmail: "not-an-email" },
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ fieldErrors: { userEmail: ["must be a valid email"] } });
  });
});

describe("POST users/v2/roles/update", () => {
  it("replaces a member's grants, scoped to environments", async () => {
    const { admin, reader, organizationId, tenantId, staging } = await team();
    const response = await api.call("POST", userPaths.updateRoles(tenantId), {
      token: admin.token,
      json: { userId: reader.id, roles: [{ role: "developer", environmentIds: [staging.id] }] },
    });
    expect(response.status).toBe(200);
    expect(memberResponseSchema.parse(await response.json()).userDetail.roles).toEqual([
      { role: "developer", customRole: null, environmentIds: [staging.id] },
    ]);
    expect(await grantsOf(organizationId, reader.id)).toEqual([
      { role: "developer", environmentIds: [staging.id] },
    ]);
    // The change applies at the member's next request.
    const permissionsNow = effectivePermissionsSchema.parse(
      await (await api.call("GET", userPaths.permissions(tenantId), { token: reader.token })).json(),
    );
    expect(permissionsNow.environments[staging.id]).toContain("services.deploy");
  });

  it("refuses bad input with field errors and stores nothing", async () => {
    const { admin, reader, organizationId, tenantId } = await team();
    const foreignEnvironment = await api.createEnvironment((await api.createOrganization()).tenantId);
    const cases: [unknown, string][] = [
      [{ userId: reader.id, roles: [] }, "roles"],
      [{ userId: reader.id, roles: [{ role: "owner" }] }, "roles.0.role"],
      [{ userId: reader.id, roles: [{ role: "admin", customRoleId: randomUUID() }] }, "roles.0.role"],
      [{ userId: reader.id, roles: [{ role: "developer", environmentIds: [] }] }, "roles.0.environmentIds"],
      [
        { userId: reader.id, roles: [{ role: "developer", environmentIds: [foreignEnvironment.id] }] },
        "roles.0.environmentIds",
      ],
      [{ userId: reader.id, roles: [{ customRoleId: randomUUID() }] }, "roles.0.customRoleId"],
      [{ roles: [{ role: "admin" }] }, "userId"],
    ];
    for (const [json, field] of cases) {
      const response = await api.call("POST", userPaths.updateRoles(tenantId), { token: admin.token, json });
      expect(response.status, field).toBe(400);
      const body = (await response.json()) as { fieldErrors?: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors ?? {}), JSON.stringify(json)).toContain(field);
    }
    expect(await grantsOf(organizationId, reader.id)).toEqual([{ role: "read-only", environmentIds: null }]);
  });

  it("refuses to demote the last admin, and answers 404 for a foreign user", async () => {
    const { admin, reader, organizationId, tenantId, staging } = await team();
    const demote = await api.call("POST", userPaths.updateRoles(tenantId), {
      token: admin.token,
      json: { userId: admin.id, roles: [{ role: "admin", environmentIds: [staging.id] }] },
    });
    expect(demote.status).toBe(409);
    expect(await demote.json()).toMatchObject({ message: lastAdminMessage });
    expect(await grantsOf(organizationId, admin.id)).toEqual([{ role: "admin", environmentIds: null }]);

    // With a second admin, the first may step down.
    await api.call("POST", userPaths.updateRoles(tenantId), {
      token: admin.token,
      json: { userId: reader.id, roles: [{ role: "admin" }] },
    });
    const stepDown = await api.call("POST", userPaths.updateRoles(tenantId), {
      token: admin.token,
      json: { userId: admin.id, roles: [{ role: "read-only" }] },
    });
    expect(stepDown.status).toBe(200);

    const outsider = await api.createMember();
    const foreign = await api.call("POST", userPaths.updateRoles(tenantId), {
      token: reader.token,
      json: { userId: outsider.user.id, roles: [{ role: "read-only" }] },
    });
    expect(foreign.status).toBe(404);
    expect(await grantsOf(outsider.organization.organizationId, outsider.user.id)).toEqual([
      { role: "admin", environmentIds: null },
    ]);
  });

  it("is refused to a member without users.manage", async () => {
    const { reader, tenantId } = await team();
    const response = await api.call("POST", userPaths.updateRoles(tenantId), {
      token: reader.token,
      json: { userId: reader.id, roles: [{ role: "admin" }] },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ permission: "users.manage" });
  });
});

describe("POST/DELETE users/roles/{userId} (v1 role names)", () => {
  it("adds and removes organization-wide built-in roles, keeping the last admin", async () => {
    const { admin, reader, organizationId, tenantId } = await team();
    const added = await api.call("POST", userPaths.memberRoleNames(tenantId, reader.id), {
      token: admin.token,
      json: { role_names: ["admin", "read-only"] },
    });
    expect(added.status).toBe(200);
    expect((await grantsOf(organizationId, reader.id)).map((grant) => grant.role).sort()).toEqual([
      "admin",
      "read-only",
    ]);

    const removed = await api.call("DELETE", userPaths.memberRoleNames(tenantId, admin.id), {
      token: admin.token,
      json: { role_names: ["admin"] },
    });
    expect(removed.status).toBe(200);
    const lastAdmin = await api.call("DELETE", userPaths.memberRoleNames(tenantId, reader.id), {
      token: reader.token,
      json: { role_names: ["admin"] },
    });
    expect(lastAdmin.status).toBe(409);
    expect(await lastAdmin.json()).toMatchObject({ message: lastAdminMessage });

    const invalid = await api.call("POST", userPaths.memberRoleNames(tenantId, admin.id), {
      token: reader.token,
      json: { role_names: ["owner"] },
    });
    expect(invalid.status).toBe(400);
    const foreign = await api.call("POST", userPaths.memberRoleNames(tenantId, "user_nobody"), {
      token: reader.token,
      json: { role_names: ["admin"] },
    });
    expect(foreign.status).toBe(404);
  });
});

describe("removing a member: DELETE users/v2?userId= and DELETE users/{id}", () => {
  it("removes a member, whose next request is refused", async () => {
    const { admin, reader, tenantId } = await team();
    expect((await api.call("GET", userPaths.membersV2(tenantId), { token: reader.token })).status).toBe(200);
    const removed = await api.call("DELETE", userPaths.membersV2(tenantId, { userId: reader.id }), {
      token: admin.token,
    });
    expect(removed.status).toBe(204);
    const next = await api.call("GET", userPaths.membersV2(tenantId), { token: reader.token });
    expect(next.status).toBe(403);
    expect(await next.json()).toMatchObject({ code: apiErrorCodes.forbidden });
  });

  it("refuses removing the last admin, and another organization's user, and needs a user", async () => {
    const { admin, tenantId } = await team();
    const last = await api.call("DELETE", userPaths.membersV2(tenantId, { userId: admin.id }), {
      token: admin.token,
    });
    expect(last.status).toBe(409);
    expect(await last.json()).toMatchObject({ message: lastAdminMessage });
    const lastV1 = await api.call("DELETE", userPaths.member(tenantId, admin.id), { token: admin.token });
    expect(lastV1.status).toBe(409);

    const outsider = await api.createMember();
    const foreign = await api.call("DELETE", userPaths.member(tenantId, outsider.user.id), {
      token: admin.token,
    });
    expect(foreign.status).toBe(404);
    const missing = await api.call("DELETE", userPaths.membersV2(tenantId), { token: admin.token });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ fieldErrors: { userId: expect.any(Array) } });
  });

  it("lets any member leave, but only users.manage remove someone else", async () => {
    const { admin, reader, tenantId } = await team();
    const other = await api.call("DELETE", userPaths.membersV2(tenantId, { userId: admin.id }), {
      token: reader.token,
    });
    expect(other.status).toBe(403);
    const leave = await api.call("DELETE", userPaths.membersV2(tenantId, { userId: reader.id }), {
      token: reader.token,
    });
    expect(leave.status).toBe(204);
    expect((await api.call("GET", userPaths.membersV2(tenantId), { token: reader.token })).status).toBe(403);

    const v1 = await api.call("DELETE", userPaths.member(tenantId, reader.id), { token: admin.token });
    expect(v1.status).toBe(404);
  });
});

describe("roles: GET users/roles, GET/POST roles/v2, PUT/DELETE roles/v2/{id}", () => {
  it("lists built-in and custom roles, and composes, changes and deletes custom ones", async () => {
    const { admin, reader, organizationId, tenantId } = await team();
    const created = await api.call("POST", userPaths.roles(tenantId), {
      token: admin.token,
      json: { name: "Deployers", description: "Ship it", permissions: ["services.deploy"] },
    });
    expect(created.status).toBe(201);
    const { role } = roleResponseSchema.parse(await created.json());
    expect(role).toMatchObject({ name: "Deployers", permissions: ["services.deploy"], builtIn: false });

    for (const path of [userPaths.roles(tenantId), userPaths.rolesV1(tenantId)]) {
      const { roles } = roleListSchema.parse(
        await (await api.call("GET", path, { token: reader.token })).json(),
      );
      expect(roles.map((listed) => listed.name)).toEqual(["admin", "developer", "read-only", "Deployers"]);
      expect(roles[0]?.permissions).toEqual([...permissions]);
    }

    const duplicate = await api.call("POST", userPaths.roles(tenantId), {
      token: admin.token,
      json: { name: "Deployers", permissions: ["audit.view"] },
    });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toMatchObject({ fieldErrors: { name: expect.any(Array) } });
    for (const json of [
      { name: "Admin", permissions: ["audit.view"] },
      { name: "Nothing", permissions: [] },
      { name: "Odd", permissions: ["root"] },
      { name: "", permissions: ["audit.view"] },
    ]) {
      expect((await api.call("POST", userPaths.roles(tenantId), { token: admin.token, json })).status).toBe(
        400,
      );
    }

    const updated = await api.call("PUT", userPaths.customRole(tenantId, role.id), {
      token: admin.token,
      json: { name: "Operators", permissions: ["services.deploy", "services.configure"] },
    });
    expect(roleResponseSchema.parse(await updated.json()).role.name).toBe("Operators");

    await api.call("POST", userPaths.updateRoles(tenantId), {
      token: admin.token,
      json: { userId: reader.id, roles: [{ customRoleId: role.id }] },
    });
    const held = await api.call("DELETE", userPaths.customRole(tenantId, role.id), { token: admin.token });
    expect(held.status).toBe(409);
    await api.call("POST", userPaths.updateRoles(tenantId), {
      token: admin.token,
      json: { userId: reader.id, roles: [{ role: "read-only" }] },
    });
    const deleted = await api.call("DELETE", userPaths.customRole(tenantId, role.id), { token: admin.token });
    expect(deleted.status).toBe(204);
    expect(
      await api.db.select().from(customRoles).where(eq(customRoles.organizationId, organizationId)),
    ).toEqual([]);
  });

  it("never reaches another organization's role, and refuses members without users.manage", async () => {
    const { admin, reader, tenantId } = await team();
    const other = await api.createMember();
    const [foreign] = await api.db
      .insert(customRoles)
      .values({
        organizationId: other.organization.organizationId,
        name: "Theirs",
        permissions: ["audit.view"],
      })
      .returning();
    const foreignId = foreign?.id ?? "";
    const put = await api.call("PUT", userPaths.customRole(tenantId, foreignId), {
      token: admin.token,
      json: { name: "Mine", permissions: ["audit.view"] },
    });
    expect(put.status).toBe(404);
    expect(
      (await api.call("DELETE", userPaths.customRole(tenantId, foreignId), { token: admin.token })).status,
    ).toBe(404);
    const grant = await api.call("POST", userPaths.updateRoles(tenantId), {
      token: admin.token,
      json: { userId: reader.id, roles: [{ customRoleId: foreignId }] },
    });
    expect(grant.status).toBe(400);
    const refused = await api.call("POST", userPaths.roles(tenantId), {
      token: reader.token,
      json: { name: "Mine", permissions: ["audit.view"] },
    });
    expect(refused.status).toBe(403);
  });
});

describe("GET subscription, POST referral, GET/PATCH settings", () => {
  it("gives the Free plan", async () => {
    const { reader, tenantId } = await team();
    const response = await api.call("GET", userPaths.subscription(tenantId), { token: reader.token });
    expect(subscriptionSchema.parse(await response.json()).subscription.plan).toEqual(freePlan);
  });

  it("records a referral once, never the organization's own code or an unknown one", async () => {
    const { admin, reader, tenantId } = await team();
    const referrer = await api.createMember();
    const settingsOf = async (tenant: string, token: string) =>
      organizationSettingsSchema.parse(
        await (await api.call("GET", userPaths.settings(tenant), { token })).json(),
      ).organization;
    const code = (await settingsOf(referrer.organization.tenantId, referrer.user.token)).referralCode;
    const own = (await settingsOf(tenantId, reader.token)).referralCode;

    const ownCode = await api.call("POST", userPaths.referral(tenantId, own), { token: admin.token });
    expect(ownCode.status).toBe(400);
    expect(await ownCode.json()).toMatchObject({ fieldErrors: { "referral-code": expect.any(Array) } });
    expect(
      (await api.call("POST", userPaths.referral(tenantId, "nope"), { token: admin.token })).status,
    ).toBe(400);
    expect(
      (await api.call("POST", `/v2/organizations/${tenantId}/referral`, { token: admin.token })).status,
    ).toBe(400);
    expect((await api.call("POST", userPaths.referral(tenantId, code), { token: reader.token })).status).toBe(
      403,
    );
    expect((await settingsOf(tenantId, reader.token)).referredBy).toBeNull();

    const first = await api.call("POST", userPaths.referral(tenantId, code), { token: admin.token });
    expect(first.status).toBe(200);
    expect((await settingsOf(tenantId, reader.token)).referredBy).toBe(code);
    const again = await api.call("POST", userPaths.referral(tenantId, code), { token: admin.token });
    expect(again.status).toBe(409);
  });

  it("renames the organization for organization.manage only, with field errors", async () => {
    const { admin, reader, tenantId } = await team();
    const renamed = await api.call("PATCH", userPaths.settings(tenantId), {
      token: admin.token,
      json: { displayName: "Acme Renamed" },
    });
    expect(organizationSettingsSchema.parse(await renamed.json()).organization.displayName).toBe(
      "Acme Renamed",
    );
    const empty = await api.call("PATCH", userPaths.settings(tenantId), {
      token: admin.token,
      json: { displayName: " " },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ fieldErrors: { displayName: expect.any(Array) } });
    const refused = await api.call("PATCH", userPaths.settings(tenantId), {
      token: reader.token,
      json: { displayName: "Mine" },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ permission: "organization.manage" });
  });
});
