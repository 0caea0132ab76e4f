import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

export type AccessTokenClaims = {
  sub: string;
  /** The sign-in the token belongs to; the API refuses it once no such grant exists. */
  grantId: string;
  issuer?: string;
  audience?: string;
  /** Seconds from now until expiry; negative for a token that has already expired. */
  expiresIn?: number;
};

export type TestTokenIssuer = {
  /** The public half, shaped like the identity provider's JWKS. */
  jwks: { keys: JWK[] };
  issuer: string;
  audience: string;
  sign: (claims: AccessTokenClaims) => Promise<string>;
};

/** An RS256 signing key standing in for the identity provider, for tests of the API's bearer checks. */
export async function createTestTokenIssuer({
  issuer,
  audience,
}: {
  issuer: string;
  audience: string;
}): Promise<TestTokenIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };

  return {
    jwks: { keys: [publicJwk] },
    issuer,
    audience,
    sign: ({
      sub,
      grantId,
      issuer: tokenIssuer = issuer,
      audience: tokenAudience = audience,
      expiresIn = 300,
    }) => {
      const now = Math.floor(Date.now() / 1000);
      const issuedAt = Math.min(now, now + expiresIn - 60);
      return new SignJWT({ scope: "openid profile email", grant_id: grantId })
        .setProtectedHeader({ alg: "RS256", kid, typ: "at+jwt" })
        .setSubject(sub)
        .setIssuer(tokenIssuer)
        .setAudience(tokenAudience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(now + expiresIn)
        .setJti(randomUUID())
        .sign(privateKey);
    },
  };
}
