import type { IncomingMessage, ServerResponse } from "node:http";
import type { JWK } from "jose";
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { PlatformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { claimsByScope, findProfileClaims } from "./account";
import { createPayloadAdapter, purgeExpiredPayloads } from "./adapter";
import { FIRST_PARTY_SCOPES, grantFirstPartyAccess } from "./first-party-grant";
import { BodyTooLargeError, mediaType, sendJson } from "./http";
import { createInteractionHandler, interactionPath, interactionRouteOf } from "./interactions";
import { jsonTokenRequestAsForm } from "./json-token-request";
import { loadOrCreateIdentityKeys } from "./keys";
import { serveFont } from "./fonts";
import { createLogoutHandler } from "./logout";
import { htmlSecurityHeaders, renderMessagePage, sendHtml } from "./pages";
import { createUserinfoHandler } from "./userinfo";

/** The claim access tokens carry the grant id in (platform/http/auth.ts verifies it). */
export const GRANT_ID_CLAIM = "grant_id";

/** Cookie names of the provider; prefixed because cookies are shared by every port of localhost. */
const IDENTITY_COOKIE_NAMES = {
  session: "idp_session",
  interaction: "idp_interaction",
  resume: "idp_interaction_resume",
} as const;

const DAY_SECONDS = 24 * 60 * 60;
const COOKIE_OPTIONS = { httpOnly: true, sameSite: "lax" } as const;

export type IdentityProvider = {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  publicJwks: { keys: JWK[] };
};

/**
 * The embedded, Auth0-compatible identity provider: oidc-provider with Auth0's routes at the origin root
 * (/authorize, /oauth/token, /oauth/revoke, /userinfo, /v2/logout, /.well-known/*), one first-party client
 * (the app), a password login page, and JWT access tokens for the platform API.
 */
export async function createIdentityProvider({
  db,
  config,
}: {
  db: Database;
  config: PlatformConfig;
}): Promise<IdentityProvider> {
  const keys = await loadOrCreateIdentityKeys(config.dataDir);
  await purgeExpiredPayloads(db);

  // A resource indicator must be an absolute URI, while an Auth0 audience may be any string.
  const apiResource = URL.canParse(config.audience) ? config.audience : "urn:cloud-console:platform-api";

  const configuration: Configuration = {
    adapter: createPayloadAdapter(db),
    clients: [
      {
        client_id: config.clientId,
        client_secret: config.clientSecret,
        client_name: "Cloud Console",
        redirect_uris: [`${config.appUrl}/auth`],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: keys.signingKeys },
    cookies: {
      keys: keys.cookieKeys,
      names: IDENTITY_COOKIE_NAMES,
      long: { ...COOKIE_OPTIONS },
      short: { ...COOKIE_OPTIONS },
    },
    conformIdTokenClaims: false,
    scopes: FIRST_PARTY_SCOPES,
    claims: Object.fromEntries(Object.entries(claimsByScope).map(([scope, claims]) => [scope, [...claims]])),
    extraParams: {
      // Auth0 names the API by `audience`; only this platform's API is known here, as on an Auth0 tenant.
      audience(_ctx: KoaContextWithOIDC, value: string | undefined) {
        if (value !== undefined && value !== config.audience) {
          throw new errors.AccessDenied(`Service not found: ${value}`);
        }
      },
      // Auth0's Universal Login opens its sign-up screen for screen_hint=signup; so does the interaction page.
      screen_hint: null,
    },
    // Only what the app uses: the code flow, with the client secret in a Basic header.
    responseTypes: ["code"],
    clientAuthMethods: ["client_secret_basic"],
    pkce: { required: () => true },
    routes: {
      authorization: "/authorize",
      token: "/oauth/token",
      revocation: "/oauth/revoke",
      jwks: "/.well-known/jwks.json",
    },
    discovery: { userinfo_endpoint: new URL("userinfo", config.issuer).href },
    features: {
      devInteractions: { enabled: false },
      // Auth0's /userinfo and /v2/logout are served by createUserinfoHandler and createLogoutHandler.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource,
        // Refreshes and code exchanges without a `resource` parameter still yield API access tokens.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== apiResource) throw new errors.InvalidTarget();
          return {
            audience: config.audience,
            scope: FIRST_PARTY_SCOPES.join(" "),
            accessTokenTTL: config.accessTokenTtlSeconds,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    // The API refuses a token whose grant is gone, so /v2/logout (which deletes the grant) ends every copy of
    // the session at once rather than when its access tokens expire.
    extraTokenClaims: (_ctx, token) =>
      token.kind === "AccessToken" && token.grantId ? { [GRANT_ID_CLAIM]: token.grantId } : undefined,
    async findAccount(_ctx, sub) {
      const profile = await findProfileClaims(db, sub);
      return profile && { accountId: profile.sub, claims: () => profile };
    },
    // oidc-provider drops offline_access from any authorization request that carries a prompt other than
    // consent (prompt=login, for instance); the only client is the first-party app, which always wants one.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    // Refresh tokens outlive the provider's login session, as on Auth0; /v2/logout revokes them explicitly.
    expiresWithSession: () => false,
    // No consent screen: the first-party app is granted everything it may ask for as soon as the user signs in.
    async loadExistingGrant(ctx) {
      const { client, session, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      return grantFirstPartyAccess(provider, apiResource, {
        accountId: session.accountId,
        clientId: client.clientId,
        grantId: ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId),
      });
    },
    interactions: { url: (_ctx, pending) => interactionPath(pending.uid) },
    ttl: {
      AccessToken: config.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: config.accessTokenTtlSeconds,
      Interaction: 60 * 60,
      Session: 14 * DAY_SECONDS,
      Grant: 14 * DAY_SECONDS,
      RefreshToken: 14 * DAY_SECONDS,
    },
    clientBasedCORS: () => false,
    renderError(ctx, out) {
      ctx.set(htmlSecurityHeaders([]));
      ctx.body = renderMessagePage({
        title: "Sign-in failed",
        message: out.error_description ?? out.error,
      });
    },
  };

  const provider = new Provider(config.issuer, configuration);
  // Behind an https public URL this server speaks plain HTTP to a TLS-terminating proxy; trust its headers
  // so the provider's cookies are marked Secure.
  provider.proxy = new URL(config.issuer).protocol === "https:";
  provider.on("server_error", (_ctx: unknown, error: unknown) =>
    console.error("identity provider error:", error),
  );

  const oidcCallback = provider.callback();
  const userinfo = createUserinfoHandler({ db, config, publicJwks: keys.publicJwks });
  const interaction = createInteractionHandler({
    provider,
    db,
    apiResource,
    appOrigin: new URL(config.appUrl).origin,
    trustProxyHops: config.trustProxyHops,
  });
  const logout = createLogoutHandler({ provider, db, config, sessionCookieOptions: COOKIE_OPTIONS });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", config.issuer);
    const interactionRoute = interactionRouteOf(url.pathname);
    if (interactionRoute) return interaction(req, res, interactionRoute);
    if (url.pathname === "/v2/logout" && req.method === "GET") return logout(req, res, url);
    if (url.pathname === "/userinfo") return userinfo(req, res);
    if (req.method === "GET" && (await serveFont(url.pathname, res))) return;
    if (url.pathname === "/oauth/token" && req.method === "POST" && mediaType(req) === "application/json") {
      const replay = await jsonTokenRequestAsForm(req, res);
      if (replay) await oidcCallback(replay, res);
      return;
    }
    await oidcCallback(req, res);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    // No answer of the provider is meant to be read as another type than it says (JSON read as a script, say).
    res.setHeader("X-Content-Type-Options", "nosniff");
    route(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof BodyTooLargeError) {
        sendJson(res, 413, { error: "invalid_request", error_description: error.message });
        return;
      }
      console.error("identity provider error:", error);
      sendHtml(res, 500, renderMessagePage({ title: "Something went wrong", message: "Please try again." }));
    });
  }

  return { handle, publicJwks: keys.publicJwks };
}
