import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import { tenantPaths } from "#contract/tenants";
import { openTestApi, type TestApi, type TestMember } from "./test-harness";
import { createTestTokenIssuer } from "./test-tokens";

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
    const token = await api.tokens.sign({ sub: member.user.id, expiresIn: -120 });
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.expiredAccessToken,
    );
  });

  it("rejects a token for another audience", async () => {
    const token = await api.tokens.sign({ sub: member.user.id, audience: "https://other-api.test" });
    await expectUnauthorized(
      await api.call("GET", tenantPath(), { token }),
      apiErrorMessages.invalidAccessToken,
    );
  });

  it("rejects a token from another issuer", async () => {
    const token = await api.tokens.sign({ sub: member.user.id, issuer: "https://evil.test/" });
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
    const token = await impostor.sign({ sub: member.user.id });
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
    const token = await api.tokens.sign({ sub: "user_deleted" });
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
