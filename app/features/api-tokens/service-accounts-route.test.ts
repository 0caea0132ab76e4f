import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import type { OrganizationClaim } from "#contract/identity";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";

// The /settings/users/service-accounts page's loader and action as Remix calls them.
process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = FAKE_PLATFORM_URL;
process.env.APP_URL = "https://console.example";

const { loader, action } = await import("~/routes/_app.settings.users.service-accounts");
const { commitSession, getSession } = await import("~/auth/session.server");

const { server } = fakePlatform();

const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "tenant-1" },
};
const organization = `${FAKE_PLATFORM_URL}/api/v2/organizations/tenant-1`;

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
  return new Request("https://console.example/settings/users/service-accounts", {
    method,
    headers: { Cookie: cookie },
    body: method === "POST" ? body : undefined,
  });
}

const permissionsAnswer = (organizationPermissions: string[]) =>
  http.get(`${organization}/users/v2/permissions`, () =>
    HttpResponse.json({ organization: organizationPermissions, environments: {} }),
  );

describe("the service accounts page", () => {
  it("asks nothing more of the platform for a member without users.manage, and disables its controls", async () => {
    // The fake platform refuses any call it was not given: only the permissions are asked for.
    server.use(permissionsAnswer(["organization.view"]));
    const response = await loader({ request: await requestAs("GET"), params: {}, context: {} });
    expect(response.data).toMatchObject({ canManage: false, serviceAccounts: [], environments: [] });
  });

  it("creates a service account with a role on the chosen environments only", async () => {
    const received: unknown[] = [];
    server.use(
      http.post(`${organization}/service-accounts`, async ({ request }) => {
        received.push(await request.json());
        return HttpResponse.json(
          { id: "sa_1", name: "deployer", roles: [], createdAt: "2026-11-27T00:00:00.000Z", tokens: [] },
          { status: 201 },
        );
      }),
    );
    const answer = (await action({
      request: await requestAs("POST", {
        intent: "create-account",
        name: "deployer",
        role: "developer",
        environmentIds: ["env-staging"],
      }),
      params: {},
      context: {},
    })) as unknown as { data: { result: { error?: unknown } }; init: ResponseInit | null };
    expect(received).toEqual([
      { name: "deployer", roles: [{ role: "developer", environmentIds: ["env-staging"] }] },
    ]);
    expect(answer.data.result.error).toBeUndefined();
    expect(answer.init?.status ?? 200).toBe(200);
  });

  it("creates a token for an account and shows its value once", async () => {
    server.use(
      http.post(`${organization}/service-accounts/sa_1/tokens`, async ({ request }) => {
        expect(await request.json()).toEqual({ name: "github actions", expiresInDays: 365 });
        return HttpResponse.json(
          {
            token: {
              id: "7d1b4c9e-0000-4000-8000-000000000002",
              name: "github actions",
              hint: "ccp_…wxyz",
              permissions: null,
              createdAt: "2026-11-27T00:00:00.000Z",
              expiresAt: "2027-11-27T00:00:00.000Z",
              lastUsedAt: null,
              lastUsedAddress: null,
            },
            value: "ccp_secret",
          },
          { status: 201 },
        );
      }),
    );
    const answer = (await action({
      request: await requestAs("POST", {
        intent: "create-token",
        serviceAccountId: "sa_1",
        name: "github actions",
        expiresInDays: "365",
      }),
      params: {},
      context: {},
    })) as unknown as { data: { created?: { name: string; value: string } } };
    expect(answer.data.created).toEqual({ name: "github actions", value: "ccp_secret" });
  });

  it("regenerates an account's token and shows the new value once", async () => {
    const tokenId = "7d1b4c9e-0000-4000-8000-000000000002";
    const received: unknown[] = [];
    server.use(
      http.post(`${organization}/service-accounts/sa_1/tokens/${tokenId}/regenerate`, async ({ request }) => {
        received.push(await request.json());
        return HttpResponse.json(
          {
            token: {
              id: "7d1b4c9e-0000-4000-8000-000000000003",
              name: "github actions",
              hint: "ccp_…abcd",
              permissions: null,
              createdAt: "2026-11-27T00:00:00.000Z",
              expiresAt: "2027-02-25T00:00:00.000Z",
              lastUsedAt: null,
              lastUsedAddress: null,
            },
            value: "ccp_renewed",
          },
          { status: 201 },
        );
      }),
    );
    const answer = (await action({
      request: await requestAs("POST", {
        intent: "regenerate-token",
        serviceAccountId: "sa_1",
        tokenId,
        tokenName: "github actions",
        expiresInDays: "90",
      }),
      params: {},
      context: {},
    })) as unknown as { data: { created?: { name: string; value: string; regenerated?: boolean } } };
    expect(received).toEqual([{ expiresInDays: 90 }]);
    expect(answer.data.created).toEqual({
      name: "github actions",
      value: "ccp_renewed",
      regenerated: true,
    });
  });
});
