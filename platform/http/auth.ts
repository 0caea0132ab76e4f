import { and, eq, gt, isNull, or, type SQL } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK } from "jose";
import { getConnInfo } from "@hono/node-server/conninfo";
import { API_TOKEN_RATE_LIMITED_CODE, apiTokenErrorMessages } from "#contract/api-tokens";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import type { Permission } from "#contract/permissions";
import type { PlatformConfig } from "../lib/config";
import { clientAddressOf } from "../lib/client-address";
import type { Database } from "../db/index";
import { oidcPayloads, users } from "../db/schema";
import { GRANT_ID_CLAIM } from "../identity/provider";
import { countTokenRequest } from "../tokens/rate-limit";
import { isWellFormedToken, looksLikeApiToken } from "../tokens/token-values";
import { findPresentedToken } from "../tokens/tokens";
import { HttpError, unauthorized } from "./errors";

export type AuthenticatedUser = { id: string; email: string; name: string };

/** What a verified access token says: its user and the grant (sign-in) it was issued under. */
export type AccessTokenClaims = { subject: string; grantId: string };

/**
 * A call made with an API token (decision 070): the token, the user it speaks for (a member, or a service
 * account's user) and the one organization it works in; `permissions` narrows a personal token.
 */
export type ApiTokenCaller = {
  tokenId: string;
  tokenName: string;
  user: AuthenticatedUser;
  tenantId: string;
  permissions: Permission[] | null;
  serviceAccount: boolean;
};

export type AuthenticatedEnv = {
  Variables: { user: AuthenticatedUser; accessToken: AccessTokenClaims; apiToken?: ApiTokenCaller };
};

const bearerPattern = /^Bearer\s+(\S+)\s*$/i;

/** A verified token is trusted this long at most before its signature is checked again. */
const VERIFIED_TOKEN_TTL_MS = 60_000;
const VERIFIED_TOKEN_CACHE_SIZE = 1000;

/**
 * Verifies RS256 access tokens the identity provider issued for this API (issuer, audience, signature against
 * its JWKS, exp, subject and grant id required). A verified token's claims are kept briefly, until its expiry
 * or a minute at most, so a page making several calls pays one signature check; only the cryptography is
 * cached: whether the user and the sign-in still exist is asked of the database on every request.
 */
export function createAccessTokenVerifier({
  config,
  jwks,
  now = Date.now,
}: {
  config: Pick<PlatformConfig, "issuer" | "audience">;
  jwks: { keys: JWK[] };
  now?: () => number;
}): (token: string) => Promise<AccessTokenClaims> {
  const keySet = createLocalJWKSet(jwks);
  const verifyOptions = {
    issuer: config.issuer,
    audience: config.audience,
    algorithms: ["RS256"],
    requiredClaims: ["sub", "exp", GRANT_ID_CLAIM],
  };
  const verified = new Map<string, { claims: AccessTokenClaims; until: number }>();

  /** The token's claims; any verification failure is a 401, anything else (a bug) propagates as a 500. */
  async function verify(token: string): Promise<{ claims: AccessTokenClaims; expiresAt: number }> {
    try {
      const { payload } = await jwtVerify(token, keySet, { ...verifyOptions, currentDate: new Date(now()) });
      const grantId = payload[GRANT_ID_CLAIM];
      if (payload.sub && typeof grantId === "string" && payload.exp) {
        return { claims: { subject: payload.sub, grantId }, expiresAt: payload.exp * 1000 };
      }
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw unauthorized(apiErrorMessages.expiredAccessToken, { tokenPresented: true });
      }
      if (!(error instanceof joseErrors.JOSEError)) throw error;
    }
    throw unauthorized(apiErrorMessages.invalidAccessToken, { tokenPresented: true });
  }

  return async (token) => {
    const cached = verified.get(token);
    if (cached && cached.until > now()) return cached.claims;
    verified.delete(token);

    const { claims, expiresAt } = await verify(token);
    if (verified.size >= VERIFIED_TOKEN_CACHE_SIZE) {
      // Maps iterate in insertion order: the oldest entry goes first.
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, { claims, until: Math.min(expiresAt, now() + VERIFIED_TOKEN_TTL_MS) });
    return claims;
  };
}

/**
 * Join conditions proving the token's sign-in is still alive: its grant row exists and has not expired. Logout
 * deletes the grant (platform/identity/logout.ts), so every copy of that session's tokens stops working at once.
 */
export function liveGrantCondition(claims: AccessTokenClaims, now: Date): SQL | undefined {
  return and(
    eq(oidcPayloads.model, "Grant"),
    eq(oidcPayloads.id, claims.grantId),
    or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, now)),
  );
}

/** The 401 for a token whose user is gone or whose sign-in has ended. */
export function assertLiveCaller<Row extends { id: string | null; grantId: string | null }>(
  row: Row | undefined,
): asserts row is Row & { id: string; grantId: string } {
  if (!row?.id) throw unauthorized(apiErrorMessages.unknownUser, { tokenPresented: true });
  if (!row.grantId) throw unauthorized(apiErrorMessages.endedSession, { tokenPresented: true });
}

/**
 * Checks the bearer token and puts its claims on the context. The user is loaded after the organization guards
 * (see `requireUser`), so a request under a tenant checks user, sign-in and membership in one query.
 */
