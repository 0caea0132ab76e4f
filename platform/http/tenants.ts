import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { apiErrorMessages } from "#contract/errors";
import type { RoleName } from "#contract/permissions";
import { createTenantRequestSchema, tenantResponseSchema, type Tenant } from "#contract/tenants";
import type { PlatformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { organizations } from "../db/schema";
import { startOnboarding } from "../onboarding/onboarding";
import { addMember } from "../team/members";
import { currentUser } from "./auth";
import { conflictOn } from "../lib/errors";
import { currentOrganization, type OrganizationAccess, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { permit, signedIn } from "./permissions";
import { documentRoutes } from "./documented";

const creatorRole: RoleName = "admin";

/** Auth0-style organization id: `org_` and 16 url-safe random characters. */
function newOrganizationId(): string {
  return `org_${randomBytes(12).toString("base64url")}`;
}

function toTenant(organization: Omit<OrganizationAccess, "grants">): Tenant {
  return {
    id: organization.tenantId,
    organizationId: organization.organizationId,
    name: organization.name,
    displayName: organization.displayName,
    approved: organization.approved,
  };
}

/** POST /tenant and GET /tenant/:tenantId (the latter behind the organization guard mounted by the app). */
export function tenantRoutes({
  db,
  config,
}: {
  db: Database;
  config: Pick<PlatformConfig, "tenantApprovalRequired">;
}) {
  const routes = new Hono<OrganizationEnv>();

  routes.post("/tenant", signedIn(), async (c) => {
    const { tenant } = await readJsonBody(c, createTenantRequestSchema);
    const creator = currentUser(c);
    const created = await db.transaction(async (tx) => {
      // The unique name decides a race between two creators; the loser gets the same 409 as a sequential duplicate.
      const [organization] = await tx
        .insert(organizations)
        .values({
          id: newOrganizationId(),
          name: tenant.name,
          displayName: tenant.displayName,
          approved: !config.tenantApprovalRequired,
        })
        .onConflictDoNothing({ target: organizations.name })
        .returning({
          organizationId: organizations.id,
          tenantId: organizations.tenantId,
          name: organizations.name,
          displayName: organizations.displayName,
          approved: organizations.approved,
        });
      if (!organization) return undefined;
      await addMember(tx, {
        userId: creator.id,
        organizationId: organization.organizationId,
        grants: [{ role: creatorRole }],
      });
      // Created through the form: the new organization starts with the walk-through (decision 039).
      await startOnboarding(tx, organization.organizationId);
      return organization;
    });
    if (!created) throw conflictOn("tenant.name", apiErrorMessages.organizationNameTaken);
    return sendJson(c, tenantResponseSchema, { tenant: toTenant(created) }, 201);
  });

  routes.get("/tenant/:tenantId", permit("organization.view"), (c) =>
    sendJson(c, tenantResponseSchema, { tenant: toTenant(currentOrganization(c)) }),
  );

  documentRoutes(routes, {
    "POST /tenant": { body: createTenantRequestSchema, responses: { 201: tenantResponseSchema } },
    "GET /tenant/:tenantId": { responses: { 200: tenantResponseSchema } },
  });
  return routes;
}
