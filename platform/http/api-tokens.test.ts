import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  API_TOKEN_RATE_LIMITED_CODE,
  API_TOKEN_REQUESTS_PER_MINUTE,
  apiTokenErrorMessages,
  apiTokenPaths,
  type ApiToken,
  type CreatedApiToken,
  type ServiceAccount,
} from "#contract/api-tokens";
import { apiErrorCodes } from "#contract/errors";
import { apiTokens, auditEvents } from "../db/schema";
import { isWellFormedToken } from "../tokens/token-values";
import { createApiApp } from "./app";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The engine's and the API's clock, which the tests move instead of waiting. */
let clockAt = Date.parse("2026-11-27T12:00:00Z");
const clock = () => new Date(clockAt);

let api: TestApi;
beforeAll(async () => {
  // One trusted proxy: a token's last use is noted from the address it forwards.
  api = await openTestApi({ trustProxyHops: 1 }, { now: clock });
});
afterAll(async () => {
  await api?.close();
});

async function createToken(
  member: TestMember,
  body: Record<string, unknown> = { name: `ci-${randomUUID().slice(0, 6)}` },
): Promise<CreatedApiToken> {
  const response = await api.call("POST", apiTokenPaths.personal(member.organization.tenantId), {
    token: member.user.token,
    json: body,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedApiToken;
}

const environmentsPath = (member: TestMember) =>
  `/v2/organizations/${member.organization.tenantId}/environments`;

async function expect401(response: Response, message: string) {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ message, code: apiErrorCodes.unauthorized });
}

