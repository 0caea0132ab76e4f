import { eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import {
  apiTokenListSchema,
  createdApiTokenSchema,
  createPersonalTokenSchema,
  createServiceAccountSchema,
  createServiceAccountTokenSchema,
  currentApiTokenSchema,
  regenerateApiTokenSchema,
  serviceAccountListSchema,
  serviceAccountSchema,
} from "#contract/api-tokens";
import { permissionsFor } from "#contract/permissions";
import type { Database } from "../db/index";
import { apiTokens, organizations } from "../db/schema";
import { invalidFields, notFound } from "../lib/errors";
import { TeamChangeError } from "../team/members";
import {
  createServiceAccount,
  deleteServiceAccount,
  isServiceAccountOf,
  listServiceAccounts,
} from "../tokens/service-accounts";
import { issueToken, listTokens, regenerateToken, revokeToken, tokenView } from "../tokens/tokens";
import { apiTokenOf, assertSignedInPerson, currentUser, type AuthenticatedEnv } from "./auth";
import { permit, signedIn } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { documentRoutes } from "./documented";

const tokenNotFound = () => notFound("API token not found");
/** Token ids are uuids; anything else names no token (and never reaches PostgreSQL's uuid cast). */
const isTokenId = (value: string) => z.guid().safeParse(value).success;
const serviceAccountNotFound = () => notFound("Service account not found");

/** Foreign grants become the request's field errors, as on the members' routes. */
async function grantsChecked<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof TeamChangeError) throw invalidFields(error.fieldErrors);
    throw error;
  }
}

/**
 * GET /api-tokens/current: what the presented token is, so a client holding only a token (the CLI) finds its
 * organization. Mounted before `requireUser`, which refuses tokens outside their organization's routes.
 */
export function currentApiTokenRoutes({ db }: { db: Database }) {
  const routes = new Hono<AuthenticatedEnv>();
  routes.get("/api-tokens/current", signedIn(), async (c) => {
    const token = apiTokenOf(c);
    if (!token) throw notFound("This call answers for API tokens; a signed-in person has none to describe");
    const [found] = await db
      .select({ row: apiTokens, organizationName: organizations.name })
      .from(apiTokens)
      .innerJoin(organizations, eq(organizations.id, apiTokens.organizationId))
      .where(eq(apiTokens.id, token.tokenId));
    if (!found) throw tokenNotFound();
    return sendJson(c, currentApiTokenSchema, {
      tenantId: token.tenantId,
      organizationName: found.organizationName,
      token: tokenView(found.row),
      serviceAccount: token.serviceAccount ? token.user.name : null,
    });
  });
  documentRoutes(routes, { "GET /api-tokens/current": { responses: { 200: currentApiTokenSchema } } });
  return routes;
}

/**
 * A member's personal tokens and the organization's service accounts (decision 070), mounted at
 * /v2/organizations/:tenantId. Every member manages their own tokens; service accounts take users.manage. Minting
 * and revoking take a signed-in person, so a leaked token cannot make itself another.
 */
