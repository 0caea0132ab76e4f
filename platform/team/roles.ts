import { and, asc, count, eq } from "drizzle-orm";
import { builtInRoles, permissionSchema, roleNames, type Permission } from "#contract/permissions";
import type { CustomRoleRequest, Role } from "#contract/users";
import type { Database } from "../db/index";
import { customRoles, roleGrants } from "../db/schema";

/** Why a custom role change was refused. */
export class RoleChangeError extends Error {
  constructor(
    readonly reason: "name-taken" | "in-use",
    message: string,
  ) {
    super(message);
    this.name = "RoleChangeError";
  }
}

type CustomRoleRow = typeof customRoles.$inferSelect;

function toRole(row: CustomRoleRow): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // Stored permissions are from the catalogue; one dropped from it later no longer counts (as in the access check).
    permissions: row.permissions.filter(
      (permission): permission is Permission => permissionSchema.safeParse(permission).success,
    ),
    builtIn: false,
  };
}

/** GET roles/v2 and GET users/roles: the built-in roles, then the organization's custom roles by name. */
export async function listRoles(db: Database, organizationId: string): Promise<Role[]> {
  const custom = await db
    .select()
    .from(customRoles)
    .where(eq(customRoles.organizationId, organizationId))
    .orderBy(asc(customRoles.name));
  return [
    ...roleNames.map((name) => ({
      id: name,
      name,
      description: builtInRoles[name].description,
      permissions: [...builtInRoles[name].permissions],
      builtIn: true,
    })),
    ...custom.map(toRole),
  ];
}

const nameTaken = () => new RoleChangeError("name-taken", "A role with this name already exists");

export async function createCustomRole(db: Database, organizationId: string, request: CustomRoleRequest) {
  // The unique (organization, name) index settles a race between two creators.
  const [row] = await db
    .insert(customRoles)
    .values({ organizationId, ...request })
    .onConflictDoNothing()
    .returning();
  if (!row) throw nameTaken();
  return toRole(row);
}

/** Null when the organization has no custom role with this id. */
export async function updateCustomRole(
  db: Database,
  organizationId: string,
  roleId: string,
  request: CustomRoleRequest,
) {
  const [clash] = await db
    .select({ id: customRoles.id })
    .from(customRoles)
    .where(and(eq(customRoles.organizationId, organizationId), eq(customRoles.name, request.name)));
  if (clash && clash.id !== roleId) throw nameTaken();
  const [row] = await db
    .update(customRoles)
    .set(request)
    .where(and(eq(customRoles.organizationId, organizationId), eq(customRoles.id, roleId)))
    .returning();
  return row ? toRole(row) : null;
}

/**
 * Deletes a custom role nobody holds; a held one is refused, so deleting a role never silently takes access
 * away from members. False when the organization has no such role.
 */
export async function deleteCustomRole(db: Database, organizationId: string, roleId: string) {
  return db.transaction(async (tx) => {
    const [role] = await tx
      .select({ id: customRoles.id })
      .from(customRoles)
      .where(and(eq(customRoles.organizationId, organizationId), eq(customRoles.id, roleId)))
      .for("update");
    if (!role) return false;
    const [held] = await tx
      .select({ value: count() })
      .from(roleGrants)
      .where(eq(roleGrants.customRoleId, roleId));
    if (held && held.value > 0) {
      throw new RoleChangeError(
        "in-use",
        `${held.value} ${held.value === 1 ? "member holds" : "members hold"} this role: change their roles first`,
      );
    }
    await tx.delete(customRoles).where(eq(customRoles.id, roleId));
    return true;
  });
}
