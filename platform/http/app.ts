import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { JWK } from "jose";
import type { PlatformConfig } from "../lib/config";
import type { ChartIndexReader } from "../charts/chart-index";
import type { Database } from "../db/index";
import { createOperations, type Operations } from "../operations/operations";
import { secretCipherFor, type SecretCipher } from "../lib/cipher";
import { createTerraformJobs, type TerraformJobs } from "../terraform/jobs";
import { apiTokenRoutes, currentApiTokenRoutes } from "./api-tokens";
import { authenticate, requireUser } from "./auth";
import { limitRequestBodies } from "./body-limits";
import { chartRepositoryRoutes } from "./chart-repositories";
import { cloningRoutes } from "./cloning";
import { deployOnPushRoutes, webhookRoutes } from "./deploy-on-push";
import { previewRoutes, previewWebhookRoutes } from "./previews";
import { connectionNotificationRoutes } from "./connection-notifications";
import { connectionRoutes } from "./connections";
import { costRoutes } from "./cost";
import { environmentVariableRoutes } from "./environment-variables";
import { environmentRoutes } from "./environments";
import { environmentMapRoutes } from "./environment-map";
import { environmentNeighbourRoutes } from "./environment-neighbours";
import { handleError, handleNotFound } from "./errors";
import { fastbootRoutes } from "./fastboot";
import { featureFlagRoutes } from "./feature-flags";
import { healthRoutes } from "./health";
import { invitationAcceptanceRoutes, invitationPreviewRoutes, invitationRoutes } from "./invitations";
import { onboardingRoutes } from "./onboarding";
import { openApiPaths, type OpenApiDocument } from "#contract/openapi";
import { openApiDocument } from "./openapi";
import { resourceTelemetryRoutes } from "./resource-telemetry";
import { auditTrail } from "./audit-trail";
import { auditRoutes } from "./audit";
import { apiSecurityHeaders } from "./security-headers";
import { tenantRoutes } from "./tenants";
import { terraformExportRoutes } from "./terraform-exports";
import { snapshotRoutes } from "./snapshots";
import { ticketRoutes } from "./tickets";
import { serviceRoutes } from "./services";
import { requireOrganizationAccess } from "./tenancy";
import { toolRoutes } from "./tools";
import { userRoutes } from "./users";

export type ApiDependencies = {
  db: Database;
  config: PlatformConfig;
  jwks: { keys: JWK[] };
  /** The Terraform generation jobs; the server passes the instance it resumes and closes. */
  terraformJobs?: TerraformJobs;
  /** Seals secrets at rest; the server passes the one it also gives the engine and the seed. */
  secrets?: SecretCipher;
  /**
   * The engine the API creates and moves jobs for; the server passes the instance it starts and stops. Without
   * one, jobs are still created in the database and run by whichever runner polls it.
   */
  engine?: Operations;
  /** Fetches and caches chart repositories' indexes; tests pass one with a short time-out. */
  chartIndexes?: ChartIndexReader;
};

/**
 * The platform API under /api. Order matters: Hono runs handlers in registration order, so health answers before
 * authentication, and the organization guards run before any route under a `:tenantId` segment, including routes
 * registered later.
 */
