import { compactVerify, decodeJwt, decodeProtectedHeader } from "jose";
import type { JWTPayload, JWTVerifyGetKey, ProtectedHeaderParameters } from "jose";
import * as z from "zod";
import { ORGANIZATIONS_CLAIM, organizationClaimSchema } from "#contract/identity";
import type { OrganizationClaim } from "#contract/identity";

/** Seconds of clock skew tolerated on exp, nbf and auth_time, as auth0-spa-js does. */
export const ID_TOKEN_LEEWAY_SECONDS = 60;

export type IdTokenExpectations = {
  issuer: string;
  clientId: string;
  jwks: JWTVerifyGetKey;
  nonce?: string;
  maxAgeSeconds?: number;
  /** An organization id (`org_...`) or name the token must have been issued for. */
  organization?: string;
  /** Current time in seconds since the epoch; tests pin it. */
  now?: () => number;
};

export type IdTokenClaims = {
  sub: string;
  email: string;
  name: string;
  picture?: string;
  organizations: OrganizationClaim[];
  org_id?: string;
  org_name?: string;
  iat: number;
  exp: number;
  auth_time?: number;
  nonce?: string;
};

export class IdTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IdTokenError";
  }
}

const organizationsClaimSchema = z.array(organizationClaimSchema).default([]);

/**
 * Validates an ID token the way auth0-spa-js's `verify` does (SPEC §5), and in addition checks its signature
 * against the issuer's key set, because the token reaches the server over a back channel we do not want to trust
 * blindly. Throws IdTokenError naming the first rule that fails.
 */
export async function validateIdToken(token: string, expected: IdTokenExpectations): Promise<IdTokenClaims> {
  if (!token) throw new IdTokenError("ID token is required but missing");
  const { header, claims } = decodeUnverified(token);

  if (typeof claims.iss !== "string" || !claims.iss) {
    throw new IdTokenError("Issuer (iss) claim must be a string present in the ID token");
  }
  if (claims.iss !== expected.issuer) {
    throw new IdTokenError(
      `Issuer (iss) claim mismatch in the ID token; expected "${expected.issuer}", found "${claims.iss}"`,
    );
  }
  if (typeof claims.sub !== "string" || !claims.sub) {
    throw new IdTokenError("Subject (sub) claim must be a string present in the ID token");
  }
  // Checked before the signature so that HS256 (a key confusion attack) and "none" never reach the verifier.
  if (header.alg !== "RS256") {
    throw new IdTokenError(
      `Signature algorithm of "${String(header.alg)}" is not supported. Expected the ID token to be signed with "RS256".`,
    );
  }
  await verifySignature(token, expected.jwks);

  checkAudience(claims, expected.clientId);

  if (expected.nonce !== undefined) {
    if (typeof claims.nonce !== "string" || !claims.nonce) {
      throw new IdTokenError("Nonce (nonce) claim must be a string present in the ID token");
    }
    if (claims.nonce !== expected.nonce) {
      throw new IdTokenError(
        `Nonce (nonce) claim mismatch in the ID token; expected "${expected.nonce}", found "${claims.nonce}"`,
      );
    }
  }

  if (expected.maxAgeSeconds !== undefined && !isNumber(claims.auth_time)) {
    throw new IdTokenError(
      "Authentication Time (auth_time) claim must be a number present in the ID token when Max Age (max_age) is specified",
    );
  }
  if (!isNumber(claims.exp)) {
    throw new IdTokenError("Expiration Time (exp) claim must be a number present in the ID token");
  }
  if (!isNumber(claims.iat)) {
    throw new IdTokenError("Issued At (iat) claim must be a number present in the ID token");
  }

  const now = expected.now?.() ?? Math.floor(Date.now() / 1000);
  const expiresAt = claims.exp + ID_TOKEN_LEEWAY_SECONDS;
  if (now > expiresAt) {
    throw new IdTokenError(
      `Expiration Time (exp) claim error in the ID token; current time (${isoTime(now)}) is after expiration time (${isoTime(expiresAt)})`,
    );
  }
  if (isNumber(claims.nbf)) {
    const usableFrom = claims.nbf - ID_TOKEN_LEEWAY_SECONDS;
    if (now < usableFrom) {
      throw new IdTokenError(
        `Not Before time (nbf) claim in the ID token indicates that this token can't be used just yet. Current time (${isoTime(now)}) is before ${isoTime(usableFrom)}`,
      );
    }
  }
  if (expected.maxAgeSeconds !== undefined && isNumber(claims.auth_time)) {
    const reauthenticateAfter = claims.auth_time + expected.maxAgeSeconds + ID_TOKEN_LEEWAY_SECONDS;
    if (now > reauthenticateAfter) {
      throw new IdTokenError(
        `Authentication Time (auth_time) claim in the ID token indicates that too much time has passed since the last end-user authentication. Current time (${isoTime(now)}) is after last auth at ${isoTime(reauthenticateAfter)}`,
      );
    }
  }

  if (expected.organization) checkOrganization(claims, expected.organization);

  return toIdTokenClaims(claims, { sub: claims.sub, exp: claims.exp, iat: claims.iat });
}

