import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createApiApp } from "./api/app";
import type { PlatformConfig } from "./config";
import { openDb } from "./db/index";
import { ensureRoles, seedDemoData } from "./db/seed";
import { createIdentityProvider } from "./identity/provider";

export type RunningPlatform = { url: string; server: Server; close: () => Promise<void> };

/**
 * One HTTP server for the whole embedded platform: the API under /api and the Auth0-compatible identity
 * provider (/authorize, /oauth/token, /userinfo, /v2/logout, /.well-known/*, the login pages) at the root.
 */
export async function startPlatform(config: PlatformConfig): Promise<RunningPlatform> {
  const database = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await ensureRoles(database.db);
  if (config.seedDemoData && (await seedDemoData(database.db))) console.info("platform: demo data seeded");

  const identity = await createIdentityProvider({ db: database.db, config });
  const api = getRequestListener(createApiApp({ db: database.db, config, jwks: identity.publicJwks }).fetch);

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const pathname = (request.url ?? "/").split("?")[0] ?? "/";
    if (pathname === "/api" || pathname.startsWith("/api/")) return void api(request, response);
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
      await database.close();
    },
  };
}
