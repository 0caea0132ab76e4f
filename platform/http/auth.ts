import { and, eq, gt, isNull, or, type SQL } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK } from "jose";
import { apiErrorMessages } from "#contract/errors";
import type { PlatformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { oidcPayloads, users } from "../db/schema";
import { GRANT_ID_CLAIM } from "../identity/provider";
import { unauthorized } from "./errors";

export type AuthenticatedUser = { id: string; email: string; name: string };

/** What a verified access token says: its user and the grant (sign-in) it was issued under. */
export type AccessTokenClaims = { subject: string; grantId: string };

export type AuthenticatedEnv = { Variables: { user: AuthenticatedUser; accessToken: AccessTokenClaims } };

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
  config: Pick<PlatformConfig, "issuer" | "audience">;
  jwks: { keys: JWK[] };
  now?: () => number;
}): MiddlewareHandler<AuthenticatedEnv> {
  const verify = createAccessTokenVerifier(deps);
  return async (c, next) => {
    const token = bearerPattern.exec(c.req.header("Authorization") ?? "")?.[1];
    if (!token) throw unauthorized(apiErrorMessages.unauthorized, { tokenPresented: false });
    c.set("accessToken", await verify(token));
    await next();
  };
}

/**
 * Loads the caller (one query: the user, and the token's grant still existing) unless an organization guard
 * already did so in its own query.
 */
export function requireUser(db: Database): MiddlewareHandler<AuthenticatedEnv> {
  return async (c, next) => {
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
