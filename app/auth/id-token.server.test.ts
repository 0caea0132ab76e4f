import { SignJWT, base64url, createLocalJWKSet, exportJWK, generateKeyPair } from "jose";
import type { CryptoKey, JWTPayload, JWTVerifyGetKey } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { IdTokenError, validateIdToken } from "./id-token.server";
import type { IdTokenExpectations } from "./id-token.server";

const ISSUER = "https://id.example.test/";
const CLIENT_ID = "client-123";
const NOW = 1_700_000_000;
const KEY_ID = "test-key";

let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let jwks: JWTVerifyGetKey;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  const publicJwk = await exportJWK(pair.publicKey);
  jwks = createLocalJWKSet({ keys: [{ ...publicJwk, kid: KEY_ID, alg: "RS256", use: "sig" }] });
});

function validClaims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: ISSUER,
    sub: "auth0|user-1",
    aud: CLIENT_ID,
    iat: NOW - 10,
    exp: NOW + 3600,
    email: "ada@example.test",
    name: "Ada Lovelace",
    ...overrides,
  };
}

/** Signs the claims exactly as given: undefined values are dropped so a test can remove a claim. */
async function signedToken(claims: JWTPayload, key: CryptoKey = signingKey): Promise<string> {
  const present = Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
  return new SignJWT(present).setProtectedHeader({ alg: "RS256", kid: KEY_ID, typ: "JWT" }).sign(key);
}

