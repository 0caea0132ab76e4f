import { and, asc, eq, inArray, isNull, notExists, sql, type SQL } from "drizzle-orm";
import type { RoleGrant, RoleName } from "#contract/permissions";
import { lastAdminMessage, type Member, type MemberGrant } from "#contract/users";
import type { Database } from "../db/index";
import {
  customRoles,
  environments,
  memberships,
  organizations,
  roleGrants,
  serviceAccounts,
  users,
} from "../db/schema";

/** A grant as stored: a built-in role or a custom one, on the organization or on listed environments. */
export type GrantInput = Pick<RoleGrant, "role" | "customRoleId"> & { environmentIds?: string[] | null };

/** The organization a team change applies to. */
export type Team = { organizationId: string; tenantId: string };

/** Why a team change was refused; the API turns each into its status. */
export class TeamChangeError extends Error {
  constructor(
    readonly reason: "last-admin" | "invalid-grants",
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = "TeamChangeError";
  }
}

/** Makes `userId` a member of the organization holding `grants`; `db` may be a transaction. */
export async function addMember(
  db: Database,
  { userId, organizationId, grants }: { userId: string; organizationId: string; grants: GrantInput[] },
): Promise<void> {
  await db.insert(memberships).values({ userId, organizationId });
  await insertGrants(db, organizationId, userId, grants);
}

async function insertGrants(db: Database, organizationId: string, userId: string, grants: GrantInput[]) {
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

const memberColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  picture: users.picture,
  lastActiveAt: memberships.lastActiveAt,
  joinedAt: memberships.createdAt,
};

/** The members (all, or those matching `where`), sorted by name, with their grants. */
async function selectMembers(db: Database, organizationId: string, where?: SQL): Promise<Member[]> {
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), where))
    .orderBy(asc(sql`lower(${users.name})`), asc(users.email));
  if (rows.length === 0) return [];
  const grants = await db
    .select({
      userId: roleGrants.userId,
      role: roleGrants.role,
      customRoleId: customRoles.id,
      customRoleName: customRoles.name,
      environmentIds: roleGrants.environmentIds,
    })
    .from(roleGrants)
    .leftJoin(customRoles, eq(customRoles.id, roleGrants.customRoleId))
    .where(
      and(
        eq(roleGrants.organizationId, organizationId),
        inArray(
          roleGrants.userId,
          rows.map((row) => row.id),
        ),
      ),
    )
    // Organization-wide grants first, then by role name: the order a reader scans a member's access in.
    .orderBy(
      asc(sql`${roleGrants.environmentIds} is not null`),
      asc(sql`coalesce(${roleGrants.role}, ${customRoles.name})`),
    );
  const byUser = new Map<string, MemberGrant[]>();
  for (const grant of grants) {
    const list = byUser.get(grant.userId) ?? [];
    list.push({
      role: grant.role as RoleName | null,
      customRole:
        grant.customRoleId && grant.customRoleName
          ? { id: grant.customRoleId, name: grant.customRoleName }
          : null,
      environmentIds: grant.environmentIds,
    });
    byUser.set(grant.userId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    picture: row.picture,
    roles: byUser.get(row.id) ?? [],
    lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
    joinedAt: row.joinedAt.toISOString(),
  }));
}

/** GET users/v2: every member, sorted by name; service accounts (decision 070) are listed apart. */
export function listMembers(db: Database, organizationId: string): Promise<Member[]> {
  return selectMembers(
    db,
    organizationId,
    notExists(db.select().from(serviceAccounts).where(eq(serviceAccounts.userId, users.id))),
  );
}

/** One member, or null when the user is not a member of this organization (whatever else they belong to). */
export async function findMember(db: Database, organizationId: string, userId: string) {
  const [member] = await selectMembers(db, organizationId, eq(users.id, userId));
  return member ?? null;
}

export async function findMemberByEmail(db: Database, organizationId: string, email: string) {
  const [member] = await selectMembers(
    db,
    organizationId,
    eq(sql`lower(${users.email})`, email.toLowerCase()),
  );
  return member ?? null;
}

/**
 * Runs a change to the team in a transaction that first locks the organization's row, so two admins demoting
 * each other at once cannot both pass the last-admin check; the check runs after the change, before commit.
 * Resolves false when `userId` is not a member (nothing changed).
 */
