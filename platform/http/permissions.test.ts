import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorCodes } from "#contract/errors";
import { builtInRoles, permissions, type Permission } from "#contract/permissions";
import { customRoles } from "../db/schema";
import type { GrantInput } from "../team/members";
import { routeRules, type RouteRule } from "./permissions";
import { openTestApi, type TestApi } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(async () => {
  await api?.close();
});

type DeclaredRoute = { method: string; path: string; rules: RouteRule[] };

/**
 * Every route of the API with the rules its handlers declare (middleware mounted with `use` excluded), but GitHub's
 * webhook: no member calls it, its signature is its authentication (deploy-on-push.test.ts); nor the invitation
 * preview: the link's holder calls it before signing in, the token is its key (invitations.test.ts).
 */
function declaredRoutes(): DeclaredRoute[] {
  const byRoute = new Map<string, DeclaredRoute>();
  for (const route of api.app.routes) {
    if (route.method === "ALL" || route.path.startsWith("/api/webhooks/")) continue;
    if (route.path === "/api/v2/invitations/preview") continue;
    // The API's description, public like the health check (openapi.test.ts).
    if (route.path === "/api/openapi.json") continue;
    const key = `${route.method} ${route.path}`;
    const entry = byRoute.get(key) ?? { method: route.method, path: route.path, rules: [] };
    const rule = routeRules.get(route.handler as never);
    if (rule) entry.rules.push(rule);
    byRoute.set(key, entry);
  }
  return [...byRoute.values()];
}

describe("the permission catalogue on the API's routes", () => {
  it("is declared exactly once on every route but the health check", () => {
    const routes = declaredRoutes().filter((route) => route.path !== "/api/healthz");
    expect(routes.length).toBeGreaterThan(40);
    const undeclared = routes.filter((route) => route.rules.length !== 1).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  it("asks more than viewing for every write, except estimating a cost and the caller's own things", () => {
    const readOnlyWrites = declaredRoutes()
      // A member's own API tokens are theirs to make and revoke, whatever their role (decision 070).
      .filter(
        (route) =>
          route.method !== "GET" &&
          !route.path.endsWith("/estimate-cost") &&
          !route.path.includes("/:tenantId/api-tokens"),
      )
      .filter((route) =>
        route.rules.some((rule) => "permission" in rule && rule.permission === "organization.view"),
      )
      .map((route) => `${route.method} ${route.path}`);
    expect(readOnlyWrites).toEqual([]);
  });
});

/** Who calls: what each holds, by environment name ("staging", "production") or on the whole organization. */
type Caller = {
  name: string;
  grants: GrantInput[] | null;
  holds: (environment?: string) => readonly Permission[];
};

const view: Permission[] = ["organization.view"];
const customPermissions: Permission[] = ["organization.view", "variables.write", "secrets.reveal"];

describe("every route, called by every kind of member", () => {
  type Fixture = { tenantId: string; environments: Record<string, string> };

  /** A fresh organization with staging and production, and `caller` in it (or not, when grants is null). */
  async function fixture(caller: Caller): Promise<Fixture & { token: string }> {
    const organization = await api.createOrganization();
    const staging = await api.createEnvironment(organization.tenantId, "staging");
    const production = await api.createEnvironment(organization.tenantId, "production");
    const user = await api.createUser();
    if (caller.grants) {
      const grants: GrantInput[] = caller.grants.map((grant) => ({
        ...grant,
        environmentIds: grant.environmentIds?.map((name) =>
          name === "staging" ? staging.id : production.id,
        ),
      }));
      if (caller.name === "custom role") {
        const [role] = await api.db
          .insert(customRoles)
          .values({
            organizationId: organization.organizationId,
            name: "variables",
            permissions: customPermissions,
          })
          .returning();
        grants[0] = { customRoleId: role?.id, environmentIds: null };
      }
      await api.addMember(user.id, organization.organizationId, grants);
    }
    return {
      tenantId: organization.tenantId,
      environments: { staging: staging.id, production: production.id },
      token: user.token,
    };
  }

  const callers: Caller[] = [
    { name: "admin", grants: [{ role: "admin" }], holds: () => permissions },
    {
      name: "developer on staging, read-only elsewhere",
      grants: [{ role: "read-only" }, { role: "developer", environmentIds: ["staging"] }],
      holds: (environment) => (environment === "staging" ? builtInRoles.developer.permissions : view),
    },
    { name: "read-only", grants: [{ role: "read-only" }], holds: () => view },
    // The custom role's id is only known once created: the fixture swaps it in for this placeholder.
    { name: "custom role", grants: [{ role: "read-only" }], holds: () => customPermissions },
    { name: "non-member", grants: null, holds: () => [] },
  ];

  /** Concrete calls for a route: one per environment when it has one, twice for the variables' reveal. */
  function callsOf(route: DeclaredRoute, target: Fixture) {
    const rule = route.rules[0];
    if (!rule) throw new Error(`no rule on ${route.method} ${route.path}`);
    const environmentNames = route.path.includes(":environmentId") ? ["staging", "production"] : [undefined];
    return environmentNames.flatMap((environment) => {
      const path = route.path
        .replace(/^\/api/, "")
        .replace(":tenantId", target.tenantId)
        .replace(":environmentId", environment ? (target.environments[environment] ?? "") : "")
        .replace(/:\w+/g, () => randomUUID());
      const permissionIn = (c: { req: { query: (name: string) => string | undefined } }) =>
        "signedIn" in rule
          ? null
          : typeof rule.permission === "function"
            ? rule.permission(c as never)
            : rule.permission;
      const scoped = "scope" in rule && rule.scope === "organization" ? undefined : environment;
      const variants = [{ path, required: permissionIn({ req: { query: () => undefined } }) }];
      if (route.method === "GET" && route.path.endsWith("/environment-variables")) {
        const reveal = randomUUID();
        variants.push({
          path: `${path}?reveal=${reveal}`,
          required: permissionIn({ req: { query: () => reveal } }),
        });
      }
      return variants.map((variant) => ({
        ...variant,
        environment: scoped,
        tenantRoute: path.includes(target.tenantId),
      }));
    });
  }

  for (const caller of callers) {
    it(`answers ${caller.name} as the declared permissions say: no bypass`, async () => {
      const target = await fixture(caller);
      // Deleting an environment goes last, so the others still find both environments.
      const routes = declaredRoutes()
        .filter((route) => route.path !== "/api/healthz")
        .sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
      const mismatches: string[] = [];
      for (const route of routes) {
        for (const call of callsOf(route, target)) {
          const response = await api.call(route.method, call.path, { token: target.token });
          const body = (await response.json().catch(() => ({}))) as { code?: string };
          const what = `${route.method} ${call.path} (${call.required ?? "signed-in"}${call.environment ? ` in ${call.environment}` : ""})`;
          if (caller.grants === null && call.tenantRoute) {
            if (response.status !== 403 || body.code !== apiErrorCodes.forbidden)
              mismatches.push(`${what}: ${response.status}`);
            continue;
          }
          const allowed = call.required === null || caller.holds(call.environment).includes(call.required);
          const denied = response.status === 403 && body.code === apiErrorCodes.permissionDenied;
          if (allowed === denied)
            mismatches.push(`${what}: ${allowed ? "refused" : "allowed"} (${response.status})`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});
