import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { PlatformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { revokeGrant } from "./adapter";
import { redirect } from "./http";
import { renderSignedOutPage, sendHtml } from "./pages";

/**
 * Auth0's GET /v2/logout?client_id=...&returnTo=...: ends the provider's session and revokes what it granted
 * (refresh tokens included), then returns to `returnTo` when it is a URL of the app, or shows a signed-out
 * page. There is no confirmation step.
 */
export function createLogoutHandler({
  provider,
  db,
  config,
  sessionCookieOptions,
}: {
  provider: Provider;
  db: Database;
  config: PlatformConfig;
  sessionCookieOptions: { httpOnly: boolean; sameSite: "lax" };
}) {
  return async function logout(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // A Koa context of the provider reads and clears its signed session cookie exactly as oidc-provider does.
    const ctx = provider.createContext(req, res);
    const session = await provider.Session.get(ctx);
    for (const { grantId } of Object.values(session.authorizations ?? {})) {
      if (grantId) await revokeGrant(db, grantId);
    }
    await session.destroy();
    ctx.cookies.set(provider.cookieName("session"), null, sessionCookieOptions);

    const clientId = url.searchParams.get("client_id");
    const returnTo = url.searchParams.get("returnTo");
    if ((clientId === null || clientId === config.clientId) && isAppUrl(returnTo, config.appUrl)) {
      return redirect(res, returnTo);
    }
    sendHtml(res, 200, renderSignedOutPage());
  };
}

/** Same origin as the app and inside its path; a plain prefix test would let `http://app.evil` through. */
export function isAppUrl(value: string | null, appUrl: string): value is string {
  if (!value || !URL.canParse(value)) return false;
  const target = new URL(value);
  const app = new URL(appUrl);
  const appPath = app.pathname.replace(/\/$/, "");
  return (
    target.origin === app.origin && (target.pathname === appPath || target.pathname.startsWith(`${appPath}/`))
  );
}
