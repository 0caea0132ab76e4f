import * as z from "zod";
import { permissionSchema, roleGrantSchema, roleNameSchema, roleNames } from "./permissions";
import { tenantDisplayNameSchema } from "./tenants";
import { requiredText } from "./required-text";
import { messages } from "./validation";

/** Paths of SPEC §7 Users under /v2/organizations/{t}/ (issue 12). */
const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;

export const userPaths = {
  /** GET: the caller's effective permissions, in the organization and per environment. */
  permissions: (tenantId: string) => `${organization(tenantId)}/users/v2/permissions`,
  /** GET: the members sorted by name. DELETE ?userId=: removes a member (the caller's own id: leaves). */
  membersV2: (tenantId: string, query: { userId?: string } = {}) =>
    `${organization(tenantId)}/users/v2${query.userId ? `?userId=${encodeURIComponent(query.userId)}` : ""}`,
  /** GET (v1, ?include_roles=true adds role names): the members. */
  membersV1: (tenantId: string, query: { includeRoles?: boolean } = {}) =>
    `${organization(tenantId)}/users${query.includeRoles ? "?include_roles=true" : ""}`,
  /** GET: one member; DELETE: removes them (v1). */
  member: (tenantId: string, userId: string) =>
    `${organization(tenantId)}/users/${encodeURIComponent(userId)}`,
  /** POST {userId, roles}: replaces a member's grants. */
  updateRoles: (tenantId: string) => `${organization(tenantId)}/users/v2/roles/update`,
  /** POST {userEmail}: the member with this e-mail and their roles. */
  memberByEmail: (tenantId: string) => `${organization(tenantId)}/users/v2/roles/update/get-by-email`,
  /** POST/DELETE {role_names} (v1): adds or removes organization-wide built-in roles. */
  memberRoleNames: (tenantId: string, userId: string) =>
    `${organization(tenantId)}/users/roles/${encodeURIComponent(userId)}`,
  /** GET (v1): the roles. */
  rolesV1: (tenantId: string) => `${organization(tenantId)}/users/roles`,
  /** GET: the roles, built-in and custom; POST: creates a custom role. */
  roles: (tenantId: string) => `${organization(tenantId)}/roles/v2`,
  /** PUT: changes a custom role; DELETE: deletes it. */
  customRole: (tenantId: string, roleId: string) =>
    `${organization(tenantId)}/roles/v2/${encodeURIComponent(roleId)}`,
  /** GET: the organization's plan. */
  subscription: (tenantId: string) => `${organization(tenantId)}/subscription`,
  /** POST: records the referral code the organization came with. */
  referral: (tenantId: string, code: string) =>
    `${organization(tenantId)}/referral?referral-code=${encodeURIComponent(code)}`,
  /** GET: the organization's settings (with its referral code); PATCH {displayName}: renames it. */
  settings: (tenantId: string) => `${organization(tenantId)}/settings`,
};

/** Member ids are the identity provider's user ids (`user_...`). */
export const userIdSchema = requiredText("User", { max: 255 });

/** A grant as the platform reports it: the role's name (built-in or custom) and where it reaches. */
export const memberGrantSchema = z.object({
  role: roleNameSchema.nullable(),
  customRole: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** null: the whole organization. */
  environmentIds: z.array(z.string()).nullable(),
});
export type MemberGrant = z.infer<typeof memberGrantSchema>;

export const memberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  picture: z.string().nullable(),
  roles: z.array(memberGrantSchema),
  /** ISO time of the member's last call in this organization (to the minute); null before the first. */
  lastActiveAt: z.string().nullable(),
  joinedAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

/** GET users/v2. */
export const memberListSchema = z.object({ users: z.array(memberSchema) });
/** GET users/{id}, and the answer of every change to one member. */
export const memberResponseSchema = z.object({ userDetail: memberSchema });

