import { and, eq, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import * as z from "zod";
import { apiTokenErrorMessages } from "#contract/api-tokens";
import { apiErrorCodes } from "#contract/errors";
import { builtInRoles, type Permission, type ResolvedGrant, type RoleName } from "#contract/permissions";
import type { Database } from "../db/index";
import { customRoles, memberships, oidcPayloads, organizations, roleGrants, users } from "../db/schema";
import {
  apiTokenOf,
  assertLiveCaller,
  liveGrantCondition,
  verifiedClaims,
  type AccessTokenClaims,
  type ApiTokenCaller,
  type AuthenticatedEnv,
} from "./auth";
import { forbiddenOrganization, HttpError, tenantApprovalRequired, unauthorized } from "./errors";

/** The organization a request is about, with the roles the caller holds in it. */
export type OrganizationAccess = {
  organizationId: string;
  tenantId: string;
  name: string;
  displayName: string;
  approved: boolean;
  grants: ResolvedGrant[];
};

export type OrganizationEnv = {
  Variables: AuthenticatedEnv["Variables"] & { organization: OrganizationAccess };
};

/** PostgreSQL rejects a malformed uuid with an error, so anything else is refused before it reaches a query. */
const tenantIdSchema = z.guid();

type StoredGrant = { role: string | null; permissions: string[] | null; environmentIds: string[] | null };

/** The member's grants with their roles' permissions, as one JSON value of the access query. */
function grantsOf(organizationId: SQL | typeof organizations.id, userId: SQL | typeof users.id) {
  return sql<StoredGrant[]>`(select coalesce(json_agg(json_build_object(
      'role', ${roleGrants.role},
      'permissions', ${customRoles.permissions},
      'environmentIds', ${roleGrants.environmentIds})), '[]'::json)
    from ${roleGrants} left join ${customRoles} on ${customRoles.id} = ${roleGrants.customRoleId}
    where ${roleGrants.organizationId} = ${organizationId} and ${roleGrants.userId} = ${userId})`;
}

function resolveGrants(stored: StoredGrant[]): ResolvedGrant[] {
  return stored.map((grant) => ({
    permissions: grant.role
      ? (builtInRoles[grant.role as RoleName]?.permissions ?? [])
      : (grant.permissions ?? []),
    environmentIds: grant.environmentIds,
  }));
}

/**
 * The caller's access to the tenant, or a 403: non-members and unknown or malformed ids get the same answer, so
 * it reveals nothing about other tenants; only members learn that their organization awaits approval.
 */
export async function resolveOrganizationAccess(
  db: Database,
  userId: string,
  tenantId: string,
): Promise<OrganizationAccess> {
  if (!tenantIdSchema.safeParse(tenantId).success) throw forbiddenOrganization();
  const [access] = await db
    .select({
      organizationId: organizations.id,
      tenantId: organizations.tenantId,
      name: organizations.name,
      displayName: organizations.displayName,
      approved: organizations.approved,
      grants: grantsOf(organizations.id, sql`${userId}`),
    })
    .from(organizations)
    .innerJoin(
      memberships,
      and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, userId)),
    )
    .where(eq(organizations.tenantId, tenantId));
  if (!access) throw forbiddenOrganization();
  if (!access.approved) throw tenantApprovalRequired();
  return { ...access, grants: resolveGrants(access.grants) };
}

/**
 * Guards every route under a `:tenantId` path segment: the caller (user, live sign-in), membership and approval,
 * all in one query, which also loads the caller's role grants for the routes' permission checks
 * (platform/http/permissions.ts). It is mounted on path patterns rather than on individual routes so routes added
 * later are covered.
 */
export function requireOrganizationAccess(db: Database): MiddlewareHandler<OrganizationEnv> {
  return async (c, next) => {
    const token = apiTokenOf(c);
    if (token) {
      c.set("user", token.user);
      c.set("organization", await tokenAccess(db, token, c.req.param("tenantId") ?? ""));
      return next();
    }
    const { user, access } = await resolveCallerAndAccess(
      db,
      verifiedClaims(c),
      c.req.param("tenantId") ?? "",
    );
    c.set("user", user);
    c.set("organization", access);
    await next();
  };
}

