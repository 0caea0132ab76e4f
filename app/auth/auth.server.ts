import { redirect } from "@remix-run/node";
import type { OAuth2Tokens } from "arctic";
import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";
import { Authenticator } from "remix-auth";
import { errorMessages } from "#contract/errors";
import type { OrganizationClaim } from "#contract/identity";
import { getEnv } from "~/env.server";
import { validateIdToken } from "./id-token.server";
import { safeReturnTo } from "./return-to";
import {
  commitSession,
  destroySession,
  getSession,
  type AppSession,
  type SessionTokens,
  type SessionUser,
} from "./session.server";
import { DiscoveredAuth0Strategy, LOGIN_HINT, SCREEN_HINT, discover, nonceForState } from "./strategy.server";

const STRATEGY = "auth0";
const STATE_COOKIE = "__auth_state";
/** Tokens are refreshed this long before they expire (SPEC §9 cache expiry margin). */
export const EXPIRY_MARGIN_MS = 60_000;

type SignedIn = { user: SessionUser; organizations: OrganizationClaim[]; tokens: SessionTokens };

type Auth = {
  authenticator: Authenticator<SignedIn>;
  strategy: DiscoveredAuth0Strategy<SignedIn>;
  jwks: JWTVerifyGetKey;
};

let pending: Promise<Auth> | undefined;

