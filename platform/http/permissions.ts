import type { Context, MiddlewareHandler } from "hono";
import { permissionsFor, type Permission } from "#contract/permissions";
import type { AuthenticatedEnv } from "./auth";
import { permissionDenied } from "./errors";
import { currentOrganization, type OrganizationEnv } from "./tenancy";

/**
 * What a route requires. `permission` is checked in the route's environment when its path has an `:environmentId`
 * (where environment-scoped grants count), else in the organization as a whole; `scope: "organization"` checks
 * the organization even under an environment (cloning makes a new environment). `signed-in` marks the few routes
 * outside any organization (creating one, the caller's account, jobs owned by the caller).
 */
export type RouteRule =
  | { permission: Permission | ((c: Context<OrganizationEnv>) => Permission); scope?: "organization" }
  | { signedIn: true };

/** Every middleware `permit` and `signedIn` made, with its rule: the route test reads it from the app's routes. */
export const routeRules = new WeakMap<(...args: never[]) => unknown, RouteRule>();

/**
 * The one check of what a caller may do: every route of the API declares its permission with it (a test fails
 * for a route without one). The caller's role grants were loaded by the organization guard.
 */
export function permit(
  permission: Permission | ((c: Context<OrganizationEnv>) => Permission),
  { scope }: { scope?: "organization" } = {},
): MiddlewareHandler<OrganizationEnv> {
  const check: MiddlewareHandler<OrganizationEnv> = async (c, next) => {
    const required = typeof permission === "function" ? permission(c) : permission;
    const environmentId = scope === "organization" ? undefined : c.req.param("environmentId");
    if (!permissionsFor(currentOrganization(c).grants, environmentId).has(required)) {
      throw permissionDenied(required);
    }
    await next();
  };
  routeRules.set(check, { permission, scope });
  return check;
}

/** Declares a route outside any organization: authentication (already checked for every route) is all it needs. */
export function signedIn(): MiddlewareHandler<AuthenticatedEnv> {
  const pass: MiddlewareHandler<AuthenticatedEnv> = async (_c, next) => {
    await next();
  };
  routeRules.set(pass, { signedIn: true });
  return pass;
}
