import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createApiApp } from "./http/app";
import { createFilesApp } from "./http/files";
import type { PlatformConfig } from "./lib/config";
import { openDb } from "./db/index";
import { prepareDatabase } from "./seed/prepare";
import { startAuditRetention } from "./audit/retention";
import { createCostWorker } from "./cost/worker";
import { createDriftChecks } from "./deployments/drift-checks";
import { createUsageSampling } from "./deployments/usage-samples";
import { createOperations } from "./operations/operations";
import { createIdentityProvider } from "./identity/provider";
import { createDeliveryWorker } from "./notifications/worker";
import { createMetricForwarder } from "./observability/forwarder";
import { secretCipherFor } from "./lib/cipher";
import { createTerraformJobs } from "./terraform/jobs";

export type RunningPlatform = { url: string; server: Server; close: () => Promise<void> };

/**
 * One HTTP server for the whole embedded platform: the API under /api, public files under /files (signed
 * Terraform downloads, the CloudFormation template) and the Auth0-compatible identity provider (/authorize,
 * /oauth/token, /userinfo, /v2/logout, /.well-known/*, the login pages) at the root.
 */
export async function startPlatform(config: PlatformConfig): Promise<RunningPlatform> {
  const database = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // Already done by a short-lived process when the data dir was new (see main.ts): then these are quick no-ops.
  await prepareDatabase(database, config);
  const secrets = secretCipherFor(config);
  // Started before the server listens: jobs a previous process left unfinished resume right away.
  const engine = createOperations({ db: database.db, config, secrets });
  engine.runner.start();
  // Posts the notifications the engine's jobs leave in the outbox, including those a previous process left.
  const deliveries = createDeliveryWorker({
    db: database.db,
    secrets,
    settings: config.engine,
    now: engine.now,
  });
  deliveries.start();
  // Posts linked environments' metrics to Datadog and Middleware every minute.
  const metrics = createMetricForwarder({
    db: database.db,
    secrets,
    telemetryOf: engine.telemetryOf,
    settings: config.engine,
    now: engine.now,
  });
  metrics.start();
  // Reflects changes made outside the platform in the stage of the services of environments in AWS.
  const driftChecks = createDriftChecks({
    db: database.db,
    deploys: engine.deploys,
    intervalMs: config.driftCheckIntervalSeconds * 1000,
    now: engine.now,
  });
  driftChecks.start();
  // Samples the CPU and memory of applications on container hosts every minute: the engine keeps no history.
  const usageSamples = createUsageSampling({ db: database.db, secrets, now: engine.now });
  usageSamples.start();
  const auditRetention = startAuditRetention({ db: database.db });
  // Accrues usage hour by hour into the cost rollups and checks budgets (decision 035).
  const cost = createCostWorker({
    db: database.db,
    intervalMs: config.costAccrualIntervalMs ?? 60_000,
    appUrl: config.appUrl,
    now: engine.now,
  });
  cost.start();

  const identity = await createIdentityProvider({ db: database.db, config });
  const terraformJobs = createTerraformJobs({ db: database.db, config });
  await terraformJobs.resumeUnfinished();
  const api = getRequestListener(
    createApiApp({ db: database.db, config, jwks: identity.publicJwks, terraformJobs, secrets, engine })
      .fetch,
  );
  const files = getRequestListener(createFilesApp({ jobs: terraformJobs, db: database.db, engine }).fetch);

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const pathname = (request.url ?? "/").split("?")[0] ?? "/";
    if (pathname === "/api" || pathname.startsWith("/api/")) return void api(request, response);
    if (pathname.startsWith("/files/")) return void files(request, response);
    identity.handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    server,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await terraformJobs.close();
      await engine.runner.stop();
      await deliveries.stop();
      await metrics.stop();
      await driftChecks.stop();
      await usageSamples.stop();
      await auditRetention.stop();
      await cost.stop();
      await database.close();
    },
  };
}