/** Built on first use from the issuer's discovery document; a failed discovery is retried on the next request. */
function auth(): Promise<Auth> {
  pending ??= createAuth().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function createAuth(): Promise<Auth> {
  const env = getEnv();
  const discovery = await discover(env.issuer);
  const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
  const nonceSecret = env.sessionSecrets[0] ?? "";
  const strategy = new DiscoveredAuth0Strategy<SignedIn>(
    {
      discovery,
      nonceSecret,
      clientId: env.clientId,
      clientSecret: env.clientSecret,
      redirectURI: `${env.appUrl}/auth`,
      scopes: ["openid", "profile", "email", "offline_access"],
      audience: env.audience,
      cookie: { name: STATE_COOKIE, sameSite: "Lax", path: "/", ...(env.production ? { secure: true } : {}) },
    },
    async ({ request, tokens }) => {
      const state = new URL(request.url).searchParams.get("state") ?? "";
      return signedIn(tokens, jwks, nonceForState(state, nonceSecret));
    },
  );
  return { authenticator: new Authenticator<SignedIn>().use(strategy, STRATEGY), strategy, jwks };
}

/** Turns a token response into session data, after validating the ID token (SPEC §5). */
async function signedIn(
  tokens: OAuth2Tokens,
  jwks: JWTVerifyGetKey,
  nonce: string | undefined,
  previous?: SignedIn,
): Promise<SignedIn> {
  const env = getEnv();
  const hasIdToken = "id_token" in tokens.data;
  if (!hasIdToken && !previous) throw new Error("The identity provider returned no ID token");
  const claims = hasIdToken
    ? await validateIdToken(tokens.idToken(), { issuer: env.issuer, clientId: env.clientId, jwks, nonce })
    : undefined;
  const user: SessionUser = claims
    ? {
        sub: claims.sub,
        name: claims.name ?? claims.email ?? claims.sub,
        email: claims.email ?? "",
        picture: claims.picture,
      }
    : (previous as SignedIn).user;
  return {
    user,
    organizations: claims ? claims.organizations : (previous as SignedIn).organizations,
    tokens: {
      accessToken: tokens.accessToken(),
      refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : previous?.tokens.refreshToken,
      expiresAt: Date.now() + tokens.accessTokenExpiresInSeconds() * 1000,
    },
  };
}

function loginPath(request: Request): string {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(`${url.pathname}${url.search}`);
  return returnTo === "/" ? "/auth/login" : `/auth/login?${new URLSearchParams({ returnTo })}`;
}

export type SignedInSession = SignedIn & { session: AppSession };

/** Whether the request carries a signed-in session, for the pages that also speak to visitors. */
export async function isSignedIn(request: Request): Promise<boolean> {
  const session = await getSession(request);
  return Boolean(session.get("user") && session.get("tokens"));
}

/**
 * Where a visitor goes to sign in (or sign up) and come back to `returnTo`; `email` starts the identity provider's
 * screen with that address (Auth0's login_hint).
 */
export function signInPath(
  returnTo: string,
  { screen, email }: { screen?: "signup"; email?: string } = {},
): string {
  const query = new URLSearchParams({ returnTo });
  if (email) query.set(LOGIN_HINT, email);
  return `/auth/${screen ?? "login"}?${query}`;
}

/** The signed-in user's session, or a redirect to sign-in that remembers where the visitor was going. */
export async function requireUser(request: Request): Promise<SignedInSession> {
  const session = await getSession(request);
  const user = session.get("user");
  const tokens = session.get("tokens");
  if (!user || !tokens) throw redirect(loginPath(request));
  return { session, user, tokens, organizations: session.get("organizations") ?? [] };
}

/**
 * Starts sign-in: remembers a safe return address and redirects to the identity provider's /authorize, at its
 * sign-up screen when `screen` is "signup" (Auth0's screen_hint). Either way the user comes back signed in.
 */
export async function startLogin(request: Request, { screen }: { screen?: "signup" } = {}): Promise<never> {
  const session = await getSession(request);
  session.set("returnTo", safeReturnTo(new URL(request.url).searchParams.get("returnTo")));
  const { authenticator } = await auth();
  const url = new URL(request.url);
  if (screen) url.searchParams.set(SCREEN_HINT, screen);
  try {
    await authenticator.authenticate(STRATEGY, new Request(url, { headers: request.headers }));
  } catch (thrown) {
    if (thrown instanceof Response) {
      thrown.headers.append("Set-Cookie", await commitSession(session));
      throw thrown;
    }
    throw thrown;
  }
  throw new Error("The sign-in strategy did not redirect to the identity provider");
}

/** What the callback page shows when sign-in cannot complete. */
export type LoginFailure = { message: string };

/** Completes sign-in at /auth: checks state and ID token, stores the session and returns to the kept address. */
export async function completeLogin(request: Request): Promise<LoginFailure> {
  const url = new URL(request.url);
  if (!url.searchParams.has("state")) {
    if (url.searchParams.has("code") || url.searchParams.has("error"))
      return { message: errorMessages.invalidState };
    throw redirect("/auth/login");
  }
  const session = await getSession(request);
  const { authenticator } = await auth();
  let result: SignedIn;
  try {
    result = await authenticator.authenticate(STRATEGY, request);
  } catch (error) {
    if (error instanceof Response) throw error;
    return { message: describeLoginError(error) };
  }
  const returnTo = session.get("returnTo") ?? "/";
  session.unset("returnTo");
  session.unset("expired");
  session.set("user", result.user);
  session.set("organizations", result.organizations);
  session.set("tokens", result.tokens);
  const headers = new Headers();
  headers.append("Set-Cookie", await commitSession(session));
  for (const name of stateCookieNames(request)) {
    headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  }
  throw redirect(returnTo, { headers });
}

/** The strategy keeps one state cookie per sign-in attempt (`__auth_state:<id>`); all are spent once signed in. */
function stateCookieNames(request: Request): string[] {
  return (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((pair) => pair.trim().split("=")[0] ?? "")
    .filter((name) => name.startsWith(`${STATE_COOKIE}:`));
}

function describeLoginError(error: unknown): string {
  // The Auth0 strategy throws these when the returned state is unknown or its cookie is gone (SPEC §8).
  if (error instanceof RangeError || (error instanceof ReferenceError && /state/i.test(error.message))) {
    return errorMessages.invalidState;
  }
  if (error && typeof error === "object" && "description" in error && typeof error.description === "string") {
    return error.description;
  }
  console.error("auth: sign-in failed", error);
  return "Login failed";
}

/**
 * Exchanges the refresh token for new tokens and stores them in the session (not yet committed).
 * Returns the new access token, or null when the provider refuses ('Unknown or invalid refresh token').
 */
export async function refreshSessionTokens(session: AppSession): Promise<string | null> {
  const tokens = session.get("tokens");
  const user = session.get("user");
  if (!tokens?.refreshToken || !user) return null;
  const { strategy, jwks } = await auth();
  try {
    const previous: SignedIn = { user, organizations: session.get("organizations") ?? [], tokens };
    const refreshed = await signedIn(
      await strategy.refreshToken(tokens.refreshToken),
      jwks,
      undefined,
      previous,
    );
    session.set("user", refreshed.user);
    session.set("organizations", refreshed.organizations);
    session.set("tokens", refreshed.tokens);
    return refreshed.tokens.accessToken;
  } catch (error) {
    console.warn(
      `auth: ${errorMessages.invalidRefreshToken}:`,
      error instanceof Error ? error.message : error,
    );
    return null;
  }
}

/** Flags the session expired, drops its tokens and sends the user to sign in again (SPEC §4 session expiry). */
export async function expireSession(request: Request, session: AppSession): Promise<Response> {
  session.unset("tokens");
  session.unset("user");
  session.unset("organizations");
  session.set("expired", true);
  return redirect(loginPath(request), { headers: { "Set-Cookie": await commitSession(session) } });
}

/**
 * Ends the app session and the identity provider's session (/v2/logout), then comes back to the app. The session's
 * refresh token is revoked first, which ends its grant at the embedded provider (and with it every access token the
 * platform would still take), so a copy of the session stops working even if the browser never reaches /v2/logout.
 */
export async function logout(request: Request): Promise<Response> {
  const env = getEnv();
  const session = await getSession(request);
  await revokeSessionTokens(session.get("tokens"));
  const logoutUrl = new URL(`${env.issuer}v2/logout`);
  logoutUrl.searchParams.set("client_id", env.clientId);
  logoutUrl.searchParams.set("returnTo", `${env.appUrl}/`);
  return redirect(logoutUrl.toString(), { headers: { "Set-Cookie": await destroySession(session) } });
}

/** Revokes the refresh token at the provider; signing out goes on when the provider cannot be reached. */
async function revokeSessionTokens(tokens: SessionTokens | undefined): Promise<void> {
  if (!tokens?.refreshToken) return;
  try {
    const { strategy } = await auth();
    await strategy.revokeToken(tokens.refreshToken);
  } catch (error) {
    console.warn(
      "auth: the refresh token could not be revoked at logout:",
      error instanceof Error ? error.message : error,
    );
  }
}