export function createApiApp(given: ApiDependencies): Hono {
  const secrets = given.secrets ?? secretCipherFor(given.config);
  const engine = given.engine ?? createOperations({ db: given.db, config: given.config, secrets });
  // The routers write through the audit trail's database, which puts a recorded request's audit row in the same
  // transaction as its write; authentication, the guards and the engine keep the plain one.
  const trail = auditTrail({ db: given.db });
  const deps: ApiDependencies = { ...given, db: trail.db };
  const app = new Hono().basePath("/api");
  app.onError(handleError);
  app.notFound(handleNotFound);
  // Reuses the caller's X-Request-ID (the app sends one per call) so logs on both sides line up.
  app.use(requestId({ headerName: "X-Request-ID" }));
  app.use(apiSecurityHeaders());
  app.use(limitRequestBodies());

  app.route("/", healthRoutes());
  // The API's description is public like the routes' existence; built once, after every route is registered.
  let description: OpenApiDocument | undefined;
  app.get(openApiPaths.document(), (c) =>
    c.json((description ??= openApiDocument(app, { serverUrl: given.config.publicUrl }))),
  );
  // GitHub's deliveries carry no token: the hook's signature is their authentication.
  app.route("/", webhookRoutes({ db: given.db, secrets, engine }));
  app.route("/", previewWebhookRoutes({ db: given.db, secrets, engine }));
  // An invitation link is opened before its holder has an account to sign in with.
  app.route("/", invitationPreviewRoutes({ db: given.db }));

  app.use(authenticate({ ...given, clock: engine.now }));
  // Around the organization guard, so refused writes (non-members, missing permissions) are recorded too.
  app.use(trail.recordWrites);
  app.use("/tenant/:tenantId/*", requireOrganizationAccess(given.db));
  app.use("/v2/organizations/:tenantId/*", requireOrganizationAccess(given.db));
  // Before requireUser, which refuses API tokens outside their organization's routes.
  app.route("/", currentApiTokenRoutes({ db: given.db }));
  app.use(requireUser(given.db));

  app.route("/", tenantRoutes(deps));
  app.route("/", featureFlagRoutes(deps));
  app.route("/v2/organizations/:tenantId/environments", environmentRoutes({ db: deps.db, engine }));
  app.route(
    "/v2/organizations/:tenantId/environments/:environmentId/environment-variables",
    environmentVariableRoutes({ db: deps.db, secrets }),
  );
  app.route(
    "/v2/organizations/:tenantId/environments/:environmentId/infrastructure",
    serviceRoutes({ db: deps.db, engine, secrets }),
  );
  app.route(
    "/v2/organizations/:tenantId/environments/:environmentId/infrastructure",
    deployOnPushRoutes({ db: deps.db, secrets, publicUrl: deps.config.publicUrl, engine }),
  );
  app.route(
    "/v2/organizations/:tenantId/environments/:environmentId",
    resourceTelemetryRoutes({ db: deps.db, engine }),
  );
  app.route("/v2/organizations/:tenantId/environments/:environmentId", environmentNeighbourRoutes(deps));
  app.route("/v2/organizations/:tenantId/environments/:environmentId", environmentMapRoutes(deps));
  app.route(
    "/v2/organizations/:tenantId/environments/:environmentId",
    terraformExportRoutes({ db: deps.db, engine }),
  );
  app.route(
    "/v2/organizations/:tenantId/environments/:environmentId",
    snapshotRoutes({ db: deps.db, engine }),
  );
  app.route(
    "/v2/organizations/:tenantId/environments/:environmentId",
    chartRepositoryRoutes({ db: deps.db, indexes: deps.chartIndexes }),
  );
  app.route("/tenant/:tenantId/workspace", cloningRoutes({ db: deps.db, engine }));
  app.route("/v2/organizations/:tenantId", userRoutes({ db: deps.db }));
  app.route("/v2/organizations/:tenantId", auditRoutes({ db: deps.db }));
  app.route("/v2/organizations/:tenantId", apiTokenRoutes({ db: deps.db, now: engine.now }));
  app.route("/v2/organizations/:tenantId", invitationRoutes(deps));
  app.route("/v2/organizations/:tenantId", connectionRoutes({ db: deps.db, config: deps.config, secrets }));
  app.route("/v2/organizations/:tenantId", connectionNotificationRoutes({ db: deps.db, now: engine.now }));
  app.route("/v2/organizations/:tenantId", costRoutes({ db: deps.db, now: engine.now }));
  app.route("/v2/organizations/:tenantId", onboardingRoutes({ db: deps.db, now: engine.now }));
  app.route("/v2/organizations/:tenantId", fastbootRoutes({ db: deps.db, engine }));
  app.route(
    "/v2/organizations/:tenantId",
    previewRoutes({ db: deps.db, secrets, publicUrl: deps.config.publicUrl, now: engine.now }),
  );
  app.route("/v2/organizations/:tenantId", ticketRoutes({ db: deps.db, config: deps.config, secrets }));
  app.route("/", invitationAcceptanceRoutes(deps));
  app.route("/", toolRoutes({ db: deps.db, jobs: deps.terraformJobs ?? createTerraformJobs(deps) }));
  return app;
}
