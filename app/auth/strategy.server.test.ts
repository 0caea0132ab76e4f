import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DiscoveredAuth0Strategy, discover, nonceForState, type Discovery } from "./strategy.server";

const issuer = "https://tenant.example.auth0.com/";
const auth0Discovery: Discovery = {
  issuer,
  authorization_endpoint: `${issuer}authorize`,
  token_endpoint: `${issuer}oauth/token`,
  jwks_uri: `${issuer}.well-known/jwks.json`,
};
const nonceSecret = "n".repeat(32);

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function createStrategy(discovery: Discovery = auth0Discovery) {
  return new DiscoveredAuth0Strategy(
    {
      discovery,
      nonceSecret,
      clientId: "console-client",
      clientSecret: "console-secret",
      redirectURI: "https://console.example/auth",
      scopes: ["openid", "profile", "email", "offline_access"],
      audience: "https://api.example/api",
      cookie: { name: "__auth_state", sameSite: "Lax", path: "/" },
    },
    async ({ tokens }) => tokens.accessToken(),
  );
}

async function redirectOf(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a redirect");
}

describe("the Auth0 strategy against an https issuer (real Auth0)", () => {
  it("redirects to the issuer's https /authorize with PKCE, audience, scopes and a state-bound nonce", async () => {
    const response = await redirectOf(
      createStrategy().authenticate(new Request("https://console.example/auth/login")),
    );
    const location = new URL(response.headers.get("Location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe("https://tenant.example.auth0.com/authorize");
    const params = location.searchParams;
    const state = params.get("state") ?? "";
    expect(params.get("client_id")).toBe("console-client");
    expect(params.get("redirect_uri")).toBe("https://console.example/auth");
    expect(params.get("response_type")).toBe("code");
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("audience")).toBe("https://api.example/api");
    expect(params.get("scope")).toBe("openid profile email offline_access");
    expect(params.get("nonce")).toBe(nonceForState(state, nonceSecret));
    expect(response.headers.get("Set-Cookie")).toMatch(/^__auth_state:[\w-]+=.+HttpOnly/i);
  });

  it("asks for Auth0's sign-up screen only when the request carries screen_hint=signup", async () => {
    const paramsOf = async (url: string) => {
      const response = await redirectOf(createStrategy().authenticate(new Request(url)));
      return new URL(response.headers.get("Location") ?? "").searchParams;
    };
    expect(
      (await paramsOf("https://console.example/auth/signup?screen_hint=signup")).get("screen_hint"),
    ).toBe("signup");
    expect((await paramsOf("https://console.example/auth/login")).has("screen_hint")).toBe(false);
    expect((await paramsOf("https://console.example/auth/login?screen_hint=other")).has("screen_hint")).toBe(
      false,
    );
  });

  it("passes an invited address on as Auth0's login_hint, so the sign-in and sign-up screens start with it", async () => {
    const paramsOf = async (url: string) => {
      const response = await redirectOf(createStrategy().authenticate(new Request(url)));
      return new URL(response.headers.get("Location") ?? "").searchParams;
    };
    const signUp = await paramsOf(
      "https://console.example/auth/signup?screen_hint=signup&login_hint=erin%40example.com",
    );
    expect(signUp.get("login_hint")).toBe("erin@example.com");
    expect(signUp.get("screen_hint")).toBe("signup");
    expect((await paramsOf("https://console.example/auth/login")).has("login_hint")).toBe(false);
    const tooLong = `${"a".repeat(250)}@example.com`;
    expect(
      (await paramsOf(`https://console.example/auth/login?login_hint=${tooLong}`)).has("login_hint"),
    ).toBe(false);
  });

  it("exchanges the code at the issuer's https token endpoint with the client's credentials and PKCE verifier", async () => {
    const strategy = createStrategy();
    const start = await redirectOf(strategy.authenticate(new Request("https://console.example/auth/login")));
    const state = new URL(start.headers.get("Location") ?? "").searchParams.get("state");
    const cookie = (start.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    let tokenRequest: URLSearchParams | undefined;
    let authorization: string | null = null;
    server.use(
      http.post(`${issuer}oauth/token`, async ({ request }) => {
        authorization = request.headers.get("Authorization");
        tokenRequest = new URLSearchParams(await request.text());
        return HttpResponse.json({
          access_token: "access-1",
          token_type: "Bearer",
          expires_in: 3600,
          id_token: "x",
        });
      }),
    );
    const callback = new Request(`https://console.example/auth?code=code-1&state=${state}`, {
      headers: { Cookie: cookie },
    });
    await expect(strategy.authenticate(callback)).resolves.toBe("access-1");
    expect(authorization).toBe(`Basic ${btoa("console-client:console-secret")}`);
    expect(tokenRequest?.get("grant_type")).toBe("authorization_code");
    expect(tokenRequest?.get("code")).toBe("code-1");
    expect(tokenRequest?.get("code_verifier")).toMatch(/^[\w-]{43,}$/);
  });

  it("refuses a callback whose state it did not issue", async () => {
    const callback = new Request("https://console.example/auth?code=c&state=forged", {
      headers: { Cookie: "__auth_state=state=mine&mine=verifier" },
    });
    await expect(createStrategy().authenticate(callback)).rejects.toBeInstanceOf(RangeError);
  });

  it("uses the embedded provider's plain-http endpoints when discovery names them", async () => {
    const local = "http://localhost:4000/";
    const response = await redirectOf(
      createStrategy({
        issuer: local,
        authorization_endpoint: `${local}authorize`,
        token_endpoint: `${local}oauth/token`,
        jwks_uri: `${local}.well-known/jwks.json`,
      }).authenticate(new Request("http://localhost:3000/auth/login")),
    );
    expect(response.headers.get("Location")).toMatch(/^http:\/\/localhost:4000\/authorize\?/);
  });
});

describe("discover", () => {
  it("reads the endpoints of the configured issuer", async () => {
    server.use(
      http.get(`${issuer}.well-known/openid-configuration`, () => HttpResponse.json(auth0Discovery)),
    );
    await expect(discover(issuer)).resolves.toMatchObject({ token_endpoint: `${issuer}oauth/token` });
  });

  it("rejects a document that names another issuer", async () => {
    server.use(
      http.get(`${issuer}.well-known/openid-configuration`, () =>
        HttpResponse.json({ ...auth0Discovery, issuer: "https://other.example/" }),
      ),
    );
    await expect(discover(issuer)).rejects.toThrow(/expected "https:\/\/tenant.example.auth0.com\/"/);
  });
});