function decodeUnverified(token: string): { header: ProtectedHeaderParameters; claims: JWTPayload } {
  try {
    return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
  } catch (error) {
    throw new IdTokenError(`ID token could not be decoded: ${errorText(error)}`);
  }
}

async function verifySignature(token: string, jwks: JWTVerifyGetKey): Promise<void> {
  try {
    await compactVerify(token, jwks, { algorithms: ["RS256"] });
  } catch (error) {
    throw new IdTokenError(`Signature of the ID token could not be verified: ${errorText(error)}`);
  }
}

function checkAudience(claims: JWTPayload, clientId: string): void {
  const { aud, azp } = claims;
  if (typeof aud === "string" && aud) {
    if (aud !== clientId) {
      throw new IdTokenError(
        `Audience (aud) claim mismatch in the ID token; expected "${clientId}" but found "${aud}"`,
      );
    }
    return;
  }
  if (!Array.isArray(aud) || aud.length === 0) {
    throw new IdTokenError(
      "Audience (aud) claim must be a string or array of strings present in the ID token",
    );
  }
  if (!aud.includes(clientId)) {
    throw new IdTokenError(
      `Audience (aud) claim mismatch in the ID token; expected "${clientId}" but was not one of "${aud.join(", ")}"`,
    );
  }
  if (aud.length > 1) {
    if (typeof azp !== "string" || !azp) {
      throw new IdTokenError(
        "Authorized Party (azp) claim must be a string present in the ID token when Audience (aud) claim has multiple values",
      );
    }
    if (azp !== clientId) {
      throw new IdTokenError(
        `Authorized Party (azp) claim mismatch in the ID token; expected "${clientId}", found "${azp}"`,
      );
    }
  }
}

function checkOrganization(claims: JWTPayload, organization: string): void {
  const expectedOrganization = organization.trim();
  if (expectedOrganization.startsWith("org_")) {
    const { org_id: organizationId } = claims;
    if (typeof organizationId !== "string" || !organizationId) {
      throw new IdTokenError("Organization ID (org_id) claim must be a string present in the ID token");
    }
    if (organizationId !== expectedOrganization) {
      throw new IdTokenError(
        `Organization ID (org_id) claim mismatch in the ID token; expected "${expectedOrganization}", found "${organizationId}"`,
      );
    }
    return;
  }
  // Auth0 stores organization names lowercased, so the expectation is compared lowercased too.
  const expectedName = expectedOrganization.toLowerCase();
  const { org_name: organizationName } = claims;
  if (typeof organizationName !== "string" || !organizationName) {
    throw new IdTokenError("Organization Name (org_name) claim must be a string present in the ID token");
  }
  if (organizationName !== expectedName) {
    throw new IdTokenError(
      `Organization Name (org_name) claim mismatch in the ID token; expected "${expectedName}", found "${organizationName}"`,
    );
  }
}

function toIdTokenClaims(
  claims: JWTPayload,
  checked: Pick<IdTokenClaims, "sub" | "exp" | "iat">,
): IdTokenClaims {
  const { email, name, picture, nonce, auth_time: authTime, org_id: orgId, org_name: orgName } = claims;
  if (typeof email !== "string" || !email) {
    throw new IdTokenError(
      'Email (email) claim must be a string present in the ID token; request the "email" scope',
    );
  }
  const organizations = organizationsClaimSchema.safeParse(claims[ORGANIZATIONS_CLAIM]);
  if (!organizations.success) {
    throw new IdTokenError(
      `Organizations (${ORGANIZATIONS_CLAIM}) claim in the ID token is malformed: ${organizations.error.message}`,
    );
  }
  return {
    ...checked,
    email,
    // Auth0 falls back to the e-mail address for users without a display name; so do we.
    name: typeof name === "string" && name ? name : email,
    ...(typeof picture === "string" && picture ? { picture } : {}),
    organizations: organizations.data,
    ...(typeof orgId === "string" ? { org_id: orgId } : {}),
    ...(typeof orgName === "string" ? { org_name: orgName } : {}),
    ...(isNumber(authTime) ? { auth_time: authTime } : {}),
    ...(typeof nonce === "string" ? { nonce } : {}),
  };
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
