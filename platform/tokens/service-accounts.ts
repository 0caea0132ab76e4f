import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { ServiceAccount } from "#contract/api-tokens";
import type { Database } from "../db/index";
import { apiTokens, customRoles, memberships, roleGrants, serviceAccounts, users } from "../db/schema";
import { assertRoomForServiceAccount } from "../plans/limits";
import { addMember, checkGrants, type GrantInput, type Team } from "../team/members";
import { tokenView } from "./tokens";

/** No password hash verifies against this (platform/identity/passwords.ts): nobody signs in as a service account. */
const NO_PASSWORD = "service-account";

/**
 * Creates a service account: a user of its own (an `.invalid` address, which mail never reaches and sign-up
 * cannot take), a member of the organization holding `grants`, marked in `service_accounts`. It takes no
 * member's seat; the plan limits service accounts on their own.
 */
export async function createServiceAccount(
  tx: Database,
  { team, name, grants, createdBy }: { team: Team; name: string; grants: GrantInput[]; createdBy: string },
): Promise<string> {
  await checkGrants(tx, team, grants);
  await assertRoomForServiceAccount(tx, team.organizationId);
  const id = `sa_${randomUUID()}`;
  await tx
    .insert(users)
    .values({ id, email: `${id}@service-accounts.invalid`, name, passwordHash: NO_PASSWORD });
  await addMember(tx, { userId: id, organizationId: team.organizationId, grants });
  await tx.insert(serviceAccounts).values({ userId: id, organizationId: team.organizationId, createdBy });
  return id;
}

/** Whether `id` is one of the organization's service accounts. */
export async function isServiceAccountOf(db: Database, organizationId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: serviceAccounts.userId })
    .from(serviceAccounts)
    .where(and(eq(serviceAccounts.userId, id), eq(serviceAccounts.organizationId, organizationId)));
  return row !== undefined;
}

/** Deletes a service account; its membership, grants and tokens go with its user. False when not found. */
export async function deleteServiceAccount(
  tx: Database,
  organizationId: string,
  id: string,
): Promise<boolean> {
  if (!(await isServiceAccountOf(tx, organizationId, id))) return false;
  await tx.delete(users).where(eq(users.id, id));
  return true;
}

/** The organization's service accounts with their roles and live tokens, by name. */
export async function listServiceAccounts(db: Database, organizationId: string): Promise<ServiceAccount[]> {
  const accounts = await db
    .select({ id: users.id, name: users.name, createdAt: serviceAccounts.createdAt })
    .from(serviceAccounts)
    .innerJoin(users, eq(users.id, serviceAccounts.userId))
    .innerJoin(
      memberships,
      and(eq(memberships.userId, users.id), eq(memberships.organizationId, organizationId)),
    )
    .where(eq(serviceAccounts.organizationId, organizationId))
    .orderBy(asc(users.name));
  if (accounts.length === 0) return [];
  const ids = accounts.map((account) => account.id);
  const [grants, tokens] = await Promise.all([
    db
      .select({
        userId: roleGrants.userId,
        role: roleGrants.role,
        customRoleId: customRoles.id,
        customRoleName: customRoles.name,
        environmentIds: roleGrants.environmentIds,
      })
      .from(roleGrants)
      .leftJoin(customRoles, eq(customRoles.id, roleGrants.customRoleId))
      .where(and(eq(roleGrants.organizationId, organizationId), inArray(roleGrants.userId, ids))),
    db
      .select()
      .from(apiTokens)
      .where(
        and(
          eq(apiTokens.organizationId, organizationId),
          inArray(apiTokens.userId, ids),
          isNull(apiTokens.revokedAt),
        ),
      )
      .orderBy(asc(apiTokens.createdAt)),
  ]);
  return accounts.map((account) => ({
    id: account.id,
    name: account.name,
    createdAt: account.createdAt.toISOString(),
    roles: grants
      .filter((grant) => grant.userId === account.id)
      .map((grant) => ({
        role: grant.role,
        customRole:
          grant.customRoleId && grant.customRoleName
            ? { id: grant.customRoleId, name: grant.customRoleName }
            : null,
        environmentIds: grant.environmentIds,
      })),
    tokens: tokens.filter((token) => token.userId === account.id).map(tokenView),
  }));
}
