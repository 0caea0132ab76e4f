import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokenErrorMessages, apiTokenPaths, type CreatedApiToken } from "#contract/api-tokens";
import { apiErrorCodes, apiErrorMessages, errorMessages } from "#contract/errors";
import { openTestApi, type TestMember } from "../testing/http-harness";

/*
 * Walks every route the app registers, so a route added later is covered without touching this file. The cases are
 * built from `app.routes` at collection time, hence the top-level await.
 */
const api = await openTestApi();
afterAll(() => api.close());

const writeMethods = ["POST", "PUT", "PATCH", "DELETE"];
const allMethods = ["GET", ...writeMethods];

/** `[title, route]`, so test titles show the whole route (vitest shortens interpolated object fields). */
type RouteCase = [title: string, route: { method: string; pattern: string }];

/** Middleware and `app.all` routes are registered as ALL: each method is tried against them. */
function casesOf(routes: { method: string; path: string }[]): RouteCase[] {
  const cases = new Map<string, RouteCase>();
  for (const { method, path } of routes) {
    for (const routeMethod of method === "ALL" ? allMethods : [method]) {
      const title = `${routeMethod} ${path}`;
      cases.set(title, [title, { method: routeMethod, pattern: path }]);
    }
  }
  return [...cases.values()];
}

/** Fills the tenant segment with `tenantId`, every other parameter with an id, and wildcards with a segment. */
function concretePath(pattern: string, tenantId: string): string {
  return pattern
    .replace(/^\/api/, "")
    .replace(":tenantId", tenantId)
    .replace(/:[A-Za-z]+(\{[^}]*\})?/g, "00000000-0000-4000-8000-000000000000")
    .replace(/\*/g, "probe");
}

/** A body that would be accepted by the create routes, so a missing guard shows up as a write. */
const plausibleBody = {
  name: "intruder",
  displayName: "Intruder",
  tenant: { name: "intruder", displayName: "Intruder" },
};

const tenantRoutes = casesOf(api.app.routes.filter((route) => route.path.includes("/:tenantId")));
/**
 * The routes that write (estimating a cost is not a write: any member may; nor are a member's own API tokens
 * another's to refuse: a read-only member makes and revokes their own, api-tokens.test.ts).
 */
const tenantWriteEndpoints = casesOf(
  api.app.routes.filter(
    (route) =>
      route.path.includes("/:tenantId") &&
      writeMethods.includes(route.method) &&
      !route.path.endsWith("/estimate-cost") &&
      !route.path.includes("/:tenantId/api-tokens"),
  ),
);
// The health check, GitHub's webhook, which signatures authenticate (deploy-on-push.test.ts), an invitation's
// preview, opened before sign-in with the link's token as its key (invitations.test.ts, decision 056), and the
// API's OpenAPI description, which names no tenant's data (openapi.test.ts, decision 071).
const unauthenticatedPaths = new Set(["/api/healthz", "/api/v2/invitations/preview", "/api/openapi.json"]);
const authenticatedRoutes = casesOf(
  api.app.routes.filter(
    (route) => !unauthenticatedPaths.has(route.path) && !route.path.startsWith("/api/webhooks/"),
  ),
);

let attacker: TestMember;
/** An API token of the attacker's organization, made by its admin (decision 070). */
let attackerApiToken: string;
let approvedVictim: TestMember;
let unapprovedVictim: TestMember;
let readOnlyMember: TestMember;
let victimEnvironmentId: string;
beforeAll(async () => {
  attacker = await api.createMember({ role: "admin" });
  approvedVictim = await api.createMember({ role: "admin" });
  unapprovedVictim = await api.createMember({ role: "admin", approved: false });
  victimEnvironmentId = (await api.createEnvironment(approvedVictim.organization.tenantId, "production")).id;
  await api.createEnvironment(unapprovedVictim.organization.tenantId, "production");
  const created = await api.call("POST", apiTokenPaths.personal(attacker.organization.tenantId), {
    token: attacker.user.token,
    json: { name: "attacker" },
  });
  attackerApiToken = ((await created.json()) as CreatedApiToken).value;
  readOnlyMember = { user: await api.createUser(), organization: approvedVictim.organization };
  await api.addMember(readOnlyMember.user.id, approvedVictim.organization.organizationId, "read-only");
});