export function apiTokenRoutes({ db, now }: { db: Database; now: () => Date }) {
  const routes = new Hono<OrganizationEnv>();
  const organizationOf = (c: Context<OrganizationEnv>) => currentOrganization(c).organizationId;

  routes.get("/api-tokens", permit("organization.view"), async (c) =>
    sendJson(c, apiTokenListSchema, { tokens: await listTokens(db, organizationOf(c), currentUser(c).id) }),
  );

  routes.post("/api-tokens", permit("organization.view"), async (c) => {
    assertSignedInPerson(c);
    const { name, expiresInDays, permissions } = await readJsonBody(c, createPersonalTokenSchema);
    // A token narrows its owner's permissions; it never holds one they do not.
    const held = new Set<string>([
      ...permissionsFor([]),
      ...currentOrganization(c).grants.flatMap((grant) => grant.permissions),
    ]);
    const missing = (permissions ?? []).filter((permission) => !held.has(permission));
    if (missing.length) {
      throw invalidFields({
        permissions: [`You do not hold ${missing.join(", ")}, so a token of yours cannot`],
      });
    }
    const created = await db.transaction((tx) =>
      issueToken(tx, {
        organizationId: organizationOf(c),
        userId: currentUser(c).id,
        name,
        expiresInDays,
        permissions: permissions ?? null,
        createdBy: currentUser(c).id,
        now: now(),
      }),
    );
    return sendJson(c, createdApiTokenSchema, created, 201);
  });

  routes.delete("/api-tokens/:tokenId", permit("organization.view"), async (c) => {
    assertSignedInPerson(c);
    if (!isTokenId(c.req.param("tokenId"))) throw tokenNotFound();
    const revoked = await db.transaction((tx) =>
      revokeToken(tx, {
        organizationId: organizationOf(c),
        userId: currentUser(c).id,
        tokenId: c.req.param("tokenId"),
        now: now(),
      }),
    );
    if (!revoked) throw tokenNotFound();
    return c.body(null, 204);
  });

  // A new secret in place of the old: the same name and permissions, a new expiry; only the owner's own token.
  routes.post("/api-tokens/:tokenId/regenerate", permit("organization.view"), async (c) => {
    assertSignedInPerson(c);
    const { expiresInDays } = await readJsonBody(c, regenerateApiTokenSchema);
    if (!isTokenId(c.req.param("tokenId"))) throw tokenNotFound();
    const created = await db.transaction((tx) =>
      regenerateToken(tx, {
        organizationId: organizationOf(c),
        userId: currentUser(c).id,
        tokenId: c.req.param("tokenId"),
        expiresInDays,
        createdBy: currentUser(c).id,
        now: now(),
      }),
    );
    if (!created) throw tokenNotFound();
    return sendJson(c, createdApiTokenSchema, created, 201);
  });

  routes.get("/service-accounts", permit("users.manage"), async (c) =>
    sendJson(c, serviceAccountListSchema, {
      serviceAccounts: await listServiceAccounts(db, organizationOf(c)),
    }),
  );

  routes.post("/service-accounts", permit("users.manage"), async (c) => {
    assertSignedInPerson(c);
    const { name, roles } = await readJsonBody(c, createServiceAccountSchema);
    const { organizationId, tenantId } = currentOrganization(c);
    const id = await grantsChecked(() =>
      db.transaction((tx) =>
        createServiceAccount(tx, {
          team: { organizationId, tenantId },
          name,
          grants: roles,
          createdBy: currentUser(c).id,
        }),
      ),
    );
    const created = (await listServiceAccounts(db, organizationId)).find((account) => account.id === id);
    if (!created) throw serviceAccountNotFound();
    return sendJson(c, serviceAccountSchema, created, 201);
  });

  routes.delete("/service-accounts/:serviceAccountId", permit("users.manage"), async (c) => {
    assertSignedInPerson(c);
    const deleted = await db.transaction((tx) =>
      deleteServiceAccount(tx, organizationOf(c), c.req.param("serviceAccountId")),
    );
    if (!deleted) throw serviceAccountNotFound();
    return c.body(null, 204);
  });

  routes.post("/service-accounts/:serviceAccountId/tokens", permit("users.manage"), async (c) => {
    assertSignedInPerson(c);
    const { name, expiresInDays } = await readJsonBody(c, createServiceAccountTokenSchema);
    const serviceAccountId = c.req.param("serviceAccountId");
    const created = await db.transaction(async (tx) => {
      if (!(await isServiceAccountOf(tx, organizationOf(c), serviceAccountId)))
        throw serviceAccountNotFound();
      return issueToken(tx, {
        organizationId: organizationOf(c),
        userId: serviceAccountId,
        name,
        expiresInDays,
        permissions: null,
        createdBy: currentUser(c).id,
        now: now(),
      });
    });
    return sendJson(c, createdApiTokenSchema, created, 201);
  });

  routes.delete("/service-accounts/:serviceAccountId/tokens/:tokenId", permit("users.manage"), async (c) => {
    assertSignedInPerson(c);
    if (!isTokenId(c.req.param("tokenId"))) throw tokenNotFound();
    const serviceAccountId = c.req.param("serviceAccountId");
    const revoked = await db.transaction(async (tx) => {
      if (!(await isServiceAccountOf(tx, organizationOf(c), serviceAccountId))) return false;
      return revokeToken(tx, {
        organizationId: organizationOf(c),
        userId: serviceAccountId,
        tokenId: c.req.param("tokenId"),
        now: now(),
      });
    });
    if (!revoked) throw tokenNotFound();
    return c.body(null, 204);
  });

  routes.post(
    "/service-accounts/:serviceAccountId/tokens/:tokenId/regenerate",
    permit("users.manage"),
    async (c) => {
      assertSignedInPerson(c);
      const { expiresInDays } = await readJsonBody(c, regenerateApiTokenSchema);
      if (!isTokenId(c.req.param("tokenId"))) throw tokenNotFound();
      const serviceAccountId = c.req.param("serviceAccountId");
      const created = await db.transaction(async (tx) => {
        if (!(await isServiceAccountOf(tx, organizationOf(c), serviceAccountId))) return null;
        return regenerateToken(tx, {
          organizationId: organizationOf(c),
          userId: serviceAccountId,
          tokenId: c.req.param("tokenId"),
          expiresInDays,
          createdBy: currentUser(c).id,
          now: now(),
        });
      });
      if (!created) throw tokenNotFound();
      return sendJson(c, createdApiTokenSchema, created, 201);
    },
  );

  documentRoutes(routes, {
    "GET /api-tokens": { responses: { 200: apiTokenListSchema } },
    "POST /api-tokens/:tokenId/regenerate": {
      body: regenerateApiTokenSchema,
      responses: { 201: createdApiTokenSchema },
    },
    "POST /api-tokens": { body: createPersonalTokenSchema, responses: { 201: createdApiTokenSchema } },
    "DELETE /api-tokens/:tokenId": { responses: { 204: null } },
    "GET /service-accounts": { responses: { 200: serviceAccountListSchema } },
    "POST /service-accounts": { body: createServiceAccountSchema, responses: { 201: serviceAccountSchema } },
    "DELETE /service-accounts/:serviceAccountId": { responses: { 204: null } },
    "POST /service-accounts/:serviceAccountId/tokens": {
      body: createServiceAccountTokenSchema,
      responses: { 201: createdApiTokenSchema },
    },
    "DELETE /service-accounts/:serviceAccountId/tokens/:tokenId": { responses: { 204: null } },
    "POST /service-accounts/:serviceAccountId/tokens/:tokenId/regenerate": {
      body: regenerateApiTokenSchema,
      responses: { 201: createdApiTokenSchema },
    },
  });
  return routes;
}