function unsignedToken(claims: JWTPayload): string {
  const encode = (value: object) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: "none", typ: "JWT" })}.${encode(claims)}.`;
}

function expectations(overrides: Partial<IdTokenExpectations> = {}): IdTokenExpectations {
  return { issuer: ISSUER, clientId: CLIENT_ID, jwks, now: () => NOW, ...overrides };
}

async function rejection(token: string, overrides: Partial<IdTokenExpectations> = {}): Promise<IdTokenError> {
  const error: unknown = await validateIdToken(token, expectations(overrides)).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof IdTokenError)) throw new Error(`expected an IdTokenError, got ${String(error)}`);
  return error;
}

describe("validateIdToken", () => {
  it("accepts a valid token and returns its claims", async () => {
    const organization = { id: "org_1", name: "acme", display_name: "Acme", metadata: { tenant_id: "t-1" } };
    const token = await signedToken(validClaims({ picture: "https://pic", organizations: [organization] }));

    await expect(validateIdToken(token, expectations())).resolves.toEqual({
      sub: "auth0|user-1",
      email: "ada@example.test",
      name: "Ada Lovelace",
      picture: "https://pic",
      organizations: [organization],
      iat: NOW - 10,
      exp: NOW + 3600,
    });
  });

  it("defaults organizations to an empty list and the name to the e-mail address", async () => {
    const claims = await validateIdToken(await signedToken(validClaims({ name: undefined })), expectations());
    expect(claims.organizations).toEqual([]);
    expect(claims.name).toBe("ada@example.test");
  });

  it("rejects malformed organizations and a missing e-mail", async () => {
    const badOrganizations = await signedToken(validClaims({ organizations: [{ id: 1 }] }));
    expect((await rejection(badOrganizations)).message).toMatch(/Organizations \(organizations\) claim/);
    const noEmail = await signedToken(validClaims({ email: undefined }));
    expect((await rejection(noEmail)).message).toMatch(/Email \(email\) claim must be a string/);
  });

  it("rejects a missing token and one that is not a JWT", async () => {
    expect((await rejection("")).message).toBe("ID token is required but missing");
    expect((await rejection("not-a-jwt")).message).toMatch(/could not be decoded/);
  });

  describe("issuer (iss)", () => {
    it("rejects a missing issuer", async () => {
      const token = await signedToken(validClaims({ iss: undefined }));
      expect((await rejection(token)).message).toBe(
        "Issuer (iss) claim must be a string present in the ID token",
      );
    });

    it("rejects an issuer that differs, even only by a trailing slash", async () => {
      const token = await signedToken(validClaims({ iss: "https://id.example.test" }));
      expect((await rejection(token)).message).toBe(
        `Issuer (iss) claim mismatch in the ID token; expected "${ISSUER}", found "https://id.example.test"`,
      );
    });
  });

  describe("subject (sub)", () => {
    it("rejects a missing subject", async () => {
      const token = await signedToken(validClaims({ sub: undefined }));
      expect((await rejection(token)).message).toBe(
        "Subject (sub) claim must be a string present in the ID token",
      );
    });
  });

  describe("algorithm and signature", () => {
    it("rejects an HS256 token before looking at its signature", async () => {
      const secret = new TextEncoder().encode("a-shared-secret-that-is-long-enough-for-hs256");
      const token = await new SignJWT(validClaims()).setProtectedHeader({ alg: "HS256" }).sign(secret);
      expect((await rejection(token)).message).toBe(
        'Signature algorithm of "HS256" is not supported. Expected the ID token to be signed with "RS256".',
      );
    });

    it("rejects an unsigned token (alg none)", async () => {
      expect((await rejection(unsignedToken(validClaims()))).message).toMatch(
        /^Signature algorithm of "none" is not supported/,
      );
    });

    it("rejects an RS256 token signed by a key outside the key set", async () => {
      const token = await signedToken(validClaims(), strangerKey);
      expect((await rejection(token)).message).toMatch(/^Signature of the ID token could not be verified/);
    });

    it("rejects a token whose payload was altered after signing", async () => {
      const [header, , signature] = (await signedToken(validClaims())).split(".");
      const forgedPayload = base64url.encode(JSON.stringify(validClaims({ sub: "auth0|admin" })));
      const forged = `${header ?? ""}.${forgedPayload}.${signature ?? ""}`;
      expect((await rejection(forged)).message).toMatch(/^Signature of the ID token could not be verified/);
    });
  });

  describe("audience (aud) and authorized party (azp)", () => {
    it("rejects a missing audience", async () => {
      const token = await signedToken(validClaims({ aud: undefined }));
      expect((await rejection(token)).message).toBe(
        "Audience (aud) claim must be a string or array of strings present in the ID token",
      );
    });

    it("rejects a single audience that is another client", async () => {
      const token = await signedToken(validClaims({ aud: "other-client" }));
      expect((await rejection(token)).message).toBe(
        `Audience (aud) claim mismatch in the ID token; expected "${CLIENT_ID}" but found "other-client"`,
      );
    });

    it("rejects an audience list without the client", async () => {
      const token = await signedToken(validClaims({ aud: ["a", "b"], azp: CLIENT_ID }));
      expect((await rejection(token)).message).toBe(
        `Audience (aud) claim mismatch in the ID token; expected "${CLIENT_ID}" but was not one of "a, b"`,
      );
    });

    it("accepts a one-element audience list without azp", async () => {
      const token = await signedToken(validClaims({ aud: [CLIENT_ID] }));
      await expect(validateIdToken(token, expectations())).resolves.toMatchObject({ sub: "auth0|user-1" });
    });

    it("requires azp when there are several audiences", async () => {
      const token = await signedToken(validClaims({ aud: [CLIENT_ID, "https://api"] }));
      expect((await rejection(token)).message).toBe(
        "Authorized Party (azp) claim must be a string present in the ID token when Audience (aud) claim has multiple values",
      );
    });

    it("rejects an azp that is another client", async () => {
      const token = await signedToken(validClaims({ aud: [CLIENT_ID, "https://api"], azp: "other-client" }));
      expect((await rejection(token)).message).toBe(
        `Authorized Party (azp) claim mismatch in the ID token; expected "${CLIENT_ID}", found "other-client"`,
      );
    });

    it("accepts several audiences when azp is the client", async () => {
      const token = await signedToken(validClaims({ aud: [CLIENT_ID, "https://api"], azp: CLIENT_ID }));
      await expect(validateIdToken(token, expectations())).resolves.toMatchObject({ sub: "auth0|user-1" });
    });
  });

  describe("nonce", () => {
    it("accepts the expected nonce and returns it", async () => {
      const token = await signedToken(validClaims({ nonce: "n-1" }));
      await expect(validateIdToken(token, expectations({ nonce: "n-1" }))).resolves.toMatchObject({
        nonce: "n-1",
      });
    });

    it("rejects a missing nonce when one is expected", async () => {
      const token = await signedToken(validClaims());
      expect((await rejection(token, { nonce: "n-1" })).message).toBe(
        "Nonce (nonce) claim must be a string present in the ID token",
      );
    });

    it("rejects a different nonce", async () => {
      const token = await signedToken(validClaims({ nonce: "n-2" }));
      expect((await rejection(token, { nonce: "n-1" })).message).toBe(
        'Nonce (nonce) claim mismatch in the ID token; expected "n-1", found "n-2"',
      );
    });

    it("ignores the nonce claim when none is expected", async () => {
      const token = await signedToken(validClaims({ nonce: "anything" }));
      await expect(validateIdToken(token, expectations())).resolves.toMatchObject({ nonce: "anything" });
    });
  });

  describe("exp and iat must be numbers", () => {
    it("rejects a missing expiry", async () => {
      const token = await signedToken(validClaims({ exp: undefined }));
      expect((await rejection(token)).message).toBe(
        "Expiration Time (exp) claim must be a number present in the ID token",
      );
    });

    it("rejects an expiry given as a string", async () => {
      const token = await signedToken(validClaims({ exp: String(NOW + 3600) as unknown as number }));
      expect((await rejection(token)).message).toBe(
        "Expiration Time (exp) claim must be a number present in the ID token",
      );
    });

    it("rejects a missing or non-numeric issued-at", async () => {
      const missing = await signedToken(validClaims({ iat: undefined }));
      expect((await rejection(missing)).message).toBe(
        "Issued At (iat) claim must be a number present in the ID token",
      );
      const text = await signedToken(validClaims({ iat: "yesterday" as unknown as number }));
      expect((await rejection(text)).message).toBe(
        "Issued At (iat) claim must be a number present in the ID token",
      );
    });
  });

  describe("expiry with 60 s leeway", () => {
    it("accepts a token that expired 60 s ago", async () => {
      const token = await signedToken(validClaims({ exp: NOW - 60 }));
      await expect(validateIdToken(token, expectations())).resolves.toMatchObject({ exp: NOW - 60 });
    });

    it("rejects a token that expired 61 s ago", async () => {
      const token = await signedToken(validClaims({ exp: NOW - 61 }));
      expect((await rejection(token)).message).toMatch(
        /^Expiration Time \(exp\) claim error in the ID token; current time \(.+\) is after expiration time/,
      );
    });
  });

  describe("not-before with 60 s leeway", () => {
    it("accepts a token usable 60 s from now", async () => {
      const token = await signedToken(validClaims({ nbf: NOW + 60 }));
      await expect(validateIdToken(token, expectations())).resolves.toMatchObject({ sub: "auth0|user-1" });
    });

    it("rejects a token usable only 61 s from now", async () => {
      const token = await signedToken(validClaims({ nbf: NOW + 61 }));
      expect((await rejection(token)).message).toMatch(
        /^Not Before time \(nbf\) claim in the ID token indicates that this token can't be used just yet/,
      );
    });
  });

  describe("auth_time with max age", () => {
    it("requires auth_time when a max age is given", async () => {
      const token = await signedToken(validClaims());
      expect((await rejection(token, { maxAgeSeconds: 300 })).message).toBe(
        "Authentication Time (auth_time) claim must be a number present in the ID token when Max Age (max_age) is specified",
      );
    });

    it("accepts an authentication exactly max age plus leeway ago", async () => {
      const token = await signedToken(validClaims({ auth_time: NOW - 360 }));
      await expect(validateIdToken(token, expectations({ maxAgeSeconds: 300 }))).resolves.toMatchObject({
        auth_time: NOW - 360,
      });
    });

    it("rejects an authentication longer ago than max age plus leeway", async () => {
      const token = await signedToken(validClaims({ auth_time: NOW - 361 }));
      expect((await rejection(token, { maxAgeSeconds: 300 })).message).toMatch(
        /^Authentication Time \(auth_time\) claim in the ID token indicates that too much time has passed/,
      );
    });

    it("does not require auth_time without a max age", async () => {
      const token = await signedToken(validClaims({ auth_time: NOW - 100_000 }));
      await expect(validateIdToken(token, expectations())).resolves.toMatchObject({
        auth_time: NOW - 100_000,
      });
    });
  });

  describe("organization", () => {
    it("matches an org_ id against org_id", async () => {
      const token = await signedToken(validClaims({ org_id: "org_abc" }));
      await expect(validateIdToken(token, expectations({ organization: "org_abc" }))).resolves.toMatchObject({
        org_id: "org_abc",
      });
    });

    it("rejects a missing org_id", async () => {
      const token = await signedToken(validClaims({ org_name: "org_abc" }));
      expect((await rejection(token, { organization: "org_abc" })).message).toBe(
        "Organization ID (org_id) claim must be a string present in the ID token",
      );
    });

    it("rejects a different org_id", async () => {
      const token = await signedToken(validClaims({ org_id: "org_xyz" }));
      expect((await rejection(token, { organization: "org_abc" })).message).toBe(
        'Organization ID (org_id) claim mismatch in the ID token; expected "org_abc", found "org_xyz"',
      );
    });

    it("matches any other value against org_name, lowercased", async () => {
      const token = await signedToken(validClaims({ org_name: "acme" }));
      await expect(validateIdToken(token, expectations({ organization: "Acme" }))).resolves.toMatchObject({
        org_name: "acme",
      });
    });

    it("rejects a missing org_name", async () => {
      const token = await signedToken(validClaims({ org_id: "org_abc" }));
      expect((await rejection(token, { organization: "acme" })).message).toBe(
        "Organization Name (org_name) claim must be a string present in the ID token",
      );
    });

    it("rejects a different org_name", async () => {
      const token = await signedToken(validClaims({ org_name: "globex" }));
      expect((await rejection(token, { organization: "Acme" })).message).toBe(
        'Organization Name (org_name) claim mismatch in the ID token; expected "acme", found "globex"',
      );
    });
  });
});
