import * as z from "zod";
import { permissions, permissionSchema, type Permission } from "#contract/permissions";
import { customRoleRequestSchema, type CustomRoleRequest, type Member, type Role } from "#contract/users";

/** Every member holds it, so every role includes it: the form shows it checked and cannot drop it. */
export const alwaysHeld: Permission = "organization.view";

/** The catalogue as the role form shows it: each permission once, grouped by what it acts on. */
export const permissionGroups: { label: string; permissions: readonly Permission[] }[] = [
  {
    label: "Organization",
    permissions: [
      "organization.view",
      "organization.manage",
      "users.manage",
      "billing.view",
      "billing.manage",
      "audit.view",
    ],
  },
  {
    label: "Environments",
    permissions: [
      "environments.create",
      "environments.configure",
      "environments.delete",
      "variables.write",
      "secrets.reveal",
    ],
  },
  { label: "Services", permissions: ["services.deploy", "services.configure", "services.delete"] },
  { label: "Integrations", permissions: ["connections.manage", "terraform.generate"] },
];

/**
 * The create and edit form of a custom role: the contract's name and description rules, and the checked
 * permissions plus the one every member holds. A role holding only that one would be read-only under another
 * name, so the form asks for one more.
 */
export const roleFormSchema = z.object({
  name: customRoleRequestSchema.shape.name,
  description: customRoleRequestSchema.shape.description,
  permissions: z
    .array(z.string())
    .default([])
    .refine(
      (chosen) => chosen.every((permission) => permissionSchema.safeParse(permission).success),
      "Choose permissions of the catalogue",
    )
    .refine(
      (chosen) => chosen.some((permission) => permission !== alwaysHeld),
      "Choose at least one permission",
    )
    .transform((chosen): Permission[] => permissions.filter((p) => p === alwaysHeld || chosen.includes(p))),
}) satisfies z.ZodType<CustomRoleRequest, unknown>;

/** How many members hold each role (by role id: a built-in role's name, a custom role's id), scoped or not. */
export function holdersPerRole(members: Pick<Member, "roles">[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const member of members) {
    const held = new Set(member.roles.map((grant) => grant.role ?? grant.customRole?.id ?? ""));
    for (const roleId of held) counts.set(roleId, (counts.get(roleId) ?? 0) + 1);
  }
  return counts;
}

/** The form's starting values for a role being edited. */
export function roleFormDefaults(role: Pick<Role, "name" | "description" | "permissions">) {
  return { name: role.name, description: role.description, permissions: [...role.permissions] };
}
