import * as z from "zod";

/**
 * What a member may do (issue 12, SPEC §6): one catalogue for the platform, which checks every route against it,
 * and for the app, which hides or disables what the user may not do. `organization.view` is held by every member:
 * seeing what the organization holds, secret values excepted.
 */
export const permissions = [
  "organization.view",
  "organization.manage",
  "environments.create",
  "environments.configure",
  "environments.delete",
  "variables.write",
  "secrets.reveal",
  "services.deploy",
  "services.configure",
  "services.delete",
  "connections.manage",
  "users.manage",
  "billing.view",
  "billing.manage",
  "audit.view",
  "terraform.generate",
] as const;
export type Permission = (typeof permissions)[number];
export const permissionSchema = z.enum(permissions);

export const permissionDescriptions: Record<Permission, string> = {
  "organization.view": "See the organization's environments, services and settings (not secret values)",
  "organization.manage": "Rename the organization, set its audit retention and end its onboarding",
  "environments.create": "Create and clone environments",
  "environments.configure": "Change an environment's configuration, add-ons and integrations",
  "environments.delete": "Delete environments",
  "variables.write": "Add, change, import and delete environment variables",
  "secrets.reveal": "Reveal secret variables and secret service attributes",
  "services.deploy": "Launch, retry, cancel and redeploy services",
  "services.configure": "Create services and change their settings",
  "services.delete": "Delete services",
  "connections.manage": "Connect and remove cloud accounts and tools",
  "users.manage": "Invite, remove and change the roles of members; manage roles",
  "billing.view": "See costs, budgets and the subscription",
  "billing.manage": "Set the organization's and environments' budgets",
  "audit.view": "Read and export the audit log",
  "terraform.generate": "Generate Terraform for an AWS account",
};

/** The roles every organization has; custom roles are composed from the same catalogue. */
export const roleNames = ["admin", "developer", "read-only"] as const;
export type RoleName = (typeof roleNames)[number];
export const roleNameSchema = z.enum(roleNames);

export const builtInRoles: Record<RoleName, { description: string; permissions: readonly Permission[] }> = {
  admin: { description: "Manages the organization, its users and every resource", permissions },
  developer: {
    description: "Deploys and operates services, variables and environment settings",
    permissions: [
      "organization.view",
      "environments.create",
      "environments.configure",
      "variables.write",
      "secrets.reveal",
      "services.deploy",
      "services.configure",
      "services.delete",
      "terraform.generate",
    ],
  },
  "read-only": {
    description: "Sees everything except secret values, changes nothing",
    permissions: ["organization.view"],
  },
};

/** A role held on the whole organization (`environmentIds` null) or on the listed environments only. */
export const roleGrantSchema = z
  .object({
    role: roleNameSchema.optional(),
    customRoleId: z.guid("customRoleId must be the id of a role").optional(),
    environmentIds: z
      .array(z.guid("environmentIds must hold environment ids"))
      .min(1, "List at least one environment, or grant the role on the whole organization")
      .nullable()
      .default(null),
  })
  .refine((grant) => (grant.role === undefined) !== (grant.customRoleId === undefined), {
    message: "Give either a built-in role or a custom role",
    path: ["role"],
  });
export type RoleGrant = z.infer<typeof roleGrantSchema>;

/** A grant as the platform resolved it: the permissions its role holds. */
export type ResolvedGrant = { permissions: readonly string[]; environmentIds: readonly string[] | null };

/**
 * What the holder of `grants` may do in the organization as a whole (`environmentId` undefined) or in one
 * environment: every member may view; a grant adds its role's permissions where its scope reaches.
 */
export function permissionsFor(grants: readonly ResolvedGrant[], environmentId?: string): Set<Permission> {
  const held = new Set<Permission>(["organization.view"]);
  for (const grant of grants) {
    const reaches =
      grant.environmentIds === null ||
      (environmentId !== undefined && grant.environmentIds.includes(environmentId));
    if (!reaches) continue;
    for (const permission of grant.permissions) {
      if (permissionSchema.safeParse(permission).success) held.add(permission as Permission);
    }
  }
  return held;
}

/** GET users/v2/permissions: the caller's permissions in the organization and in each environment. */
export const effectivePermissionsSchema = z.object({
  organization: z.array(permissionSchema),
  environments: z.record(z.string(), z.array(permissionSchema)),
});
export type EffectivePermissions = z.infer<typeof effectivePermissionsSchema>;

/** Whether the effective permissions allow `permission` (in `environmentId` when given). */
export function canDo(
  effective: EffectivePermissions,
  permission: Permission,
  environmentId?: string,
): boolean {
  const inEnvironment = environmentId ? effective.environments[environmentId] : undefined;
  return (inEnvironment ?? effective.organization).includes(permission);
}