/** GET users (v1): `roles` (role names) only with include_roles=true. */
export const userDetailsSchema = z.object({
  userDetails: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      picture: z.string().nullable(),
      roles: z.array(z.string()).optional(),
    }),
  ),
});
export const includeRolesQuerySchema = z.object({
  include_roles: z
    .enum(["true", "false"], { error: "include_roles must be true or false" })
    .optional()
    .transform((value) => value === "true"),
});

export const removeMemberQuerySchema = z.object({ userId: userIdSchema });

export const updateRolesRequestSchema = z.object({
  userId: userIdSchema,
  roles: z.array(roleGrantSchema).min(1, "Give the member at least one role"),
});
export type UpdateRolesRequest = z.infer<typeof updateRolesRequestSchema>;

export const memberByEmailRequestSchema = z.object({
  userEmail: requiredText("E-mail").pipe(z.email(messages.email)),
});

/** POST/DELETE users/roles/{userId} (v1): built-in roles held on the whole organization. */
export const roleNamesRequestSchema = z.object({
  role_names: z
    .array(roleNameSchema, { error: `role_names must list role names (${roleNames.join(", ")})` })
    .min(1, "List at least one role name"),
});

/** A role as GET roles/v2 lists it: built-in ones have their name as id. */
export const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(permissionSchema),
  builtIn: z.boolean(),
});
export type Role = z.infer<typeof roleSchema>;
export const roleListSchema = z.object({ roles: z.array(roleSchema) });
export const roleResponseSchema = z.object({ role: roleSchema });

/** A custom role: a name no built-in role has, and at least one permission from the catalogue. */
export const customRoleRequestSchema = z.object({
  name: requiredText("Name", { max: 60 }).refine(
    (name) => !(roleNames as readonly string[]).includes(name.toLowerCase()),
    "A built-in role already has this name",
  ),
  description: z
    .string()
    .trim()
    .max(255, `Description ${messages.max(255)}`)
    .default(""),
  permissions: z
    .array(permissionSchema, { error: "permissions must list permissions of the catalogue" })
    .min(1, "Choose at least one permission"),
});
export type CustomRoleRequest = z.infer<typeof customRoleRequestSchema>;

/**
 * The plans the platform offers and the limits it keeps to (issue 25). A new organization is on Free; there is no
 * billing yet, so another plan is the operator's to set (organizations.plan). Members are people and count open
 * invitations; service accounts (decision 070) take no member's seat and have a count of their own.
 */
export const plans = {
  FREE: {
    id: "FREE",
    name: "Free",
    limits: { members: 10, environments: 3, servicesPerEnvironment: 20, serviceAccounts: 5 },
  },
  TEAM: {
    id: "TEAM",
    name: "Team",
    limits: { members: 50, environments: 10, servicesPerEnvironment: 50, serviceAccounts: 25 },
  },
  ENTERPRISE: {
    id: "ENTERPRISE",
    name: "Enterprise",
    limits: { members: 1000, environments: 1000, servicesPerEnvironment: 1000, serviceAccounts: 1000 },
  },
} as const;
export type PlanId = keyof typeof plans;
export type Plan = (typeof plans)[PlanId];
export const freePlan = plans.FREE;
export const subscriptionSchema = z.object({
  subscription: z.object({
    plan: z.object({
      id: z.string(),
      name: z.string(),
      limits: z.object({
        members: z.number(),
        environments: z.number(),
        servicesPerEnvironment: z.number(),
        serviceAccounts: z.number(),
      }),
    }),
  }),
});
export type Subscription = z.infer<typeof subscriptionSchema>["subscription"];

export const referralQuerySchema = z.object({
  "referral-code": requiredText("Referral code", { max: 40 }),
});

export const organizationSettingsSchema = z.object({
  organization: z.object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    displayName: z.string(),
    referralCode: z.string(),
    referredBy: z.string().nullable(),
    createdAt: z.string(),
  }),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>["organization"];
export const renameOrganizationRequestSchema = z.object({ displayName: tenantDisplayNameSchema });

/** Told when a change would leave the organization without an admin on the whole organization. */
export const lastAdminMessage =
  "An organization must keep at least one admin: make another member admin of the whole organization first.";