/**
 * An API token's access (decision 070): only in its own organization (elsewhere 401, saying so), as its user's
 * membership grants, narrowed to a personal token's permissions. A member removed from the organization takes
 * their tokens' access with them.
 */
async function tokenAccess(
  db: Database,
  token: ApiTokenCaller,
  tenantId: string,
): Promise<OrganizationAccess> {
  if (token.tenantId !== tenantId) {
    throw unauthorized(apiTokenErrorMessages.foreignOrganization, { tokenPresented: true });
  }
  let access: OrganizationAccess;
  try {
    access = await resolveOrganizationAccess(db, token.user.id, tenantId);
  } catch (error) {
    if (error instanceof HttpError && error.body.code === apiErrorCodes.forbidden) {
      throw unauthorized(apiTokenErrorMessages.ownerGone, { tokenPresented: true });
    }
    throw error;
  }
  const narrowed = token.permissions;
  if (!narrowed) return access;
  return {
    ...access,
    grants: access.grants.map((grant) => ({
      ...grant,
      permissions: grant.permissions.filter((permission) => narrowed.includes(permission as Permission)),
    })),
  };
}

/**
 * The token's user (401 when gone or signed out) and their access to the tenant (403 as in
 * `resolveOrganizationAccess`), read in one statement: every table is reached by its primary or unique key.
 */
async function resolveCallerAndAccess(db: Database, claims: AccessTokenClaims, tenantId: string) {
  // A malformed tenant id never reaches PostgreSQL's uuid cast; it matches no organization instead.
  const validTenantId = tenantIdSchema.safeParse(tenantId).success;
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      userName: users.name,
      grantId: oidcPayloads.id,
      organizationId: organizations.id,
      tenantId: organizations.tenantId,
      name: organizations.name,
      displayName: organizations.displayName,
      approved: organizations.approved,
      member: memberships.userId,
      lastActiveAt: memberships.lastActiveAt,
      grants: grantsOf(organizations.id, users.id),
    })
    .from(users)
    .leftJoin(oidcPayloads, liveGrantCondition(claims, new Date()))
    .leftJoin(organizations, validTenantId ? eq(organizations.tenantId, tenantId) : sql`false`)
    .leftJoin(
      memberships,
      and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, users.id)),
    )
    .where(eq(users.id, claims.subject));
  assertLiveCaller(row);
  const { organizationId, tenantId: memberTenantId, name, displayName, approved, member } = row;
  if (
    organizationId === null ||
    memberTenantId === null ||
    name === null ||
    displayName === null ||
    approved === null ||
    member === null
  ) {
    throw forbiddenOrganization();
  }
  if (!approved) throw tenantApprovalRequired();
  await recordActivity(db, { userId: row.id, organizationId, lastActiveAt: row.lastActiveAt });
  return {
    user: { id: row.id, email: row.email, name: row.userName },
    access: {
      organizationId,
      tenantId: memberTenantId,
      name,
      displayName,
      approved,
      grants: resolveGrants(row.grants),
    },
  };
}

/** Members' last activity is kept to the minute, so at most one write per member and minute. */
export const ACTIVITY_RESOLUTION_MS = 60_000;

/**
 * Moves the member's `last_active_at` on when the value the access query loaded is a minute old (or unset); the
 * update's own condition keeps concurrent requests from writing it twice.
 */
async function recordActivity(
  db: Database,
  {
    userId,
    organizationId,
    lastActiveAt,
  }: { userId: string; organizationId: string; lastActiveAt: Date | null },
) {
  const now = new Date();
  if (lastActiveAt && now.getTime() - lastActiveAt.getTime() < ACTIVITY_RESOLUTION_MS) return;
  const staleBefore = new Date(now.getTime() - ACTIVITY_RESOLUTION_MS);
  await db
    .update(memberships)
    .set({ lastActiveAt: now })
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.organizationId, organizationId),
        or(isNull(memberships.lastActiveAt), lt(memberships.lastActiveAt, staleBefore)),
      ),
    );
}

/** The organization checked by `requireOrganizationAccess`, failing closed if a route was mounted outside it. */
export function currentOrganization(c: Context<OrganizationEnv>): OrganizationAccess {
  const organization = c.get("organization") as OrganizationAccess | undefined;
  if (!organization) throw new Error("Route is not behind the requireOrganizationAccess middleware");
  return organization;
}
