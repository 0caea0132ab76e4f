import type { IncomingMessage, ServerResponse } from "node:http";
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK } from "jose";
import type { PlatformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { claimsForScopes, findProfileClaims } from "./account";
import { sendJson } from "./http";

/**
 * Auth0's /userinfo: it accepts the access token issued for the API (Auth0 puts the userinfo endpoint in the
 * audience of every token that has the openid scope). oidc-provider's own userinfo endpoint only accepts
 * tokens without an audience, so this endpoint verifies the JWT itself and answers from the database.
 */
export function createUserinfoHandler({
  db,
  config,
  publicJwks,
}: {
  db: Database;
  config: PlatformConfig;
  publicJwks: { keys: JWK[] };
}) {
  const keys = createLocalJWKSet(publicJwks);

  return async function userinfo(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "GET" && req.method !== "POST") {
      return sendJson(
        res,
        405,
        { error: "invalid_request", error_description: "use GET or POST" },
        { Allow: "GET, POST" },
      );
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!token) {
      return sendJson(
        res,
        401,
        { error: "invalid_request", error_description: "no access token provided" },
        { "WWW-Authenticate": 'Bearer realm="userinfo"' },
      );
    }

    let subject: string | undefined;
    let scopes = new Set<string>();
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ["RS256"],
      });
      subject = payload.sub;
      scopes = new Set(typeof payload.scope === "string" ? payload.scope.split(" ") : []);
    } catch (error) {
      if (!(error instanceof joseErrors.JOSEError)) throw error;
      return rejectToken(res, "invalid_token", "access token is invalid or expired");
    }
    if (!scopes.has("openid")) {
      return rejectToken(res, "insufficient_scope", "access token missing openid scope");
    }

    const profile = subject ? await findProfileClaims(db, subject) : undefined;
    if (!profile) return rejectToken(res, "invalid_token", "the token's user no longer exists");
    sendJson(res, 200, claimsForScopes(profile, scopes));
  };
}

function rejectToken(res: ServerResponse, error: string, description: string): void {
  const status = error === "insufficient_scope" ? 403 : 401;
  sendJson(
    res,
    status,
    { error, error_description: description },
    {
      "WWW-Authenticate": `Bearer realm="userinfo", error="${error}", error_description="${description}"`,
    },
  );
}
