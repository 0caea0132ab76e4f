import { IncomingMessage, type ServerResponse } from "node:http";
import type { JWK } from "jose";
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { PlatformConfig } from "../config";
import type { Database } from "../db/index";
import { authenticateUser, claimsByScope, findProfileClaims } from "./account";
import { createPayloadAdapter, purgeExpiredPayloads, revokeGrant } from "./adapter";
import { BodyTooLargeError, mediaType, readBody, readForm, redirect, sendJson } from "./http";
import { loadOrCreateIdentityKeys } from "./keys";
import {
  WRONG_CREDENTIALS_MESSAGE,
  htmlSecurityHeaders,
  renderLoginPage,
  renderMessagePage,
  renderSignedOutPage,
  sendHtml,
} from "./pages";
import { createUserinfoHandler } from "./userinfo";

/** Everything the first-party app asks for, granted without a consent screen. */
const FIRST_PARTY_SCOPES = ["openid", "profile", "email", "offline_access"];

/** Cookie names of the provider; prefixed because cookies are shared by every port of localhost. */
export const IDENTITY_COOKIE_NAMES = {
  session: "idp_session",
  interaction: "idp_interaction",
  resume: "idp_interaction_resume",
} as const;

const DAY_SECONDS = 24 * 60 * 60;
const COOKIE_OPTIONS = { httpOnly: true, sameSite: "lax" } as const;
const INTERACTION_PATH = /^\/interaction\/([\w-]+)$/;

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
  const appOrigin = new URL(config.appUrl).origin;

  async function grantFirstPartyAccess(
    provider: Provider,
    { accountId, clientId, grantId }: { accountId: string; clientId: string; grantId?: string },
  ) {
    const existing = grantId ? await provider.Grant.find(grantId) : undefined;
    const grant =
      existing && existing.accountId === accountId && existing.clientId === clientId
        ? existing
        : new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(FIRST_PARTY_SCOPES);
    grant.addResourceScope(apiResource, FIRST_PARTY_SCOPES.join(" "));
    await grant.save();
    return grant;
  }

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
    },
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
      // Served by createUserinfoHandler (Auth0 semantics) and logout by /v2/logout below.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
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
      return grantFirstPartyAccess(provider, {
        accountId: session.accountId,
        clientId: client.clientId,
        grantId: ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId),
      });
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
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
      ctx.status = ctx.status >= 400 ? ctx.status : 400;
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
  provider.on("server_error", (_ctx: unknown, error: unknown) => console.error("identity provider error:", error));

  const oidcCallback = provider.callback();
  const userinfo = createUserinfoHandler({ db, config, publicJwks: keys.publicJwks });

  function isAllowedReturnTo(value: string | null): value is string {
    if (!value || !URL.canParse(value)) return false;
    const target = new URL(value);
    const appPath = new URL(config.appUrl).pathname.replace(/\/$/, "");
    return target.origin === appOrigin && (target.pathname === appPath || target.pathname.startsWith(`${appPath}/`));
  }

  async function showInteraction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const interaction = await provider.interactionDetails(req, res).catch((error: unknown) => {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    });
    if (!interaction || interaction.uid !== uid) return sendExpiredInteraction(res);

    if (interaction.prompt.name !== "login") return finishConsent(req, res, interaction);

    if (req.method === "GET") {
      const loginHint = typeof interaction.params.login_hint === "string" ? interaction.params.login_hint : "";
      return sendHtml(res, 200, renderLoginPage({ action: `/interaction/${uid}`, email: loginHint }), [appOrigin]);
    }
    if (req.method !== "POST") return sendJson(res, 405, { error: "method_not_allowed" }, { Allow: "GET, POST" });

    const form = await readForm(req);
    const email = form.get("email") ?? "";
    const accountId = await authenticateUser(db, email, form.get("password") ?? "");
    if (!accountId) {
      const page = renderLoginPage({ action: `/interaction/${uid}`, email, error: WRONG_CREDENTIALS_MESSAGE });
      return sendHtml(res, 401, page, [appOrigin]);
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId, amr: ["pwd"] } },
      { mergeWithLastSubmission: false },
    );
  }

  /** Any prompt other than login (an unusual consent request) is answered for the user: no consent screen. */
  async function finishConsent(
    req: IncomingMessage,
    res: ServerResponse,
    interaction: Awaited<ReturnType<Provider["interactionDetails"]>>,
  ): Promise<void> {
    const accountId = interaction.session?.accountId;
    const clientId = interaction.params.client_id;
    if (!accountId || typeof clientId !== "string") return sendExpiredInteraction(res);
    const grant = await grantFirstPartyAccess(provider, { accountId, clientId, grantId: interaction.grantId });
    await provider.interactionFinished(req, res, { consent: { grantId: grant.jti } }, { mergeWithLastSubmission: true });
  }

  function sendExpiredInteraction(res: ServerResponse): void {
    const page = renderMessagePage({
      title: "Sign-in expired",
      message: "This sign-in page has expired. Go back to the app and sign in again.",
    });
    sendHtml(res, 400, page);
  }

  /**
   * Auth0's /v2/logout: ends the provider's session and revokes what it granted (refresh tokens included),
   * then returns to `returnTo` when it is the app's URL, or shows a signed-out page. No confirmation step.
   */
  async function logout(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const ctx = provider.createContext(req, res);
    const session = await provider.Session.get(ctx);
    for (const { grantId } of Object.values(session.authorizations ?? {})) {
      if (grantId) await revokeGrant(db, grantId);
    }
    await session.destroy();
    ctx.cookies.set(provider.cookieName("session"), null, COOKIE_OPTIONS);

    const clientId = url.searchParams.get("client_id");
    const returnTo = url.searchParams.get("returnTo");
    if ((clientId === null || clientId === config.clientId) && isAllowedReturnTo(returnTo)) {
      return redirect(res, returnTo);
    }
    sendHtml(res, 200, renderSignedOutPage());
  }

  /**
   * Auth0's token endpoint also takes JSON bodies; oidc-provider reads forms only, so the JSON is replayed to it
   * as an equivalent form-encoded request.
   */
  async function jsonAsFormRequest(req: IncomingMessage, res: ServerResponse): Promise<IncomingMessage | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse((await readBody(req)).toString("utf8"));
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      sendJson(res, 400, { error: "invalid_request", error_description: "the body must be a JSON object" });
      return undefined;
    }
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        form.append(name, String(value));
      }
    }
    const body = Buffer.from(form.toString(), "utf8");
    const replay = new IncomingMessage(req.socket);
    replay.method = req.method;
    replay.url = req.url;
    replay.httpVersion = req.httpVersion;
    replay.headers = {
      ...req.headers,
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(body.length),
    };
    replay.push(body);
    replay.push(null);
    return replay;
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", config.issuer);
    const interaction = INTERACTION_PATH.exec(url.pathname);
    if (interaction?.[1]) return showInteraction(req, res, interaction[1]);
    if (url.pathname === "/v2/logout" && req.method === "GET") return logout(req, res, url);
    if (url.pathname === "/userinfo") return userinfo(req, res);
    if (url.pathname === "/oauth/token" && req.method === "POST" && mediaType(req) === "application/json") {
      const replay = await jsonAsFormRequest(req, res);
      if (replay) await oidcCallback(replay, res);
      return;
    }
    await oidcCallback(req, res);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
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