describe("personal API tokens", () => {
  it("are shown once at creation, work as their owner, and are stored and listed only as a hash and a hint", async () => {
    const member = await api.createMember({ role: "admin" });
    const logged: string[] = [];
    const capture = (...args: unknown[]) => {
      logged.push(
        args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(" "),
      );
    };
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(capture),
    );
    try {
      const { token, value } = await createToken(member, { name: "deploy from CI" });
      expect(value).toMatch(/^ccp_[A-Za-z0-9]{36}$/);
      expect(isWellFormedToken(value)).toBe(true);
      expect(token).toMatchObject({
        name: "deploy from CI",
        hint: `ccp_…${value.slice(-4)}`,
        permissions: null,
      });

      const used = await api.call("GET", environmentsPath(member), { token: value });
      expect(used.status).toBe(200);
      // A write with the token, a refused one and a failing one: whatever is logged, the token is not in it.
      expect(
        (
          await api.call("POST", environmentsPath(member), {
            token: value,
            json: { name: "ci-made", cloudProvider: "AWS", region: "us-east-1" },
          })
        ).status,
      ).toBe(201);
      await api.call("POST", environmentsPath(member), { token: value, rawBody: "{not json" });

      const listed = await api.call("GET", apiTokenPaths.personal(member.organization.tenantId), {
        token: member.user.token,
      });
      const { tokens } = (await listed.json()) as { tokens: ApiToken[] };
      expect(tokens.map((listedToken) => listedToken.id)).toEqual([token.id]);
      expect(JSON.stringify(tokens)).not.toContain(value);

      const rows = await api.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(value.slice(4));
      expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      const audit = await api.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.organizationId, member.organization.organizationId));
      expect(audit.length).toBeGreaterThan(0);
      expect(JSON.stringify(audit)).not.toContain(value.slice(4));
      expect(logged.join("\n")).not.toContain(value.slice(4));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("expire after 90 days by default, at most a year, and answer 401 once expired", async () => {
    const member = await api.createMember({ role: "developer" });
    const { token, value } = await createToken(member);
    expect(Date.parse(token.expiresAt) - Date.parse(token.createdAt)).toBe(90 * DAY_MS);

    const tooLong = await api.call("POST", apiTokenPaths.personal(member.organization.tenantId), {
      token: member.user.token,
      json: { name: "forever", expiresInDays: 366 },
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({
      fieldErrors: { expiresInDays: ["A token lasts at most 365 days"] },
    });
    const aYear = await createToken(member, { name: "a year", expiresInDays: 365 });
    expect(Date.parse(aYear.token.expiresAt) - Date.parse(aYear.token.createdAt)).toBe(365 * DAY_MS);

    expect((await api.call("GET", environmentsPath(member), { token: value })).status).toBe(200);
    clockAt += 90 * DAY_MS;
    try {
      await expect401(
        await api.call("GET", environmentsPath(member), { token: value }),
        apiTokenErrorMessages.expired,
      );
      expect((await api.call("GET", environmentsPath(member), { token: aYear.value })).status).toBe(200);
    } finally {
      clockAt -= 90 * DAY_MS;
    }
  });

  it("are refused at the next request once revoked", async () => {
    const member = await api.createMember({ role: "developer" });
    const { token, value } = await createToken(member);
    expect((await api.call("GET", environmentsPath(member), { token: value })).status).toBe(200);

    const revoked = await api.call(
      "DELETE",
      apiTokenPaths.personalToken(member.organization.tenantId, token.id),
      {
        token: member.user.token,
      },
    );
    expect(revoked.status).toBe(204);
    await expect401(
      await api.call("GET", environmentsPath(member), { token: value }),
      apiTokenErrorMessages.revoked,
    );
    const listed = await api.call("GET", apiTokenPaths.personal(member.organization.tenantId), {
      token: member.user.token,
    });
    expect(((await listed.json()) as { tokens: ApiToken[] }).tokens).toEqual([]);
  });

  it("note when and from which address they were last used", async () => {
    const member = await api.createMember({ role: "developer" });
    const { token, value } = await createToken(member);
    expect(token.lastUsedAt).toBeNull();
    await api.call("GET", environmentsPath(member), {
      token: value,
      headers: { "X-Forwarded-For": "203.0.113.7" },
    });
    const listed = await api.call("GET", apiTokenPaths.personal(member.organization.tenantId), {
      token: member.user.token,
    });
    const [used] = ((await listed.json()) as { tokens: ApiToken[] }).tokens;
    expect(used).toMatchObject({ lastUsedAt: clock().toISOString(), lastUsedAddress: "203.0.113.7" });
  });

  it("refuse malformed, unknown and foreign-organization tokens, and routes outside their organization, with 401", async () => {
    const member = await api.createMember({ role: "admin" });
    const other = await api.createMember({ role: "admin" });
    const { value } = await createToken(member);
    // A typo breaks the checksum; a well-formed value no one was given matches no hash.
    const typo = `${value.slice(0, -1)}${value.endsWith("a") ? "b" : "a"}`;
    await expect401(
      await api.call("GET", environmentsPath(member), { token: typo }),
      apiTokenErrorMessages.unknown,
    );
    await expect401(
      await api.call("GET", environmentsPath(member), { token: "ccp_notatoken" }),
      apiTokenErrorMessages.unknown,
    );
    await expect401(
      await api.call("GET", environmentsPath(other), { token: value }),
      apiTokenErrorMessages.foreignOrganization,
    );
    await expect401(
      await api.call("GET", "/tenant", { token: value }),
      apiTokenErrorMessages.outsideOrganization,
    );

    const current = await api.call("GET", apiTokenPaths.current, { token: value });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({
      tenantId: member.organization.tenantId,
      organizationName: member.organization.name,
      serviceAccount: null,
    });
  });

  it("hold only the permissions they were narrowed to, and only ones their owner holds", async () => {
    const member = await api.createMember({ role: "developer" });
    const readOnly = await createToken(member, { name: "reader", permissions: ["organization.view"] });
    expect(readOnly.token.permissions).toEqual(["organization.view"]);
    expect((await api.call("GET", environmentsPath(member), { token: readOnly.value })).status).toBe(200);
    const write = await api.call("POST", environmentsPath(member), {
      token: readOnly.value,
      json: { name: "not-allowed", cloudProvider: "AWS", region: "us-east-1" },
    });
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({ code: apiErrorCodes.permissionDenied });

    const beyond = await api.call("POST", apiTokenPaths.personal(member.organization.tenantId), {
      token: member.user.token,
      json: { name: "admin", permissions: ["users.manage"] },
    });
    expect(beyond.status).toBe(400);
    expect(await beyond.json()).toMatchObject({
      fieldErrors: { permissions: ["You do not hold users.manage, so a token of yours cannot"] },
    });
  });

  it("cannot mint or revoke tokens: that takes a signed-in person", async () => {
    const member = await api.createMember({ role: "admin" });
    const { token, value } = await createToken(member);
    const minted = await api.call("POST", apiTokenPaths.personal(member.organization.tenantId), {
      token: value,
      json: { name: "child" },
    });
    expect(minted.status).toBe(403);
    expect(await minted.json()).toEqual({
      message: apiTokenErrorMessages.personOnly,
      code: apiErrorCodes.forbidden,
    });
    const revoked = await api.call(
      "DELETE",
      apiTokenPaths.personalToken(member.organization.tenantId, token.id),
      {
        token: value,
      },
    );
    expect(revoked.status).toBe(403);
  });

  it("stop working when their owner leaves the organization", async () => {
    const member = await api.createMember({ role: "admin" });
    const colleague = await api.createUser();
    await api.addMember(colleague.id, member.organization.organizationId, "developer");
    const { value } = await createToken({ user: colleague, organization: member.organization });
    const removed = await api.call(
      "DELETE",
      `/v2/organizations/${member.organization.tenantId}/users/v2?userId=${colleague.id}`,
      { token: member.user.token },
    );
    expect(removed.status).toBe(204);
    await expect401(
      await api.call("GET", environmentsPath(member), { token: value }),
      apiTokenErrorMessages.ownerGone,
    );
  });

  it("regenerate: a new secret with the same name, permissions and a new expiry; the old one is refused at its next request", async () => {
    const member = await api.createMember({ role: "developer" });
    const tenantId = member.organization.tenantId;
    const old = await createToken(member, {
      name: "nightly",
      permissions: ["organization.view"],
      expiresInDays: 7,
    });
    expect((await api.call("GET", environmentsPath(member), { token: old.value })).status).toBe(200);

    const regenerated = await api.call(
      "POST",
      apiTokenPaths.personalTokenRegenerate(tenantId, old.token.id),
      {
        token: member.user.token,
        json: {},
      },
    );
    expect(regenerated.status).toBe(201);
    const { token, value } = (await regenerated.json()) as CreatedApiToken;
    expect(value).not.toBe(old.value);
    expect(isWellFormedToken(value)).toBe(true);
    expect(token).toMatchObject({
      name: "nightly",
      permissions: ["organization.view"],
      hint: `ccp_…${value.slice(-4)}`,
      createdAt: clock().toISOString(),
      expiresAt: new Date(clockAt + 90 * DAY_MS).toISOString(),
      lastUsedAt: null,
    });

    await expect401(
      await api.call("GET", environmentsPath(member), { token: old.value }),
      apiTokenErrorMessages.revoked,
    );
    expect((await api.call("GET", environmentsPath(member), { token: value })).status).toBe(200);
    const listed = await api.call("GET", apiTokenPaths.personal(tenantId), { token: member.user.token });
    expect(
      ((await listed.json()) as { tokens: ApiToken[] }).tokens.map(({ id, name }) => ({ id, name })),
    ).toEqual([{ id: token.id, name: "nightly" }]);

    const tooLong = await api.call("POST", apiTokenPaths.personalTokenRegenerate(tenantId, token.id), {
      token: member.user.token,
      json: { expiresInDays: 366 },
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({
      fieldErrors: { expiresInDays: ["A token lasts at most 365 days"] },
    });
    // Regenerating the old, revoked one again makes nothing.
    const again = await api.call("POST", apiTokenPaths.personalTokenRegenerate(tenantId, old.token.id), {
      token: member.user.token,
      json: {},
    });
    expect(again.status).toBe(404);

    const rows = await api.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, member.organization.organizationId));
    expect(
      rows
        .filter((row) => row.action === "api-tokens.regenerate")
        .map((row) => row.status)
        .sort(),
    ).toEqual([201, 400, 404]);
  });

  it("regenerate only their owner's own tokens, in their own organization, by a signed-in person", async () => {
    const member = await api.createMember({ role: "admin" });
    const tenantId = member.organization.tenantId;
    const colleague = await api.createUser();
    await api.addMember(colleague.id, member.organization.organizationId, "developer");
    const theirs = await createToken({ user: colleague, organization: member.organization });
    const mine = await createToken(member);
    // An admin does not regenerate a colleague's personal token: it is theirs alone.
    const byAdmin = await api.call("POST", apiTokenPaths.personalTokenRegenerate(tenantId, theirs.token.id), {
      token: member.user.token,
      json: {},
    });
    expect(byAdmin.status).toBe(404);
    const other = await api.createMember({ role: "admin" });
    const foreign = await api.call(
      "POST",
      apiTokenPaths.personalTokenRegenerate(other.organization.tenantId, mine.token.id),
      { token: other.user.token, json: {} },
    );
    expect(foreign.status).toBe(404);
    const byToken = await api.call("POST", apiTokenPaths.personalTokenRegenerate(tenantId, mine.token.id), {
      token: mine.value,
      json: {},
    });
    expect(byToken.status).toBe(403);
    expect(await byToken.json()).toEqual({
      message: apiTokenErrorMessages.personOnly,
      code: apiErrorCodes.forbidden,
    });
    for (const { value } of [theirs, mine])
      expect((await api.call("GET", environmentsPath(member), { token: value })).status).toBe(200);
  });

  it(`are limited to ${API_TOKEN_REQUESTS_PER_MINUTE} requests a minute, then 429 with Retry-After`, async () => {
    const member = await api.createMember({ role: "read-only" });
    const { value } = await createToken(member);
    const other = await createToken(member);
    clockAt += 1000;
    try {
      for (let index = 0; index < API_TOKEN_REQUESTS_PER_MINUTE; index += 1) {
        const response = await api.call("GET", apiTokenPaths.current, { token: value });
        expect(response.status).toBe(200);
      }
      clockAt += 15_000;
      const limited = await api.call("GET", environmentsPath(member), { token: value });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("Retry-After")).toBe("45");
      expect(await limited.json()).toEqual({
        message: apiTokenErrorMessages.rateLimited(45),
        code: API_TOKEN_RATE_LIMITED_CODE,
      });
      // Per token: the member's other token and their own sign-in are not held back.
      expect((await api.call("GET", environmentsPath(member), { token: other.value })).status).toBe(200);
      expect((await api.call("GET", environmentsPath(member), { token: member.user.token })).status).toBe(
        200,
      );
      clockAt += 45_000;
      expect((await api.call("GET", environmentsPath(member), { token: value })).status).toBe(200);
    } finally {
      clockAt -= 61_000;
    }
  });
  it("share one limit across platform processes on the same database", async () => {
    // A second platform process: its own app (and memory) on the same database and clock.
    const second = createApiApp({
      db: api.db,
      config: api.config,
      jwks: api.tokens.jwks,
      secrets: api.secrets,
      engine: api.engine,
    });
    const callSecond = (path: string, token: string) =>
      second.request(`/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
    const member = await api.createMember({ role: "read-only" });
    const { value } = await createToken(member);
    clockAt += 1000;
    try {
      const half = API_TOKEN_REQUESTS_PER_MINUTE / 2;
      for (let index = 0; index < half; index += 1) {
        expect((await api.call("GET", apiTokenPaths.current, { token: value })).status).toBe(200);
        expect((await callSecond(apiTokenPaths.current, value)).status).toBe(200);
      }
      clockAt += 20_000;
      const onFirst = await api.call("GET", environmentsPath(member), { token: value });
      expect(onFirst.status).toBe(429);
      expect(onFirst.headers.get("Retry-After")).toBe("40");
      const onSecond = await callSecond(environmentsPath(member), value);
      expect(onSecond.status).toBe(429);
      expect(await onSecond.json()).toEqual({
        message: apiTokenErrorMessages.rateLimited(40),
        code: API_TOKEN_RATE_LIMITED_CODE,
      });
      clockAt += 40_000;
      expect((await callSecond(environmentsPath(member), value)).status).toBe(200);
    } finally {
      clockAt -= 61_000;
    }
  });
});

describe("service accounts", () => {
  async function scene() {
    const admin = await api.createMember({ role: "admin" });
    const staging = await api.createEnvironment(admin.organization.tenantId, "staging");
    const production = await api.createEnvironment(admin.organization.tenantId, "production");
    const created = await api.call("POST", apiTokenPaths.serviceAccounts(admin.organization.tenantId), {
      token: admin.user.token,
      json: { name: "staging deployer", roles: [{ role: "developer", environmentIds: [staging.id] }] },
    });
    expect(created.status).toBe(201);
    const account = (await created.json()) as ServiceAccount;
    const tokenResponse = await api.call(
      "POST",
      apiTokenPaths.serviceAccountTokens(admin.organization.tenantId, account.id),
      { token: admin.user.token, json: { name: "github actions" } },
    );
    expect(tokenResponse.status).toBe(201);
    const { token, value } = (await tokenResponse.json()) as CreatedApiToken;
    return { admin, staging, production, account, token, value };
  }
  const variablesOf = (tenantId: string, environmentId: string) =>
    `/v2/organizations/${tenantId}/environments/${environmentId}/environment-variables`;

  it("act with their roles where granted: a staging-only account writes to staging and is refused on production", async () => {
    const { admin, staging, production, value } = await scene();
    const tenantId = admin.organization.tenantId;
    const onStaging = await api.call("POST", variablesOf(tenantId, staging.id), {
      token: value,
      json: { envVariables: [{ name: "RELEASE", value: "42" }] },
    });
    expect(onStaging.status).toBe(201);
    const onProduction = await api.call("POST", variablesOf(tenantId, production.id), {
      token: value,
      json: { envVariables: [{ name: "RELEASE", value: "42" }] },
    });
    expect(onProduction.status).toBe(403);
    expect(await onProduction.json()).toMatchObject({ code: apiErrorCodes.permissionDenied });
  });

  it("are recorded in the audit log as the service account and its token", async () => {
    const { admin, staging, production, account, token, value } = await scene();
    const tenantId = admin.organization.tenantId;
    await api.call("POST", variablesOf(tenantId, staging.id), {
      token: value,
      json: { envVariables: [{ name: "RELEASE", value: "42" }] },
    });
    await api.call("POST", variablesOf(tenantId, production.id), {
      token: value,
      json: { envVariables: [{ name: "RELEASE", value: "42" }] },
    });
    const listed = await api.call(
      "GET",
      `/v2/organizations/${tenantId}/audit-events?action=environment-variables.create`,
      {
        token: admin.user.token,
      },
    );
    expect(listed.status).toBe(200);
    const { events } = (await listed.json()) as { events: Record<string, unknown>[] };
    expect(
      events.map(({ userId, userEmail, tokenName, serviceAccount, environmentId, status }) => ({
        userId,
        userEmail,
        tokenName,
        serviceAccount,
        environmentId,
        status,
      })),
    ).toEqual([
      {
        userId: account.id,
        userEmail: null,
        tokenName: token.name,
        serviceAccount: "staging deployer",
        environmentId: production.id,
        status: 403,
      },
      {
        userId: account.id,
        userEmail: null,
        tokenName: token.name,
        serviceAccount: "staging deployer",
        environmentId: staging.id,
        status: 201,
      },
    ]);
  });

  it("are listed apart from the members, with their roles and tokens, and need users.manage", async () => {
    const { admin, account, token } = await scene();
    const tenantId = admin.organization.tenantId;
    const members = await api.call("GET", `/v2/organizations/${tenantId}/users/v2`, {
      token: admin.user.token,
    });
    const { users } = (await members.json()) as { users: { id: string }[] };
    expect(users.map((user) => user.id)).toEqual([admin.user.id]);

    const listed = await api.call("GET", apiTokenPaths.serviceAccounts(tenantId), {
      token: admin.user.token,
    });
    const { serviceAccounts } = (await listed.json()) as { serviceAccounts: ServiceAccount[] };
    expect(serviceAccounts).toEqual([
      expect.objectContaining({
        id: account.id,
        name: "staging deployer",
        roles: [{ role: "developer", customRole: null, environmentIds: account.roles[0]?.environmentIds }],
        tokens: [expect.objectContaining({ id: token.id, name: "github actions" })],
      }),
    ]);

    const developer = await api.createUser();
    await api.addMember(developer.id, admin.organization.organizationId, "developer");
    const refused = await api.call("GET", apiTokenPaths.serviceAccounts(tenantId), {
      token: developer.token,
    });
    expect(refused.status).toBe(403);
  });

  it("lose every token at once when deleted, and a revoked token at the next request", async () => {
    const { admin, account, token, value } = await scene();
    const tenantId = admin.organization.tenantId;
    const second = await api.call("POST", apiTokenPaths.serviceAccountTokens(tenantId, account.id), {
      token: admin.user.token,
      json: { name: "second" },
    });
    const { value: secondValue } = (await second.json()) as CreatedApiToken;
    const current = await api.call("GET", apiTokenPaths.current, { token: value });
    expect(await current.json()).toMatchObject({ serviceAccount: "staging deployer", tenantId });

    const revoked = await api.call(
      "DELETE",
      apiTokenPaths.serviceAccountToken(tenantId, account.id, token.id),
      {
        token: admin.user.token,
      },
    );
    expect(revoked.status).toBe(204);
    await expect401(
      await api.call("GET", `/v2/organizations/${tenantId}/environments`, { token: value }),
      apiTokenErrorMessages.revoked,
    );
    expect(
      (await api.call("GET", `/v2/organizations/${tenantId}/environments`, { token: secondValue })).status,
    ).toBe(200);
    const deleted = await api.call("DELETE", apiTokenPaths.serviceAccount(tenantId, account.id), {
      token: admin.user.token,
    });
    expect(deleted.status).toBe(204);
    await expect401(
      await api.call("GET", `/v2/organizations/${tenantId}/environments`, { token: secondValue }),
      apiTokenErrorMessages.unknown,
    );
  });

  it("regenerate a token with users.manage: the account's roles hold for the new secret, the old one is refused", async () => {
    const { admin, staging, account, token, value } = await scene();
    const tenantId = admin.organization.tenantId;
    const path = apiTokenPaths.serviceAccountTokenRegenerate(tenantId, account.id, token.id);

    const developer = await api.createUser();
    await api.addMember(developer.id, admin.organization.organizationId, "developer");
    expect((await api.call("POST", path, { token: developer.token, json: {} })).status).toBe(403);
    const other = await api.createMember({ role: "admin" });
    const foreign = await api.call(
      "POST",
      apiTokenPaths.serviceAccountTokenRegenerate(other.organization.tenantId, account.id, token.id),
      { token: other.user.token, json: {} },
    );
    expect(foreign.status).toBe(404);
    // A service account's token is not a personal one of the admin's.
    expect(
      (
        await api.call("POST", apiTokenPaths.personalTokenRegenerate(tenantId, token.id), {
          token: admin.user.token,
          json: {},
        })
      ).status,
    ).toBe(404);

    const regenerated = await api.call("POST", path, {
      token: admin.user.token,
      json: { expiresInDays: 30 },
    });
    expect(regenerated.status).toBe(201);
    const created = (await regenerated.json()) as CreatedApiToken;
    expect(created.token).toMatchObject({
      name: "github actions",
      expiresAt: new Date(clockAt + 30 * DAY_MS).toISOString(),
    });
    await expect401(
      await api.call("GET", `/v2/organizations/${tenantId}/environments`, { token: value }),
      apiTokenErrorMessages.revoked,
    );
    const onStaging = await api.call("POST", variablesOf(tenantId, staging.id), {
      token: created.value,
      json: { envVariables: [{ name: "RELEASE", value: "43" }] },
    });
    expect(onStaging.status).toBe(201);
    const listed = await api.call("GET", apiTokenPaths.serviceAccounts(tenantId), {
      token: admin.user.token,
    });
    const { serviceAccounts } = (await listed.json()) as { serviceAccounts: ServiceAccount[] };
    expect(serviceAccounts[0]?.tokens.map(({ id }) => id)).toEqual([created.token.id]);

    const audit = await api.call(
      "GET",
      `/v2/organizations/${tenantId}/audit-events?action=service-account-tokens.regenerate`,
      { token: admin.user.token },
    );
    const { events } = (await audit.json()) as { events: Record<string, unknown>[] };
    expect(events.map(({ userId, status }) => ({ userId, status }))).toEqual([
      { userId: admin.user.id, status: 201 },
      { userId: developer.id, status: 403 },
    ]);
  });

  it("cannot be given roles on another organization's environments", async () => {
    const admin = await api.createMember({ role: "admin" });
    const other = await api.createMember({ role: "admin" });
    const foreign = await api.createEnvironment(other.organization.tenantId, "staging");
    const created = await api.call("POST", apiTokenPaths.serviceAccounts(admin.organization.tenantId), {
      token: admin.user.token,
      json: { name: "sneaky", roles: [{ role: "developer", environmentIds: [foreign.id] }] },
    });
    expect(created.status).toBe(400);
    expect(await created.json()).toMatchObject({
      fieldErrors: { "roles.0.environmentIds": ["No environment of this organization has this id"] },
    });
  });

  it("do not count as the organization's last admin: a person must be left", async () => {
    const admin = await api.createMember({ role: "admin" });
    const tenantId = admin.organization.tenantId;
    const created = await api.call("POST", apiTokenPaths.serviceAccounts(tenantId), {
      token: admin.user.token,
      json: { name: "robot admin", roles: [{ role: "admin" }] },
    });
    expect(created.status).toBe(201);
    const leaving = await api.call(
      "DELETE",
      `/v2/organizations/${tenantId}/users/v2?userId=${admin.user.id}`,
      {
        token: admin.user.token,
      },
    );
    expect(leaving.status).toBe(409);
  });
});