async function changeMember(
  db: Database,
  organizationId: string,
  userId: string,
  change: (tx: Database) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for("update");
    const [membership] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    if (!membership) return false;
    await change(tx);
    const [admin] = await tx
      .select({ userId: roleGrants.userId })
      .from(roleGrants)
      .where(
        and(
          eq(roleGrants.organizationId, organizationId),
          eq(roleGrants.role, "admin" satisfies RoleName),
          isNull(roleGrants.environmentIds),
          // A service account holding admin does not count: a person must be left to manage the organization.
          notExists(tx.select().from(serviceAccounts).where(eq(serviceAccounts.userId, roleGrants.userId))),
        ),
      )
      .limit(1);
    if (!admin) throw new TeamChangeError("last-admin", lastAdminMessage);
    return true;
  });
}

/**
 * Refuses grants naming environments or custom roles of another organization (or none), as field errors on the
 * request's `roles.{n}` entries.
 */
export async function checkGrants(db: Database, team: Team, grants: GrantInput[], field = "roles") {
  const environmentIds = [...new Set(grants.flatMap((grant) => grant.environmentIds ?? []))];
  const customRoleIds = [
    ...new Set(grants.flatMap((grant) => (grant.customRoleId ? [grant.customRoleId] : []))),
  ];
  const knownEnvironments = new Set(
    environmentIds.length
      ? (
          await db
            .select({ id: environments.id })
            .from(environments)
            .where(and(eq(environments.tenantId, team.tenantId), inArray(environments.id, environmentIds)))
        ).map((row) => row.id)
      : [],
  );
  const knownRoles = new Set(
    customRoleIds.length
      ? (
          await db
            .select({ id: customRoles.id })
            .from(customRoles)
            .where(
              and(
                eq(customRoles.organizationId, team.organizationId),
                inArray(customRoles.id, customRoleIds),
              ),
            )
        ).map((row) => row.id)
      : [],
  );
  const fieldErrors: Record<string, string[]> = {};
  grants.forEach((grant, index) => {
    if (grant.environmentIds?.some((id) => !knownEnvironments.has(id))) {
      fieldErrors[`${field}.${index}.environmentIds`] = ["No environment of this organization has this id"];
    }
    if (grant.customRoleId && !knownRoles.has(grant.customRoleId)) {
      fieldErrors[`${field}.${index}.customRoleId`] = ["No role of this organization has this id"];
    }
  });
  const [first] = Object.values(fieldErrors);
  if (first?.[0]) throw new TeamChangeError("invalid-grants", first[0], fieldErrors);
}

/** POST users/v2/roles/update: the member's grants become `grants`. Null when not a member. */
export async function setMemberGrants(db: Database, team: Team, userId: string, grants: GrantInput[]) {
  await checkGrants(db, team, grants);
  const changed = await changeMember(db, team.organizationId, userId, async (tx) => {
    await tx
      .delete(roleGrants)
      .where(and(eq(roleGrants.organizationId, team.organizationId), eq(roleGrants.userId, userId)));
    await insertGrants(tx, team.organizationId, userId, grants);
  });
  return changed ? findMember(db, team.organizationId, userId) : null;
}

/** POST users/roles/{userId} (v1): adds the organization-wide built-in roles the member does not hold yet. */
export async function addOrganizationRoles(db: Database, team: Team, userId: string, roleNames: RoleName[]) {
  const changed = await changeMember(db, team.organizationId, userId, async (tx) => {
    const held = await tx
      .select({ role: roleGrants.role })
      .from(roleGrants)
      .where(
        and(
          eq(roleGrants.organizationId, team.organizationId),
          eq(roleGrants.userId, userId),
          isNull(roleGrants.environmentIds),
        ),
      );
    const heldNames = new Set(held.map((grant) => grant.role));
    const missing = [...new Set(roleNames)].filter((role) => !heldNames.has(role));
    await insertGrants(
      tx,
      team.organizationId,
      userId,
      missing.map((role) => ({ role })),
    );
  });
  return changed ? findMember(db, team.organizationId, userId) : null;
}

/** DELETE users/roles/{userId} (v1): removes the member's organization-wide grants of these built-in roles. */
export async function removeOrganizationRoles(
  db: Database,
  team: Team,
  userId: string,
  roleNames: RoleName[],
) {
  const changed = await changeMember(db, team.organizationId, userId, async (tx) => {
    await tx
      .delete(roleGrants)
      .where(
        and(
          eq(roleGrants.organizationId, team.organizationId),
          eq(roleGrants.userId, userId),
          isNull(roleGrants.environmentIds),
          inArray(roleGrants.role, roleNames),
        ),
      );
  });
  return changed ? findMember(db, team.organizationId, userId) : null;
}

/**
 * Removes the member (their grants go with the membership). Their next request is refused: every request's
 * access query reads the membership. False when not a member.
 */
export function removeMember(db: Database, team: Team, userId: string): Promise<boolean> {
  return changeMember(db, team.organizationId, userId, async (tx) => {
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organizationId, team.organizationId), eq(memberships.userId, userId)));
  });
}
