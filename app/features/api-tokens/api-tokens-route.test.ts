import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import type { ApiToken } from "#contract/api-tokens";
import type { OrganizationClaim } from "#contract/identity";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";

// The /settings/api-tokens page's loader and action as Remix calls them, against a platform that checks what it
// receives.
process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = FAKE_PLATFORM_URL;
process.env.APP_URL = "https://console.example";

const { loader, action } = await import("~/routes/_app.settings.api-tokens");
const { commitSession, getSession } = await import("~/auth/session.server");

const { server } = fakePlatform();

const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "tenant-1" },
};
const tokensPath = `${FAKE_PLATFORM_URL}/api/v2/organizations/tenant-1/api-tokens`;
const ciToken: ApiToken = {
  id: "7d1b4c9e-0000-4000-8000-000000000001",
  name: "ci",
  hint: "ccp_…abcd",
  permissions: null,
  createdAt: "2026-11-01T00:00:00.000Z",
  expiresAt: "2027-01-30T00:00:00.000Z",
  lastUsedAt: "2026-11-26T10:00:00.000Z",
  lastUsedAddress: "203.0.113.7",
};

async function requestAs(method: "GET" | "POST", fields?: Record<string, string | string[]>) {
  const session = await getSession(new Request("https://console.example/"));
  session.set("user", { sub: "user_ada", name: "Ada", email: "ada@example.com" });
  session.set("organizations", [acme]);
  session.set("organizationId", acme.id);
  session.set("tokens", {
    accessToken: "access",
    refreshToken: "refresh",
    expiresAt: Date.now() + 3_600_000,
  });
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields ?? {})) {
    for (const one of [value].flat()) body.append(name, one);
  }
  return new Request("https://console.example/settings/api-tokens", {
    method,
    headers: { Cookie: cookie },
    body: method === "POST" ? body : undefined,
  });
}

type ActionAnswer = {
  data: {
    result: { status?: string; error?: Record<string, string[]> };
    created?: { name: string; value: string };
  };
  init: ResponseInit | null;
};

describe("the API tokens page", () => {
  it("lists the member's tokens and offers only the permissions they hold to narrow a new one", async () => {
    server.use(
      http.get(tokensPath, () => HttpResponse.json({ tokens: [ciToken] })),
      http.get(`${FAKE_PLATFORM_URL}/api/v2/organizations/tenant-1/users/v2/permissions`, () =>
        HttpResponse.json({
          organization: ["organization.view"],
          environments: { "env-staging": ["organization.view", "services.deploy"] },
        }),
      ),
    );
    const response = await loader({ request: await requestAs("GET"), params: {}, context: {} });
    expect(response.data.tokens).toEqual([ciToken]);
    expect(response.data.held).toEqual(["organization.view", "services.deploy"]);
  });

  it("creates a token with the chosen expiry and permissions and shows its value once, in the answer", async () => {
    const received: unknown[] = [];
    server.use(
      http.post(tokensPath, async ({ request }) => {
        received.push(await request.json());
        return HttpResponse.json(
          { token: { ...ciToken, name: "deploys", permissions: ["services.deploy"] }, value: "ccp_value" },
          { status: 201 },
        );
      }),
    );
    const answer = (await action({
      request: await requestAs("POST", {
        intent: "create",
        name: "deploys",
        expiresInDays: "30",
        permissions: ["services.deploy"],
      }),
      params: {},
      context: {},
    })) as unknown as ActionAnswer;
    expect(received).toEqual([{ name: "deploys", expiresInDays: 30, permissions: ["services.deploy"] }]);
    expect(answer.data.created).toEqual({ name: "deploys", value: "ccp_value" });
  });

  it("keeps what was typed and shows the platform's field error when it refuses", async () => {
    server.use(
      http.post(tokensPath, () =>
        HttpResponse.json(
          {
            message: "You do not hold users.manage, so a token of yours cannot",
            code: "VALIDATION_FAILED",
            fieldErrors: { permissions: ["You do not hold users.manage, so a token of yours cannot"] },
          },
          { status: 400 },
        ),
      ),
    );
    const answer = (await action({
      request: await requestAs("POST", { intent: "create", name: "admin", permissions: ["users.manage"] }),
      params: {},
      context: {},
    })) as unknown as ActionAnswer;
    expect(answer.init?.status).toBe(400);
    expect(answer.data.result.error?.permissions).toEqual([
      "You do not hold users.manage, so a token of yours cannot",
    ]);
    expect(answer.data.created).toBeUndefined();
  });

  it("revokes a token by id", async () => {
    const revoked: string[] = [];
    server.use(
      http.delete(`${tokensPath}/:tokenId`, ({ params }) => {
        revoked.push(String(params.tokenId));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const answer = (await action({
      request: await requestAs("POST", { intent: "revoke", tokenId: ciToken.id, tokenName: "ci" }),
      params: {},
      context: {},
    })) as unknown as ActionAnswer;
    expect(revoked).toEqual([ciToken.id]);
    expect(answer.data.result.status).toBe("success");
  });

  it("regenerates a token with a new expiry and shows the new value once", async () => {
    const received: { tokenId: string; body: unknown }[] = [];
    server.use(
      http.post(`${tokensPath}/:tokenId/regenerate`, async ({ params, request }) => {
        received.push({ tokenId: String(params.tokenId), body: await request.json() });
        return HttpResponse.json({ token: ciToken, value: "ccp_new" }, { status: 201 });
      }),
    );
    const answer = (await action({
      request: await requestAs("POST", {
        intent: "regenerate",
        tokenId: ciToken.id,
        tokenName: "ci",
        expiresInDays: "180",
      }),
      params: {},
      context: {},
    })) as unknown as ActionAnswer;
    expect(received).toEqual([{ tokenId: ciToken.id, body: { expiresInDays: 180 } }]);
    expect(answer.data.created).toEqual({ name: "ci", value: "ccp_new", regenerated: true });
  });

  it("says so when the token to regenerate is gone", async () => {
    server.use(
      http.post(`${tokensPath}/:tokenId/regenerate`, () =>
        HttpResponse.json({ message: "API token not found", code: "NOT_FOUND" }, { status: 404 }),
      ),
    );
    const answer = (await action({
      request: await requestAs("POST", { intent: "regenerate", tokenId: ciToken.id, tokenName: "ci" }),
      params: {},
      context: {},
    })) as unknown as ActionAnswer;
    expect(answer.init?.status).toBe(404);
    expect(answer.data.result.error?.[""]).toEqual(["API token not found"]);
    expect(answer.data.created).toBeUndefined();
  });
});
