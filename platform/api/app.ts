import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { JWK } from "jose";
import type { PlatformConfig } from "../config";
import type { Database } from "../db/index";
import { authenticate } from "./auth";
import { environmentRoutes } from "./environments";
import { handleError, handleNotFound } from "./errors";
import { featureFlagRoutes } from "./feature-flags";
import { healthRoutes } from "./health";
import { tenantRoutes } from "./tenants";
import { requireOrganizationAccess } from "./tenancy";

export type ApiDependencies = { db: Database; config: PlatformConfig; jwks: { keys: JWK[] } };

/**
 * The platform API under /api. Order matters: Hono runs handlers in registration order, so health answers before
 * authentication, and the organization guards run before any route under a `:tenantId` segment, including routes
 * registered later.
 */
export function createApiApp(deps: ApiDependencies): Hono {
  const app = new Hono().basePath("/api");
  app.onError(handleError);
  app.notFound(handleNotFound);
  // Reuses the caller's X-Request-ID (the app sends one per call) so logs on both sides line up.
  app.use(requestId({ headerName: "X-Request-ID" }));

  app.route("/", healthRoutes());

  app.use(authenticate(deps));
  app.use("/tenant/:tenantId/*", requireOrganizationAccess(deps.db));
  app.use("/v2/organizations/:tenantId/*", requireOrganizationAccess(deps.db));

  app.route("/", tenantRoutes(deps));
  app.route("/", featureFlagRoutes(deps));
  app.route("/v2/organizations/:tenantId/environments", environmentRoutes(deps));
  return app;
}