describe("the route table", () => {
  it("includes the tenant-scoped routes this suite must guard", () => {
    expect(tenantRoutes.map(([title]) => title)).toEqual(
      expect.arrayContaining([
        "GET /api/tenant/:tenantId",
        "GET /api/v2/organizations/:tenantId/environments",
        "POST /api/v2/organizations/:tenantId/environments",
        "GET /api/v2/organizations/:tenantId/environments/:environmentId",
        "DELETE /api/v2/organizations/:tenantId/environments/:environmentId",
        "POST /api/v2/organizations/:tenantId/environments/estimate-cost",
        "GET /api/v2/organizations/:tenantId/environments/config",
        "GET /api/v2/organizations/:tenantId/environments/:environmentId/config",
        "PUT /api/v2/organizations/:tenantId/environments/:environmentId/config",
        "GET /api/v2/organizations/:tenantId/environments/:environmentId/addons",
        "PUT /api/v2/organizations/:tenantId/environments/:environmentId/addons",
        "GET /api/v2/organizations/:tenantId/environments/:environmentId/environment-variables",
        "POST /api/v2/organizations/:tenantId/environments/:environmentId/environment-variables",
        "PUT /api/v2/organizations/:tenantId/environments/:environmentId/environment-variables",
        "DELETE /api/v2/organizations/:tenantId/environments/:environmentId/environment-variables",
        "GET /api/v2/organizations/:tenantId/environments/:environmentId/environment-variables/:name/referenced-services",
        "POST /api/tenant/:tenantId/workspace/:environmentId/clone",
        "GET /api/tenant/:tenantId/workspace/:environmentId/clone/state",
        "PUT /api/tenant/:tenantId/workspace/:environmentId/clone/exit",
        "POST /api/tenant/:tenantId/workspace/:environmentId/clone/launch/resources",
        "GET /api/v2/organizations/:tenantId/connections/:connectionId/deliveries",
        "PUT /api/v2/organizations/:tenantId/connections/:connectionId/notifications",
      ]),
    );
  });
});

describe.each([
  ["an approved", () => approvedVictim],
  ["an unapproved", () => unapprovedVictim],
])("a member of another tenant calling %s tenant's routes", (_state, victim) => {
  it.each(tenantRoutes)("%s answers 403 and writes nothing", async (_title, { method, pattern }) => {
    const before = await api.countRows();
    const response = await api.call(method, concretePath(pattern, victim().organization.tenantId), {
      token: attacker.user.token,
      json: method === "GET" ? undefined : plausibleBody,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: apiErrorMessages.forbiddenOrganization,
      code: apiErrorCodes.forbidden,
    });
    expect(await api.countRows()).toEqual(before);
    expect(await api.environmentsOf(victim().organization.tenantId)).toHaveLength(1);
  });
});

describe("an API token of another tenant calling an approved tenant's routes", () => {
  it.each(tenantRoutes)("%s answers 401 and writes nothing", async (_title, { method, pattern }) => {
    const before = await api.countRows();
    const response = await api.call(method, concretePath(pattern, approvedVictim.organization.tenantId), {
      token: attackerApiToken,
      json: method === "GET" ? undefined : plausibleBody,
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      message: apiTokenErrorMessages.foreignOrganization,
      code: apiErrorCodes.unauthorized,
    });
    expect(await api.countRows()).toEqual(before);
  });
});

/** Routes about one environment, which must not reach another tenant's environment through the caller's tenant. */
const environmentScopedRoutes = tenantRoutes.filter(([, { pattern }]) => pattern.includes(":environmentId"));

describe("a member naming another tenant's environment under its own tenant", () => {
  it.each(environmentScopedRoutes)(
    "%s does not reach it and writes nothing",
    async (_title, { method, pattern }) => {
      const before = await api.countRows();
      const victimBefore = await api.environmentsOf(approvedVictim.organization.tenantId);
      const path = pattern
        .replace(/^\/api/, "")
        .replace(":tenantId", attacker.organization.tenantId)
        .replace(":environmentId", victimEnvironmentId)
        // Any other segment (a variable name) gets a valid value, so only the environment can be refused.
        .replace(/:[A-Za-z]+(\{[^}]*\})?/g, "PROBE");
      const response = await api.call(method, path, {
        token: attacker.user.token,
        json: method === "GET" ? undefined : plausibleBody,
      });
      // Reads answer 404; a write may be refused for its body first, which reveals nothing either.
      expect(method === "GET" ? [404] : [400, 404]).toContain(response.status);
      expect(await api.countRows()).toEqual(before);
      expect(await api.environmentsOf(approvedVictim.organization.tenantId)).toEqual(victimBefore);
    },
  );
});

describe("a read-only member writing to its own tenant", () => {
  it.each(tenantWriteEndpoints)(
    "%s answers 403 PERMISSION_DENIED and writes nothing",
    async (_title, route) => {
      const before = await api.countRows();
      const response = await api.call(
        route.method,
        concretePath(route.pattern, readOnlyMember.organization.tenantId),
        { token: readOnlyMember.user.token, json: plausibleBody },
      );
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        message: errorMessages.restrictedAccess,
        code: apiErrorCodes.permissionDenied,
      });
      expect(await api.countRows()).toEqual(before);
    },
  );
});

describe("a caller without a token", () => {
  it.each(authenticatedRoutes)("%s answers 401", async (_title, { method, pattern }) => {
    const response = await api.call(method, concretePath(pattern, approvedVictim.organization.tenantId), {
      json: method === "GET" ? undefined : plausibleBody,
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      message: apiErrorMessages.unauthorized,
      code: apiErrorCodes.unauthorized,
    });
  });
});
