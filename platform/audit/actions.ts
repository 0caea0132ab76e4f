import type { AuditAction } from "#contract/audit";

/**
 * The stable name of each write the audit log records, by method and route pattern (the pattern as registered in
 * platform/http/app.ts, with parameter names left out so a renamed parameter keeps its action). A test fails when
 * a write route of the API has no entry here.
 */
const actionsByRoute: Record<string, AuditAction> = {
  "POST /v2/organizations/:/environments": "environments.create",
  "DELETE /v2/organizations/:/environments/:": "environments.delete",
  "PUT /v2/organizations/:/environments/:/config": "environment-settings.update",
  "POST /v2/organizations/:/environments/:/terraform-export": "environments.terraform-export",
  "PUT /v2/organizations/:/environments/:/addons": "environment-addons.update",
  "POST /v2/organizations/:/environments/:/environment-variables": "environment-variables.create",
  "PUT /v2/organizations/:/environments/:/environment-variables": "environment-variables.update",
  "PUT /v2/organizations/:/environments/:/environment-variables/import": "environment-variables.import",
  "DELETE /v2/organizations/:/environments/:/environment-variables": "environment-variables.delete",
  "POST /v2/organizations/:/environments/:/infrastructure": "services.create",
  "POST /v2/organizations/:/environments/:/infrastructure/serverless/upload": "services.upload",
  "PUT /v2/organizations/:/environments/:/infrastructure/:": "services.update",
  "PUT /v2/organizations/:/environments/:/infrastructure/:/draft": "services.update-draft",
  "POST /v2/organizations/:/environments/:/infrastructure/:/draft/launch": "services.deploy",
  "POST /v2/organizations/:/environments/:/infrastructure/:/retry": "services.retry",
  "POST /v2/organizations/:/environments/:/infrastructure/:/cancel": "services.cancel",
  "POST /v2/organizations/:/environments/:/infrastructure/:/versions/:/rollback": "services.rollback",
  "DELETE /v2/organizations/:/environments/:/infrastructure/:": "services.delete",
  "POST /v2/organizations/:/environments/:/infrastructure/:/deploy-commit": "services.deploy-commit",
  "PUT /v2/organizations/:/environments/:/infrastructure/:/deploy-on-push": "services.deploy-on-push-update",
  "POST /v2/organizations/:/environments/:/infrastructure/:/deploy-on-push/secret":
    "services.deploy-on-push-secret-rotate",
  "POST /v2/organizations/:/environments/:/observability/providers": "observability-providers.create",
  "DELETE /v2/organizations/:/environments/:/observability/providers/:": "observability-providers.delete",
  "POST /v2/organizations/:/environments/:/chart-repositories": "chart-repositories.create",
  "PUT /v2/organizations/:/environments/:/previews/settings": "previews.settings-update",
  "POST /tenant/:/workspace/:/clone": "environments.clone",
  "POST /v2/organizations/:/fastboot": "environments.fastboot",
  "POST /tenant/:/workspace/:/clone/launch/resources": "environments.clone-launch",
  "PUT /tenant/:/workspace/:/clone/exit": "environments.clone-exit",
  "PUT /v2/organizations/:/audit-settings": "audit-settings.update",
  "POST /v2/organizations/:/cost/budgets": "budgets.create",
  "PUT /v2/organizations/:/cost/budgets/:": "budgets.update",
  "DELETE /v2/organizations/:/cost/budgets/:": "budgets.delete",
  // SPEC §7 Users (routes added by the team's members and invitations work).
  "DELETE /v2/organizations/:/users/:": "members.remove",
  "POST /v2/organizations/:/users/invites": "invitations.create",
  "DELETE /v2/organizations/:/users/v2": "members.remove",
  "POST /v2/organizations/:/users/v2/invites": "invitations.create",
  "DELETE /v2/organizations/:/users/v2/invites": "invitations.cancel",
  "POST /v2/organizations/:/users/v2/invites/reinvite": "invitations.resend",
  "POST /v2/organizations/:/users/v2/roles/update": "members.roles-update",
  "POST /v2/organizations/:/users/roles/:": "members.roles-add",
  "DELETE /v2/organizations/:/users/roles/:": "members.roles-remove",
  "POST /v2/organizations/:/roles/v2": "roles.create",
  "PUT /v2/organizations/:/roles/v2/:": "roles.update",
  "DELETE /v2/organizations/:/roles/v2/:": "roles.delete",
  "PATCH /v2/organizations/:/settings": "organization.update",
  "PUT /v2/organizations/:/onboarding": "onboarding.end",
  "POST /v2/organizations/:/referral": "referral.apply",
  "POST /v2/organizations/:/connections": "connections.create",
  "PUT /v2/organizations/:/connections/:": "connections.update",
  "DELETE /v2/organizations/:/connections/:": "connections.delete",
  "POST /v2/organizations/:/connections/:/checks": "connections.test",
  "PUT /v2/organizations/:/connections/:/notifications": "connections.notifications-update",
  "POST /v2/organizations/:/environments/:/infrastructure/:/tickets": "services.ticket",
  "POST /v2/organizations/:/api-tokens": "api-tokens.create",
  "DELETE /v2/organizations/:/api-tokens/:": "api-tokens.revoke",
  "POST /v2/organizations/:/api-tokens/:/regenerate": "api-tokens.regenerate",
  "POST /v2/organizations/:/service-accounts": "service-accounts.create",
  "DELETE /v2/organizations/:/service-accounts/:": "service-accounts.delete",
  "POST /v2/organizations/:/service-accounts/:/tokens": "service-account-tokens.create",
  "DELETE /v2/organizations/:/service-accounts/:/tokens/:": "service-account-tokens.revoke",
  "POST /v2/organizations/:/service-accounts/:/tokens/:/regenerate": "service-account-tokens.regenerate",
};

/** Methods that change something; the audit log records these. */
export const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** `/api/v2/organizations/:tenantId/environments/:environmentId` → `/v2/organizations/:/environments/:`. */
export function routeKey(method: string, pattern: string): string {
  return `${method} ${pattern.replace(/^\/api(?=\/)/, "").replace(/:\w+/g, ":")}`;
}

/**
 * Whether the audit log records calls to this route: every write under an organization but cost estimates, a
 * change's plan and the member lookup by e-mail (POSTs that change nothing).
 */
export function isAuditedRoute(method: string, pattern: string): boolean {
  const path = pattern.replace(/^\/api(?=\/)/, "");
  return (
    writeMethods.has(method) &&
    (path.startsWith("/v2/organizations/:") || path.startsWith("/tenant/:")) &&
    !path.endsWith("/estimate-cost") &&
    !/\/infrastructure\/:\w+\/plan$/.test(path) &&
    !path.endsWith("/users/v2/roles/update/get-by-email")
  );
}

/**
 * The action of a route, or null when the map lacks it. The recorder still records such a call (under
 * `unmapped:<method> <pattern>`), so a route added without an entry is never missing from the log.
 */
export function actionOf(method: string, pattern: string): string | null {
  return actionsByRoute[routeKey(method, pattern)] ?? null;
}

/** Every route pattern the map names, for the test that checks each names a real route or a planned one. */
export const mappedRoutes = Object.keys(actionsByRoute);
