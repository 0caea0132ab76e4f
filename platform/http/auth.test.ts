import { UnsecuredJWT } from "jose";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import { tenantPaths } from "#contract/tenants";
import { generateTerraformPaths } from "#contract/tools";
import { memberships } from "../db/schema";
import { revokeGrant } from "../identity/adapter";
import { createAccessTokenVerifier } from "./auth";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";
import { createTestTokenIssuer } from "../testing/tokens";

let api: TestApi;
let member: TestMember;
beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember();
});
afterAll(() => api.close());

async function expectUnauthorized(response: Response, message: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  expect(apiErrorSchema.parse(await response.json())).toEqual({ message, code: apiErrorCodes.unauthorized });
}

const tenantPath = () => tenantPaths.one(member.organization.tenantId);

describe("bearer authentication", () => {
  it("accepts a valid access token of a known user", async () => {
    const response = await api.call("GET", tenantPath(), { token: member.user.token });
    expect(response.status).toBe(200);
  });

  it("rejects a request without a token", async () => {
    await expectUnauthorized(await api.call("GET", tenantPath()), apiErrorMessages.unauthorized);
  });

  it("rejects an Authorization header that is not a bearer token", async () => {
    const response = await api.call("GET", tenantPath(), {
      headers: { Authorization: "Basic dXNlcjpwYXNz" },
    });
    await expectUnauthorized(response, apiErrorMessages.unauthorized);
  });

  it("rejects a token that is not a JWT", async () => {
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token: "not-a-jwt" }),
      apiErrorMessages.invalidAccessToken,
    );
  });

  it("rejects an expired token", async () => {
    const token = await api.tokens.sign({
      sub: member.user.id,
      grantId: member.user.grantId,
      expiresIn: -120,
    });
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.expiredAccessToken,
    );
  });

  it("rejects a token for another audience", async () => {
    const token = await api.tokens.sign({
      sub: member.user.id,
      grantId: member.user.grantId,
      audience: "https://other-api.test",
    });
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.invalidAccessToken,
    );
  });

  it("rejects a token from another issuer", async () => {
    const token = await api.tokens.sign({
      sub: member.user.id,
      grantId: member.user.grantId,
      issuer: "https://evil.test/",
    });
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.invalidAccessToken,
    );
  });

  it("rejects a token signed by a key outside the JWKS", async () => {
    const impostor = await createTestTokenIssuer({
      issuer: api.config.issuer,
      audience: api.config.audience,
    });
    const token = await impostor.sign({ sub: member.user.id, grantId: member.user.grantId });
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.invalidAccessToken,
    );
  });

  it("rejects a token whose signature was tampered with", async () => {
    const [header, payload] = member.user.token.split(".");
    const token = `${header}.${payload}.${Buffer.from("forged").toString("base64url")}`;
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.invalidAccessToken,
    );
  });

  it("rejects an unsigned token", async () => {
    const token = new UnsecuredJWT({})
      .setSubject(member.user.id)
      .setIssuer(api.config.issuer)
      .setAudience(api.config.audience)
      .setExpirationTime("5m")
      .encode();
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.invalidAccessToken,
    );
  });

  it("rejects a valid token whose subject is not a user", async () => {
    const token = await api.tokens.sign({ sub: "user_deleted", grantId: member.user.grantId });
    await expectUnauthorized(await api.call("GET", tenantPath(), { token }), apiErrorMessages.unknownUser);
  });

  it("rejects writes without a token before reading the body", async () => {
    const before = await api.countRows();
    const response = await api.call("POST", tenantPaths.create(), {
      json: { tenant: { name: "sneaky", displayName: "Sneaky" } },
    });
    await expectUnauthorized(response, apiErrorMessages.unauthorized);
    expect(await api.countRows()).toEqual(before);
  });
});

describe("a token of an ended sign-in or a removed member", () => {
  it("stops working as soon as its sign-in is logged out, on tenant and other routes alike", async () => {
    const signedIn = await api.createMember();
    const tenant = tenantPaths.one(signedIn.organization.tenantId);
    expect((await api.call("GET", tenant, { token: signedIn.user.token })).status).toBe(200);
    // A route outside any tenant: an unknown job is a 404 to a signed-in caller.
    const job = generateTerraformPaths.one(randomUUID());
    expect((await api.call("GET", job, { token: signedIn.user.token })).status).toBe(404);

    // What /v2/logout does to the session's grant.
    await revokeGrant(api.db, signedIn.user.grantId);

    await expectUnauthorized(
      await api.call("GET", tenant, { token: signedIn.user.token }),
      apiErrorMessages.endedSession,
    );
    await expectUnauthorized(
      await api.call("GET", job, { token: signedIn.user.token }),
      apiErrorMessages.endedSession,
    );
  });

  it("leaves the user's other sign-ins working", async () => {
    const signedIn = await api.createMember();
    const otherGrantId = await api.createGrant(signedIn.user.id);
    const otherToken = await api.tokens.sign({ sub: signedIn.user.id, grantId: otherGrantId });
    await revokeGrant(api.db, signedIn.user.grantId);
    const response = await api.call("GET", tenantPaths.one(signedIn.organization.tenantId), {
      token: otherToken,
    });
    expect(response.status).toBe(200);
  });

  it("rejects a token without a grant", async () => {
    const token = await api.tokens.sign({ sub: member.user.id, grantId: "grant_never_issued" });
    await expectUnauthorized(await api.call("GET", tenantPath(), { token }), apiErrorMessages.endedSession);
  });

  it("refuses a member removed from the organization at their next request", async () => {
    const removed = await api.createMember();
    const tenant = tenantPaths.one(removed.organization.tenantId);
    expect((await api.call("GET", tenant, { token: removed.user.token })).status).toBe(200);

    await api.db
      .delete(memberships)
      .where(
        and(
          eq(memberships.userId, removed.user.id),
          eq(memberships.organizationId, removed.organization.organizationId),
        ),
      );

    expect((await api.call("GET", tenant, { token: removed.user.token })).status).toBe(403);
  });
});

describe("verified token cache", () => {
  it("checks a token again after it expires, even within the cache's minute", async () => {
    let now = Date.now();
    const verify = createAccessTokenVerifier({ config: api.config, jwks: api.tokens.jwks, now: () => now });
    const token = await api.tokens.sign({ sub: member.user.id, grantId: member.user.grantId, expiresIn: 30 });
    await expect(verify(token)).resolves.toEqual({ subject: member.user.id, grantId: member.user.grantId });

    now += 31_000;
    await expect(verify(token)).rejects.toMatchObject({ status: 401 });
  });
});
