import { Hono } from "hono";
import { endOnboardingRequestSchema, onboardingResponseSchema } from "#contract/onboarding";
import type { Database } from "../db/index";
import { endOnboarding, readOnboarding } from "../onboarding/onboarding";
import { currentUser } from "./auth";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { documentRoutes } from "./documented";

/**
 * GET and PUT /v2/organizations/:tenantId/onboarding (issue 17, decision 039): every member sees the state and the
 * checklist; ending it for the organization takes organization.manage (it changes what every member's home is).
 */
export function onboardingRoutes({ db, now }: { db: Database; now: () => Date }) {
  const routes = new Hono<OrganizationEnv>();

  routes.get("/onboarding", permit("organization.view"), async (c) =>
    sendJson(c, onboardingResponseSchema, { onboarding: await readOnboarding(db, currentOrganization(c)) }),
  );

  routes.put("/onboarding", permit("organization.manage"), async (c) => {
    const { status } = await readJsonBody(c, endOnboardingRequestSchema);
    const organization = currentOrganization(c);
    await db.transaction((tx) =>
      endOnboarding(tx, {
        organizationId: organization.organizationId,
        userId: currentUser(c).id,
        outcome: status,
        at: now(),
      }),
    );
    return sendJson(c, onboardingResponseSchema, { onboarding: await readOnboarding(db, organization) });
  });

  documentRoutes(routes, {
    "GET /onboarding": { responses: { 200: onboardingResponseSchema } },
    "PUT /onboarding": { body: endOnboardingRequestSchema, responses: { 200: onboardingResponseSchema } },
  });
  return routes;
}