export function authenticate(deps: {
  db: Database;
  config: Pick<PlatformConfig, "issuer" | "audience" | "trustProxyHops">;
  jwks: { keys: JWK[] };
  now?: () => number;
  /** The clock of API tokens' expiry, last use and rate limit: the engine's, which tests move. */
  clock?: () => Date;
}): MiddlewareHandler<AuthenticatedEnv> {
  const verify = createAccessTokenVerifier(deps);
  const checkApiToken = apiTokenChecker(deps);
  return async (c, next) => {
    const token = bearerPattern.exec(c.req.header("Authorization") ?? "")?.[1];
    if (!token) throw unauthorized(apiErrorMessages.unauthorized, { tokenPresented: false });
    if (looksLikeApiToken(token)) c.set("apiToken", await checkApiToken(c, token));
    else c.set("accessToken", await verify(token));
    await next();
  };
}

/**
 * Checks an API token on every request (never cached, so a revocation holds from the next request): its
 * checksum, then its hash's row, revocation, expiry and rate limit. Its use is noted in the same write as its count
 * against the limit, before the route runs, so a refused call still shows the token is in use.
 */
function apiTokenChecker({
  db,
  config,
  clock = () => new Date(),
}: {
  db: Database;
  config: Pick<PlatformConfig, "trustProxyHops">;
  clock?: () => Date;
}) {
  const refuse = (message: string) => unauthorized(message, { tokenPresented: true });
  return async (c: Context, value: string): Promise<ApiTokenCaller> => {
    if (!isWellFormedToken(value)) throw refuse(apiTokenErrorMessages.unknown);
    const presented = await findPresentedToken(db, value);
    if (!presented) throw refuse(apiTokenErrorMessages.unknown);
    const { row, user, organization, serviceAccount } = presented;
    const now = clock();
    if (row.revokedAt) throw refuse(apiTokenErrorMessages.revoked);
    if (row.expiresAt.getTime() <= now.getTime()) throw refuse(apiTokenErrorMessages.expired);
    const allowed = await countTokenRequest(db, row.id, {
      at: now,
      address: addressOf(c, config.trustProxyHops ?? 0),
    });
    if (!allowed.allowed) {
      throw new HttpError(
        429,
        {
          message: apiTokenErrorMessages.rateLimited(allowed.retryAfterSeconds),
          code: API_TOKEN_RATE_LIMITED_CODE,
        },
        { "Retry-After": String(allowed.retryAfterSeconds) },
      );
    }
    return {
      tokenId: row.id,
      tokenName: row.name,
      user,
      tenantId: organization.tenantId,
      permissions: row.permissions as Permission[] | null,
      serviceAccount,
    };
  };
}

function addressOf(c: Context, trustedHops: number): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // Not served by the Node server (tests call the app directly): there is no socket.
  }
  return clientAddressOf(peer, c.req.header("X-Forwarded-For"), trustedHops);
}

/** The API token a call was made with, if any. */
export function apiTokenOf<Env extends AuthenticatedEnv>(c: Context<Env>): ApiTokenCaller | undefined {
  return c.get("apiToken") as ApiTokenCaller | undefined;
}

/** Refuses a route to API tokens: minting and revoking tokens takes a signed-in person. */
export function assertSignedInPerson<Env extends AuthenticatedEnv>(c: Context<Env>): void {
  if (apiTokenOf(c)) {
    throw new HttpError(403, { message: apiTokenErrorMessages.personOnly, code: apiErrorCodes.forbidden });
  }
}

/**
 * Loads the caller (one query: the user, and the token's grant still existing) unless an organization guard
 * already did so in its own query.
 */
export function requireUser(db: Database): MiddlewareHandler<AuthenticatedEnv> {
  return async (c, next) => {
    // The organization guard checked a token under its tenant; anywhere else a token has no business.
    if (apiTokenOf(c) && !c.get("user")) {
      throw unauthorized(apiTokenErrorMessages.outsideOrganization, { tokenPresented: true });
    }
    if (!c.get("user")) {
      const claims = verifiedClaims(c);
      const [row] = await db
        .select({ id: users.id, email: users.email, name: users.name, grantId: oidcPayloads.id })
        .from(users)
        .leftJoin(oidcPayloads, liveGrantCondition(claims, new Date()))
        .where(eq(users.id, claims.subject));
      assertLiveCaller(row);
      c.set("user", { id: row.id, email: row.email, name: row.name });
    }
    await next();
  };
}

/** The verified token's claims, failing closed if a route was ever mounted outside `authenticate`. */
export function verifiedClaims<Env extends AuthenticatedEnv>(c: Context<Env>): AccessTokenClaims {
  const claims = c.get("accessToken") as AccessTokenClaims | undefined;
  if (!claims) throw new Error("Route is not behind the authenticate middleware");
  return claims;
}

/** The caller, failing closed if a route was ever mounted outside `authenticate`. */
export function currentUser<Env extends AuthenticatedEnv>(c: Context<Env>): AuthenticatedUser {
  const user = c.get("user") as AuthenticatedUser | undefined;
  if (!user) throw new Error("Route is not behind the authenticate middleware");
  return user;
}
