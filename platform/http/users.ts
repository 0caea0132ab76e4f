import { eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import {
  effectivePermissionsSchema,
  permissionsFor,
  type EffectivePermissions,
  type Permission,
} from "#contract/permissions";
import {
  customRoleRequestSchema,
  includeRolesQuerySchema,
  memberByEmailRequestSchema,
  memberListSchema,
  memberResponseSchema,
  organizationSettingsSchema,
  referralQuerySchema,
  removeMemberQuerySchema,
  renameOrganizationRequestSchema,
  roleListSchema,
  roleNamesRequestSchema,
  roleResponseSchema,
  subscriptionSchema,
  updateRolesRequestSchema,
  userDetailsSchema,
  type Member,
} from "#contract/users";
import type { Database } from "../db/index";
import { planOf } from "../plans/limits";
import { environments } from "../db/schema";
import {
  addOrganizationRoles,
  findMember,
  findMemberByEmail,
  listMembers,
  removeMember,
  removeOrganizationRoles,
  setMemberGrants,
  TeamChangeError,
  type Team,
} from "../team/members";
import {
  organizationSettings,
  recordReferral,
  ReferralError,
  renameOrganization,
} from "../team/organization";
import {
  createCustomRole,
  deleteCustomRole,
  listRoles,
  RoleChangeError,
  updateCustomRole,
} from "../team/roles";
import { currentUser } from "./auth";
import { conflict, conflictOn, invalidFields, notFound } from "../lib/errors";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { documentRoutes } from "./documented";

const memberNotFound = () => notFound("Member not found");
const roleNotFound = () => notFound("Role not found");

/** Member ids are the identity provider's (`user_...`); SPEC's `users/invites` shares the `users/{id}` shape. */
const isUserId = (value: string) => value.startsWith("user_");

/** The domain's refusals as the API's statuses: the last admin 409, foreign grants 400 with field errors. */
async function teamChange<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof TeamChangeError) {
      throw error.reason === "last-admin" ? conflict(error.message) : invalidFields(error.fieldErrors);
    }
    if (error instanceof RoleChangeError) {
      throw error.reason === "name-taken" ? conflictOn("name", error.message) : conflict(error.message);
    }
    if (error instanceof ReferralError) {
      throw error.reason === "already-referred"
        ? conflict(error.message)
        : invalidFields({ "referral-code": [error.message] });
    }
    throw error;
  }
}

function teamOf(c: Context<OrganizationEnv>): Team {
  const { organizationId, tenantId } = currentOrganization(c);
  return { organizationId, tenantId };
}

/**
 * Removing someone takes users.manage; removing oneself (leaving) only membership. The user named in the query
 * decides, so a malformed request is judged as removing someone else.
 */
function removalPermission(c: Context<OrganizationEnv>): Permission {
  const target = c.req.query("userId");
  return target !== undefined && target === currentUser(c).id ? "organization.view" : "users.manage";
}

