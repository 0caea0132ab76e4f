import type { RoleGrant } from "#contract/permissions";
import type { Database } from "../db/index";
import { memberships, roleGrants } from "../db/schema";

/** A grant as stored: a built-in role or a custom one, on the organization or on listed environments. */
export type GrantInput = Pick<RoleGrant, "role" | "customRoleId"> & { environmentIds?: string[] | null };

/** Makes `userId` a member of the organization holding `grants`; `db` may be a transaction. */
export async function addMember(
  db: Database,
  { userId, organizationId, grants }: { userId: string; organizationId: string; grants: GrantInput[] },
): Promise<void> {
  await db.insert(memberships).values({ userId, organizationId });
  if (grants.length === 0) return;
  await db.insert(roleGrants).values(
    grants.map((grant) => ({
      organizationId,
      userId,
      role: grant.role ?? null,
      customRoleId: grant.customRoleId ?? null,
      environmentIds: grant.environmentIds ?? null,
    })),
  );
}
