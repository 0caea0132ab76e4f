import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { environmentListSchema } from "#contract/environments";
import type { OrganizationClaim } from "#contract/identity";

const issuer = "https://id.example/";
const platform = "https://platform.example";
process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = platform;
process.env.APP_URL = "https://console.example";

const { requirePlatformClient } = await import("./request.server");
const { commitSession, getSession } = await import("~/auth/session.server");

const { privateKey, publicKey } = await generateKeyPair("RS256");
const jwk = { ...(await exportJWK(publicKey)), kid: "test", alg: "RS256", use: "sig" };
const environmentsPath = "/api/v2/organizations/tenant-1/environments";
const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "tenant-1" },
};

function idToken(organizations: OrganizationClaim[]) {
  return new SignJWT({ email: "ada@example.com", name: "Ada Lovelace", organizations })
    .setProtectedHeader({ alg: "RS256", kid: "test" })
    .setIssuer(issuer)
    .setSubject("user_ada")
    .setAudience("cloud-console")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(privateKey);
}

const server = setupServer(
  http.get(`${issuer}.well-known/openid-configuration`, () =>
    HttpResponse.json({
      issuer,
      authorization_endpoint: `${issuer}authorize`,
      token_endpoint: `${issuer}oauth/token`,
      jwks_uri: `${issuer}.well-known/jwks.json`,
    }),
  ),
  http.get(`${issuer}.well-known/jwks.json`, () => HttpResponse.json({ keys: [jwk] })),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A request carrying a signed-in session whose access token expires in `expiresInMs`. */
async function signedInRequest(expiresInMs: number, organizations: OrganizationClaim[] = [acme]) {
  const session = await getSession(new Request("https://console.example/"));
  session.set("user", { sub: "user_ada", name: "Ada Lovelace", email: "ada@example.com" });
  session.set("organizations", organizations);
  session.set("tokens", {
    accessToken: "old-access",
    refreshToken: "refresh-1",
    expiresAt: Date.now() + expiresInMs,
  });
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  return new Request("https://console.example/environments?tab=all", { headers: { Cookie: cookie } });
}

function platformAccepting(token: string, seen: string[] = []) {
  return http.get(`${platform}${environmentsPath}`, ({ request }) => {
    const authorization = request.headers.get("Authorization") ?? "";
    seen.push(authorization);
    if (authorization !== `Bearer ${token}`)
      return HttpResponse.json({ message: "Unauthorized" }, { status: 401 });
    return HttpResponse.json({ environments: [] });
  });
}

function tokenEndpoint(result: "ok" | "refused", refreshes: string[] = []) {
  return http.post(`${issuer}oauth/token`, async ({ request }) => {
    const body = new URLSearchParams(await request.text());
    refreshes.push(body.get("refresh_token") ?? "");
    if (result === "refused") {
      return HttpResponse.json(
        { error: "invalid_grant", error_description: "Unknown or invalid refresh token." },
        { status: 400 },
      );
    }
    return HttpResponse.json({
      access_token: "new-access",
      token_type: "Bearer",
      expires_in: 3600,
      id_token: await idToken([acme, { ...acme, id: "org_new", name: "new", display_name: "New" }]),
    });
  });
}

async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a thrown response");
}

describe("requirePlatformClient", () => {
  it("sends a visitor without a session to sign in, keeping the address", async () => {
    const response = await thrownResponse(
      requirePlatformClient(new Request("https://console.example/environments")),
    );
    expect(response.headers.get("Location")).toBe("/auth/login?returnTo=%2Fenvironments");
  });

  it("calls the platform with the session's token while it is fresh, without touching the cookie", async () => {
    const seen: string[] = [];
    server.use(platformAccepting("old-access", seen));
    const { api, headers } = await requirePlatformClient(await signedInRequest(10 * 60_000));
    await api.get(environmentsPath.replace("/api", ""), environmentListSchema);
    expect(seen).toEqual(["Bearer old-access"]);
    expect(headers.get("Set-Cookie")).toBeNull();
  });

  it("refreshes a token within 60 s of expiry before calling, and stores the new token and organizations", async () => {
    const seen: string[] = [];
    const refreshes: string[] = [];
    server.use(platformAccepting("new-access", seen), tokenEndpoint("ok", refreshes));
    const { api, headers, organizations } = await requirePlatformClient(await signedInRequest(30_000));
    await api.get(environmentsPath.replace("/api", ""), environmentListSchema);
    expect(refreshes).toEqual(["refresh-1"]);
    expect(seen).toEqual(["Bearer new-access"]);
    expect(organizations.map((organization) => organization.id)).toEqual(["org_acme", "org_new"]);
    const session = await getSession(
      new Request("https://x/", { headers: { Cookie: headers.get("Set-Cookie") ?? "" } }),
    );
    expect(session.get("tokens")?.accessToken).toBe("new-access");
  });

  it("refreshes once on a 401 and repeats the call with the new token", async () => {
    const seen: string[] = [];
    server.use(platformAccepting("new-access", seen), tokenEndpoint("ok"));
    const { api, headers } = await requirePlatformClient(await signedInRequest(10 * 60_000));
    await expect(api.get(environmentsPath.replace("/api", ""), environmentListSchema)).resolves.toEqual({
      environments: [],
    });
    expect(seen).toEqual(["Bearer old-access", "Bearer new-access"]);
    expect(headers.get("Set-Cookie")).toMatch(/^__session=/);
  });

  it("flags the session expired and sends the user to sign in when the refresh token is refused", async () => {
    server.use(platformAccepting("never"), tokenEndpoint("refused"));
    const { api } = await requirePlatformClient(await signedInRequest(10 * 60_000));
    const response = await thrownResponse(
      api.get(environmentsPath.replace("/api", ""), environmentListSchema),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth/login?returnTo=%2Fenvironments%3Ftab%3Dall");
    const session = await getSession(
      new Request("https://x/", { headers: { Cookie: response.headers.get("Set-Cookie") ?? "" } }),
    );
    expect(session.get("expired")).toBe(true);
    expect(session.get("tokens")).toBeUndefined();
  });

  it("keeps the session cookie under 4 KB for a member of many organizations", async () => {
    const organizations = Array.from({ length: 12 }, (_, index) => ({
      id: `org_${index}_${"x".repeat(16)}`,
      name: `organization-${index}`,
      display_name: `Organization number ${index}`,
      metadata: { tenant_id: "8f7c2d4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f" },
    }));
    const request = await signedInRequest(10 * 60_000, organizations);
    expect((request.headers.get("Cookie") ?? "").length).toBeLessThan(4096);
  });
});