/** SPEC §7 Users, mounted at /v2/organizations/:tenantId. Static paths come before `users/:userId`. */
export function userRoutes({ db }: { db: Database }) {
  const routes = new Hono<OrganizationEnv>();

  const answerMember = (c: Context<OrganizationEnv>, member: Member | null) => {
    if (!member) throw memberNotFound();
    return sendJson(c, memberResponseSchema, { userDetail: member });
  };

  routes.get("/users/v2/permissions", permit("organization.view"), async (c) => {
    const { tenantId, grants } = currentOrganization(c);
    const rows = await db
      .select({ id: environments.id })
      .from(environments)
      .where(eq(environments.tenantId, tenantId));
    const effective: EffectivePermissions = {
      organization: [...permissionsFor(grants)],
      environments: Object.fromEntries(rows.map(({ id }) => [id, [...permissionsFor(grants, id)]])),
    };
    return sendJson(c, effectivePermissionsSchema, effective);
  });

  routes.get("/users/v2", permit("organization.view"), async (c) =>
    sendJson(c, memberListSchema, { users: await listMembers(db, teamOf(c).organizationId) }),
  );

  routes.delete("/users/v2", permit(removalPermission), async (c) => {
    const { userId } = readQuery(c, removeMemberQuerySchema);
    if (!(await teamChange(() => db.transaction((tx) => removeMember(tx, teamOf(c), userId)))))
      throw memberNotFound();
    return c.body(null, 204);
  });

  routes.post("/users/v2/roles/update", permit("users.manage"), async (c) => {
    const { userId, roles } = await readJsonBody(c, updateRolesRequestSchema);
    return answerMember(
      c,
      await teamChange(() => db.transaction((tx) => setMemberGrants(tx, teamOf(c), userId, roles))),
    );
  });

  routes.post("/users/v2/roles/update/get-by-email", permit("users.manage"), async (c) => {
    const { userEmail } = await readJsonBody(c, memberByEmailRequestSchema);
    return answerMember(c, await findMemberByEmail(db, teamOf(c).organizationId, userEmail));
  });

  routes.get("/users/roles", permit("organization.view"), async (c) =>
    sendJson(c, roleListSchema, { roles: await listRoles(db, teamOf(c).organizationId) }),
  );

  routes.post("/users/roles/:userId", permit("users.manage"), async (c) => {
    const { role_names } = await readJsonBody(c, roleNamesRequestSchema);
    const userId = c.req.param("userId");
    return answerMember(
      c,
      await teamChange(() => db.transaction((tx) => addOrganizationRoles(tx, teamOf(c), userId, role_names))),
    );
  });

  routes.delete("/users/roles/:userId", permit("users.manage"), async (c) => {
    const { role_names } = await readJsonBody(c, roleNamesRequestSchema);
    const userId = c.req.param("userId");
    return answerMember(
      c,
      await teamChange(() =>
        db.transaction((tx) => removeOrganizationRoles(tx, teamOf(c), userId, role_names)),
      ),
    );
  });

  // v1: the same members, with role names when asked.
  routes.get("/users", permit("organization.view"), async (c) => {
    const { include_roles } = readQuery(c, includeRolesQuerySchema);
    const members = await listMembers(db, teamOf(c).organizationId);
    return sendJson(c, userDetailsSchema, {
      userDetails: members.map(({ id, name, email, picture, roles }) => ({
        id,
        name,
        email,
        picture,
        ...(include_roles
          ? { roles: [...new Set(roles.map((grant) => grant.role ?? grant.customRole?.name ?? ""))] }
          : {}),
      })),
    });
  });

  routes.get("/users/:userId", permit("organization.view"), async (c, next) => {
    const userId = c.req.param("userId");
    if (!isUserId(userId)) return next();
    return answerMember(c, await findMember(db, teamOf(c).organizationId, userId));
  });

  routes.delete("/users/:userId", permit("users.manage"), async (c) => {
    const userId = c.req.param("userId");
    if (!(await teamChange(() => db.transaction((tx) => removeMember(tx, teamOf(c), userId)))))
      throw memberNotFound();
    return c.body(null, 204);
  });

  routes.get("/roles/v2", permit("organization.view"), async (c) =>
    sendJson(c, roleListSchema, { roles: await listRoles(db, teamOf(c).organizationId) }),
  );

  routes.post("/roles/v2", permit("users.manage"), async (c) => {
    const request = await readJsonBody(c, customRoleRequestSchema);
    const role = await teamChange(() =>
      db.transaction((tx) => createCustomRole(tx, teamOf(c).organizationId, request)),
    );
    return sendJson(c, roleResponseSchema, { role }, 201);
  });

  routes.put("/roles/v2/:roleId", permit("users.manage"), async (c) => {
    const roleId = roleIdOf(c);
    const request = await readJsonBody(c, customRoleRequestSchema);
    const role = await teamChange(() =>
      db.transaction((tx) => updateCustomRole(tx, teamOf(c).organizationId, roleId, request)),
    );
    if (!role) throw roleNotFound();
    return sendJson(c, roleResponseSchema, { role });
  });

  routes.delete("/roles/v2/:roleId", permit("users.manage"), async (c) => {
    const roleId = roleIdOf(c);
    if (
      !(await teamChange(() =>
        db.transaction((tx) => deleteCustomRole(tx, teamOf(c).organizationId, roleId)),
      ))
    )
      throw roleNotFound();
    return c.body(null, 204);
  });

  routes.get("/subscription", permit("organization.view"), async (c) =>
    sendJson(c, subscriptionSchema, {
      subscription: { plan: await planOf(db, currentOrganization(c).organizationId) },
    }),
  );

  routes.post("/referral", permit("users.manage"), async (c) => {
    const { "referral-code": code } = readQuery(c, referralQuerySchema);
    const organization = await teamChange(() =>
      db.transaction((tx) => recordReferral(tx, teamOf(c).organizationId, code)),
    );
    return sendJson(c, organizationSettingsSchema, { organization });
  });

  routes.get("/settings", permit("organization.view"), async (c) =>
    sendJson(c, organizationSettingsSchema, {
      organization: await organizationSettings(db, teamOf(c).organizationId),
    }),
  );

  routes.patch("/settings", permit("organization.manage"), async (c) => {
    const { displayName } = await readJsonBody(c, renameOrganizationRequestSchema);
    const organization = await db.transaction((tx) =>
      renameOrganization(tx, teamOf(c).organizationId, displayName),
    );
    return sendJson(c, organizationSettingsSchema, { organization });
  });

  documentRoutes(routes, {
    "GET /users/:userId": { responses: { 200: memberResponseSchema } },
    "GET /users/v2/permissions": { responses: { 200: effectivePermissionsSchema } },
    "GET /users/v2": { responses: { 200: memberListSchema } },
    "DELETE /users/v2": { query: removeMemberQuerySchema, responses: { 204: null } },
    "POST /users/v2/roles/update": {
      body: updateRolesRequestSchema,
      responses: { 200: memberResponseSchema },
    },
    "POST /users/v2/roles/update/get-by-email": {
      body: memberByEmailRequestSchema,
      responses: { 200: memberResponseSchema },
    },
    "GET /users/roles": { responses: { 200: roleListSchema } },
    "POST /users/roles/:userId": { body: roleNamesRequestSchema, responses: { 200: memberResponseSchema } },
    "DELETE /users/roles/:userId": { body: roleNamesRequestSchema, responses: { 200: memberResponseSchema } },
    "GET /users": { query: includeRolesQuerySchema, responses: { 200: userDetailsSchema } },
    "DELETE /users/:userId": { responses: { 204: null } },
    "GET /roles/v2": { responses: { 200: roleListSchema } },
    "POST /roles/v2": { body: customRoleRequestSchema, responses: { 201: roleResponseSchema } },
    "PUT /roles/v2/:roleId": { body: customRoleRequestSchema, responses: { 200: roleResponseSchema } },
    "DELETE /roles/v2/:roleId": { responses: { 204: null } },
    "GET /subscription": { responses: { 200: subscriptionSchema } },
    "POST /referral": { query: referralQuerySchema, responses: { 200: organizationSettingsSchema } },
    "GET /settings": { responses: { 200: organizationSettingsSchema } },
    "PATCH /settings": {
      body: renameOrganizationRequestSchema,
      responses: { 200: organizationSettingsSchema },
    },
  });
  return routes;
}

/** Custom role ids are uuids; anything else names no role (and never reaches PostgreSQL's uuid cast). */
function roleIdOf(c: Context<OrganizationEnv>): string {
  const roleId = c.req.param("roleId") ?? "";
  if (!z.guid().safeParse(roleId).success) throw roleNotFound();
  return roleId;
}
