import { and, eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import * as z from "zod";
import type { Database } from "../db/index";
import { memberships, organizations, roles } from "../db/schema";
import { currentUser, type AuthenticatedEnv } from "./auth";
import { forbiddenOrganization, readOnlyRole, tenantApprovalRequired } from "./errors";

/** The organization a request is about, with the caller's role in it. */
export type OrganizationAccess = {
  organizationId: string;
  tenantId: string;
  name: string;
  displayName: string;
  approved: boolean;
  roleName: string;
  canWrite: boolean;
};

export type OrganizationEnv = {
  Variables: AuthenticatedEnv["Variables"] & { organization: OrganizationAccess };
};

/** PostgreSQL rejects a malformed uuid with an error, so anything else is refused before it reaches a query. */
const tenantIdSchema = z.guid();

const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

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
      roleName: memberships.roleName,
      canWrite: roles.canWrite,
    })
    .from(organizations)
    .innerJoin(
      memberships,
      and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, userId)),
    )
    .innerJoin(roles, eq(roles.name, memberships.roleName))
    .where(eq(organizations.tenantId, tenantId));
  if (!access) throw forbiddenOrganization();
  if (!access.approved) throw tenantApprovalRequired();
  return access;
}

/**
 * Guards every route under a `:tenantId` path segment: membership, approval, and no writes for roles that may
 * only read. It is mounted on path patterns rather than on individual routes so routes added later are covered.
 */
export function requireOrganizationAccess(db: Database): MiddlewareHandler<OrganizationEnv> {
  return async (c, next) => {
    const access = await resolveOrganizationAccess(db, currentUser(c).id, c.req.param("tenantId") ?? "");
    if (writeMethods.has(c.req.method) && !access.canWrite) throw readOnlyRole();
    c.set("organization", access);
    await next();
  };
}

/** The organization checked by `requireOrganizationAccess`, failing closed if a route was mounted outside it. */
export function currentOrganization(c: Context<OrganizationEnv>): OrganizationAccess {
  const organization = c.get("organization") as OrganizationAccess | undefined;
  if (!organization) throw new Error("Route is not behind the requireOrganizationAccess middleware");
  return organization;
}
