import { eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK } from "jose";
import { apiErrorMessages } from "#contract/errors";
import type { PlatformConfig } from "../config";
import type { Database } from "../db/index";
import { users } from "../db/schema";
import { unauthorized } from "./errors";

export type AuthenticatedUser = { id: string; email: string; name: string };

export type AuthenticatedEnv = { Variables: { user: AuthenticatedUser } };

const bearerPattern = /^Bearer\s+(\S+)\s*$/i;

/**
 * Accepts only RS256 access tokens the identity provider issued for this API (issuer, audience, signature against
 * its JWKS, exp required) whose subject is still a user here, and puts that user on the context.
 */
export function authenticate(deps: {
  db: Database;
  config: Pick<PlatformConfig, "issuer" | "audience">;
  jwks: { keys: JWK[] };
}): MiddlewareHandler<AuthenticatedEnv> {
  const keySet = createLocalJWKSet(deps.jwks);
  const verifyOptions = {
    issuer: deps.config.issuer,
    audience: deps.config.audience,
    algorithms: ["RS256"],
    requiredClaims: ["sub", "exp"],
  };

  /** The token's subject; any verification failure is a 401, anything else (a bug) propagates as a 500. */
  async function verifiedSubject(token: string): Promise<string> {
    try {
      const { payload } = await jwtVerify(token, keySet, verifyOptions);
      if (payload.sub) return payload.sub;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw unauthorized(apiErrorMessages.expiredAccessToken, { tokenPresented: true });
      }
      if (!(error instanceof joseErrors.JOSEError)) throw error;
    }
    throw unauthorized(apiErrorMessages.invalidAccessToken, { tokenPresented: true });
  }

  return async (c, next) => {
    const token = bearerPattern.exec(c.req.header("Authorization") ?? "")?.[1];
    if (!token) throw unauthorized(apiErrorMessages.unauthorized, { tokenPresented: false });

    const subject = await verifiedSubject(token);
    const [user] = await deps.db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(eq(users.id, subject));
    if (!user) throw unauthorized(apiErrorMessages.unknownUser, { tokenPresented: true });
    c.set("user", user);
    await next();
  };
}

/** The caller, failing closed if a route was ever mounted outside `authenticate`. */
export function currentUser<Env extends AuthenticatedEnv>(c: Context<Env>): AuthenticatedUser {
  const user = c.get("user") as AuthenticatedUser | undefined;
  if (!user) throw new Error("Route is not behind the authenticate middleware");
  return user;
}
