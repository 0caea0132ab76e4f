import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  CodeChallengeMethod,
  OAuth2Client,
  OAuth2RequestError,
  generateCodeVerifier,
  generateState,
} from "arctic";
import { eq } from "drizzle-orm";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { organizationClaimSchema } from "#contract/identity";
import {
  defaultEngineConfig,
  DEFAULT_DRIFT_CHECK_INTERVAL_SECONDS,
  defaultMailConfig,
  defaultTerraformConfig,
  type PlatformConfig,
} from "../lib/config";
import { emptyOutboundAllowList } from "../lib/egress";
import type { OpenDatabase } from "../db/index";
import { loginAttempts, oidcPayloads, organizations, users } from "../db/schema";
import { addMember } from "../team/members";
import { ensureRoles } from "../db/roles";
import { DEMO_PASSWORD, seedDemoData } from "../seed/demo-data";
import { ephemeralSecretCipher } from "../lib/cipher";
import { openTestDb } from "../testing/db";
import { createPayloadAdapter, purgeExpiredPayloads, revokeGrant } from "./adapter";
import { verifyPassword } from "./passwords";
import { createIdentityProvider, type IdentityProvider } from "./provider";

const CLIENT_ID = "cloud-console";
const CLIENT_SECRET = "test-client-secret-0123456789";
const APP_URL = "http://localhost:3999";
const REDIRECT_URI = `${APP_URL}/auth`;

let database: OpenDatabase;
let dataDir: string;
let server: Server;
let config: PlatformConfig;
let identity: IdentityProvider;

beforeAll(async () => {
  database = await openTestDb();
  await ensureRoles(database.db);
  await seedDemoData(database.db, { secrets: ephemeralSecretCipher() });
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-test-"));
  // The port is only known once listening, and the provider's issuer needs it: requests go through `identity`.
  server = createServer((req: IncomingMessage, res: ServerResponse) => identity.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const publicUrl = `http://localhost:${port}`;
  config = {
    port,
    publicUrl,
    issuer: `${publicUrl}/`,
    audience: `${publicUrl}/api`,
    dataDir,
    appUrl: APP_URL,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tenantApprovalRequired: false,
    seedDemoData: true,
    seedContainerHost: false,
    accessTokenTtlSeconds: 600,
    terraform: defaultTerraformConfig,
    engine: defaultEngineConfig,
    driftCheckIntervalSeconds: DEFAULT_DRIFT_CHECK_INTERVAL_SECONDS,
    mail: defaultMailConfig,
    outboundAllow: emptyOutboundAllowList,
    containerSockets: [],
  };
  identity = await createIdentityProvider({ db: database.db, config });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A browser's cookie store, reduced to what the flow needs: names, values and paths. */
class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      const attribute = (key: string) =>
        attributes.find((item) => item.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const expires = attribute("expires");
      const key = `${name};${attribute("path") ?? "/"}`;
      if (!value || (expires && new Date(expires).getTime() < Date.now())) this.cookies.delete(key);
      else this.cookies.set(key, { value, path: attribute("path") ?? "/" });
    }
  }

  header(pathname: string): string {
    return [...this.cookies.entries()]
      .filter(
        ([, cookie]) => pathname === cookie.path || pathname.startsWith(cookie.path.replace(/\/?$/, "/")),
      )
      .map(([key, cookie]) => `${key.split(";")[0]}=${cookie.value}`)
      .join("; ");
  }
}

function url(pathname: string): string {
  return new URL(pathname, config.issuer).href;
}

async function browse(jar: CookieJar, target: string, init: RequestInit = {}): Promise<Response> {
  const address = new URL(target, config.issuer);
  const headers = new Headers(init.headers);
  const cookie = jar.header(address.pathname);
  if (cookie) headers.set("Cookie", cookie);
  const response = await fetch(address, { ...init, headers, redirect: "manual" });
  jar.store(response);
  return response;
}

function location(response: Response): string {
  const value = response.headers.get("location");
  if (!value) throw new Error(`expected a redirect, got HTTP ${response.status}`);
  return new URL(value, config.issuer).href;
}

function postForm(jar: CookieJar, target: string, fields: Record<string, string>) {
  return browse(jar, target, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

type AuthorizationRequest = { state: string; nonce: string; verifier: string; url: string };

function authorizationRequest(extra: Record<string, string> = {}): AuthorizationRequest {
  const state = randomBytes(16).toString("base64url");
  const nonce = randomBytes(16).toString("base64url");
  const verifier = randomBytes(32).toString("base64url");
  const params = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: "openid profile email offline_access",
    state,
    nonce,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    audience: config.audience,
    ...extra,
  });
  return { state, nonce, verifier, url: url(`/authorize?${params}`) };
}

/** Follows the provider's redirects until the browser would leave for the app or show a page. */
async function follow(jar: CookieJar, response: Response): Promise<Response> {
  let current = response;
  while (current.status >= 300 && current.status < 400 && location(current).startsWith(config.issuer)) {
    current = await browse(jar, location(current));
  }
  return current;
}

function codeFrom(response: Response, request: AuthorizationRequest): string {
  const callback = new URL(location(response));
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  expect(callback.searchParams.get("state")).toBe(request.state);
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`no code in ${callback.href}`);
  return code;
}

/** Signs in through the login page and returns the code the app receives. */
async function signIn(jar: CookieJar, email: string, request = authorizationRequest()): Promise<string> {
  const loginPage = await follow(jar, await browse(jar, request.url));
  expect(loginPage.status).toBe(200);
  const action = /<form method="post" action="([^"]+)"/.exec(await loginPage.text())?.[1];
  if (!action) throw new Error("no login form");
  const signedIn = await postForm(jar, action, { email, password: DEMO_PASSWORD });
  return codeFrom(await follow(jar, signedIn), request);
}

const basicAuth = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;

type TokenResponse = {
  access_token: string;
  id_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
};

async function tokenRequest(fields: Record<string, string>, as: "form" | "json" = "form") {
  const response = await fetch(url("/oauth/token"), {
    method: "POST",
    headers: {
      Authorization: basicAuth,
      "Content-Type": as === "form" ? "application/x-www-form-urlencoded" : "application/json",
    },
    body: as === "form" ? new URLSearchParams(fields) : JSON.stringify(fields),
  });
  return { status: response.status, body: (await response.json()) as TokenResponse & { error?: string } };
}

function exchangeCode(code: string, request: AuthorizationRequest) {
  return tokenRequest({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: request.verifier,
  });
}

function remoteJwks() {
  return createRemoteJWKSet(new URL(url("/.well-known/jwks.json")));
}

async function verifyIdToken(token: string, nonce?: string) {
  const { payload, protectedHeader } = await jwtVerify(token, remoteJwks(), {
    issuer: config.issuer,
    audience: CLIENT_ID,
    algorithms: ["RS256"],
  });
  if (nonce) expect(payload.nonce).toBe(nonce);
  expect(protectedHeader.alg).toBe("RS256");
  return payload;
}

async function tenantIdOf(organizationId: string): Promise<string> {
  const rows = await database.db.select().from(organizations);
  const organization = rows.find((row) => row.id === organizationId);
  if (!organization) throw new Error(`no organization ${organizationId}`);
  return organization.tenantId;
}

describe("discovery", () => {
  it("publishes Auth0's endpoints at the origin root", async () => {
    const response = await fetch(url("/.well-known/openid-configuration"));
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      issuer: config.issuer,
      authorization_endpoint: url("/authorize"),
      token_endpoint: url("/oauth/token"),
      userinfo_endpoint: url("/userinfo"),
      revocation_endpoint: url("/oauth/revoke"),
      jwks_uri: url("/.well-known/jwks.json"),
    });
    const jwks = (await (await fetch(url("/.well-known/jwks.json"))).json()) as {
      keys: Record<string, unknown>[];
    };
    expect(jwks.keys).toEqual(identity.publicJwks.keys);
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("answers unknown paths with 404", async () => {
    expect((await fetch(url("/no-such-page"))).status).toBe(404);
  });
});

describe("sign-in with the authorization code flow", () => {
  const jar = new CookieJar();
  let request: AuthorizationRequest;
  let tokens: TokenResponse;

  beforeAll(() => {
    request = authorizationRequest();
  });

  it("shows an accessible login page with a strict content security policy", async () => {
    const page = await follow(jar, await browse(jar, request.url));
    expect(page.status).toBe(200);
    expect(page.url).toMatch(/\/interaction\/[\w-]+$/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain(`form-action 'self' ${APP_URL}`);
    const html = await page.text();
    expect(html).toContain("<h1>Cloud Console</h1>");
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).not.toContain("<script");
  });

  it("dresses the sign-in and sign-up pages as the app: Inter, served by the provider itself, and the SPEC palette", async () => {
    const jar = new CookieJar();
    const login = await follow(jar, await browse(jar, authorizationRequest().url));
    const html = await login.text();
    expect(login.headers.get("content-security-policy")).toContain("font-src 'self'");
    expect(html).toMatch(/font-family: Inter, /);
    // SPEC §9: primary purple for the button and links, the error red for errors; no stray blue.
    expect(html).toContain("#6E27D5");
    expect(html).toContain("#E91F04");
    expect(html).not.toMatch(/#1c7ed6|#1971c2/i);
    const fonts = [...html.matchAll(/url\("([^"]+\.woff2)"\)/g)].map((match) => match[1] ?? "");
    expect(fonts).toHaveLength(2);
    for (const font of fonts) {
      const response = await browse(jar, font);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("font/woff2");
      const body = new Uint8Array(await response.arrayBuffer());
      expect(new TextDecoder().decode(body.slice(0, 4))).toBe("wOF2");
      // The latin subset only: light enough for a page that must show at once.
      expect(body.byteLength).toBeLessThan(30_000);
    }
    const signUp = await browse(jar, `${new URL(login.url).pathname}/signup`);
    expect(await signUp.text()).toMatch(/font-family: Inter, /);
  });

  it("shows the page again with an error and the typed e-mail after a wrong password", async () => {
    const page = await follow(jar, await browse(jar, request.url));
    const action = new URL(page.url).pathname;
    const rejected = await postForm(jar, action, { email: 'ada@example.com"<x>', password: "wrong" });
    expect(rejected.status).toBe(401);
    const html = await rejected.text();
    expect(html).toContain("Wrong email or password.");
    expect(html).toContain('value="ada@example.com&quot;&lt;x&gt;"');
    const wrongPassword = await postForm(jar, action, { email: "ada@example.com", password: "wrong" });
    expect(await wrongPassword.text()).toContain('value="ada@example.com"');
  });

  it("answers 429 with Retry-After and explains the wait once an account has failed five times", async () => {
    const attacker = new CookieJar();
    const page = await follow(attacker, await browse(attacker, authorizationRequest().url));
    const action = new URL(page.url).pathname;
    const email = "brute-force-target@example.com";
    for (let index = 0; index < 5; index += 1) {
      expect((await postForm(attacker, action, { email, password: `guess-${index}` })).status).toBe(401);
    }
    const refused = await postForm(attacker, action, { email, password: "guess-5" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await refused.text();
    expect(html).toContain("Sign-in is temporarily locked after too many failed attempts. Try again in");
    expect(html).toContain(`value="${email}"`);
  });

  it("redirects to the app with a code after the right password, without a consent screen", async () => {
    const code = await signIn(jar, "Ada@Example.com", request);
    const exchanged = await exchangeCode(code, request);
    expect(exchanged.status).toBe(200);
    tokens = exchanged.body;
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.expires_in).toBe(config.accessTokenTtlSeconds);
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it("issues an RS256 ID token with the profile, the nonce and the organizations with tenant ids", async () => {
    const claims = await verifyIdToken(tokens.id_token, request.nonce);
    expect(claims).toMatchObject({ sub: "user_ada", name: "Ada Lovelace", email: "ada@example.com" });
    expect(claims.picture).toBeUndefined();
    const claimed = organizationClaimSchema.array().parse(claims.organizations);
    expect(claimed).toEqual([
      {
        id: "org_acme",
        name: "acme-corp",
        display_name: "Acme Corp",
        metadata: { tenant_id: await tenantIdOf("org_acme") },
      },
      {
        id: "org_globex",
        name: "globex",
        display_name: "Globex",
        metadata: { tenant_id: await tenantIdOf("org_globex") },
      },
    ]);
  });

  it("issues a JWT access token for the API audience", async () => {
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, remoteJwks(), {
      issuer: config.issuer,
      audience: config.audience,
      algorithms: ["RS256"],
    });
    expect(protectedHeader.kid).toBe(identity.publicJwks.keys[0]?.kid);
    expect(payload.sub).toBe("user_ada");
    expect(payload.aud).toBe(config.audience);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(config.accessTokenTtlSeconds);
    expect(String(payload.scope).split(" ")).toEqual(expect.arrayContaining(["openid", "profile", "email"]));
  });

  it("serves the same profile at /userinfo for the access token", async () => {
    const response = await fetch(url("/userinfo"), {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    const profile = (await response.json()) as Record<string, unknown>;
    expect(profile).toMatchObject({ sub: "user_ada", name: "Ada Lovelace", email: "ada@example.com" });
    expect(profile.organizations).toEqual((await verifyIdToken(tokens.id_token)).organizations);

    const anonymous = await fetch(url("/userinfo"));
    expect(anonymous.status).toBe(401);
    const forged = await fetch(url("/userinfo"), { headers: { Authorization: `Bearer ${tokens.id_token}` } });
    expect(forged.status).toBe(401);
  });

  it("answers /userinfo and /oauth/token with nosniff, errors included", async () => {
    const answers = [
      await fetch(url("/userinfo"), { headers: { Authorization: `Bearer ${tokens.access_token}` } }),
      await fetch(url("/userinfo")),
      await fetch(url("/oauth/token"), {
        method: "POST",
        headers: { Authorization: basicAuth, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }),
      }),
      await fetch(url("/oauth/token"), { method: "POST", body: new URLSearchParams({ grant_type: "nope" }) }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 200, 400]);
    for (const answer of answers) expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("refreshes with the refresh token (form and JSON bodies) into new access and ID tokens", async () => {
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    expect((await verifyIdToken(refreshed.body.id_token)).sub).toBe("user_ada");

    const refreshToken = refreshed.body.refresh_token ?? tokens.refresh_token;
    const json = await tokenRequest(
      { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: refreshToken },
      "json",
    );
    expect(json.status).toBe(200);
    expect(json.body.access_token).toEqual(expect.any(String));
  });

  it("rejects a code exchange without the PKCE verifier and with a wrong client secret", async () => {
    const code = codeFrom(await follow(jar, await browse(jar, request.url)), request);
    const withoutVerifier = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
    });
    expect(withoutVerifier.status).toBe(400);
    const wrongSecret = await fetch(url("/oauth/token"), {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:wrong`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }),
    });
    expect(wrongSecret.status).toBe(401);
  });

  it("signs the user in again without the login page while the provider's session lasts", async () => {
    const again = authorizationRequest();
    const code = codeFrom(await follow(jar, await browse(jar, again.url)), again);
    const exchanged = await exchangeCode(code, again);
    expect((await verifyIdToken(exchanged.body.id_token, again.nonce)).sub).toBe("user_ada");
  });

  it("refuses an audience other than the platform API's", async () => {
    const other = authorizationRequest({ audience: "https://elsewhere.example/api" });
    const callback = new URL(location(await follow(jar, await browse(jar, other.url))));
    expect(callback.searchParams.get("error")).toBe("access_denied");
  });

  it("signs out at /v2/logout, returns to the app, and asks for the password on the next sign-in", async () => {
    const logout = await browse(
      jar,
      `/v2/logout?${new URLSearchParams({ client_id: CLIENT_ID, returnTo: `${APP_URL}/` })}`,
    );
    expect(logout.status).toBe(302);
    expect(location(logout)).toBe(`${APP_URL}/`);

    const next = await follow(jar, await browse(jar, authorizationRequest().url));
    expect(next.status).toBe(200);
    expect(await next.text()).toContain("Sign in");

    const revoked = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(revoked.status).toBe(400);
    expect(revoked.body.error).toBe("invalid_grant");
  });

  it("shows a signed-out page instead of redirecting to a URL outside the app", async () => {
    for (const returnTo of ["https://evil.example/", `${APP_URL}.evil.example/`]) {
      const response = await browse(
        jar,
        `/v2/logout?${new URLSearchParams({ client_id: CLIENT_ID, returnTo })}`,
      );
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("You have been signed out");
    }
  });
});

describe("self-service sign-up", () => {
  const PASSWORD = "correct horse battery staple";

  /** The form's action and the hrefs of its links, read from a page's HTML. */
  function formAction(html: string): string {
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error("no form on the page");
    return action;
  }

  function linkHref(html: string, text: string): string {
    const href = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(html)?.[1];
    if (!href) throw new Error(`no link "${text}" on the page`);
    return href;
  }

  /** Opens the sign-up page of a new authorization request through the login page's link. */
  async function openSignUpPage(jar: CookieJar, request = authorizationRequest()) {
    const loginPage = await follow(jar, await browse(jar, request.url));
    const signUpPage = await browse(jar, linkHref(await loginPage.text(), "Create an account"));
    return { request, page: signUpPage, html: await signUpPage.text() };
  }

  async function usersWithEmail(email: string) {
    return database.db.select().from(users).where(eq(users.email, email));
  }

  it("is linked from the login page and served with a strict content security policy, labels and the policy", async () => {
    const jar = new CookieJar();
    const { page, html } = await openSignUpPage(jar);
    expect(page.status).toBe(200);
    expect(new URL(page.url).pathname).toMatch(/^\/interaction\/[\w-]+\/signup$/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain(`form-action 'self' ${APP_URL}`);
    expect(html).toContain('<label for="name">Name</label>');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('autocomplete="new-password"');
    expect(html).toContain(
      '<p class="hint" id="password-hint">12 to 128 characters, not containing the part of your email before the @.</p>',
    );
    expect(html).toContain('<button type="submit">Create account</button>');
    expect(html).not.toContain("<script");
    expect(formAction(html)).toBe(new URL(page.url).pathname);

    const back = await browse(jar, linkHref(html, "Sign in"));
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('<button type="submit">Sign in</button>');
  });

  it("opens directly when the authorization request carries screen_hint=signup", async () => {
    const jar = new CookieJar();
    const page = await follow(jar, await browse(jar, authorizationRequest({ screen_hint: "signup" }).url));
    expect(page.status).toBe(200);
    expect(new URL(page.url).pathname).toMatch(/^\/interaction\/[\w-]+$/);
    const html = await page.text();
    expect(html).toContain('<button type="submit">Create account</button>');
    expect(html).toContain(">Sign in</a>");
  });

  it("says exactly which rule a field breaks, keeps what was typed except the password, and stores nothing", async () => {
    const jar = new CookieJar();
    const { html } = await openSignUpPage(jar);
    const action = formAction(html);
    const name = 'Grace "Amazing" Hopper';
    const email = "grace.hopper@example.com";
    const attempts: [Record<string, string>, string][] = [
      [{ password: "short-pass" }, "Password must be at least 12 characters; this one has 10."],
      [{ password: "x".repeat(129) }, "Password must be at most 128 characters; this one has 129."],
      [
        { password: "Grace.Hopper-1906!" },
        "Password must not contain “grace.hopper”, the part of your email before the @.",
      ],
      [{ password: "" }, "Password is a required field"],
    ];
    for (const [fields, message] of attempts) {
      const rejected = await postForm(jar, action, { name, email, ...fields });
      expect(rejected.status).toBe(400);
      expect(rejected.headers.get("content-security-policy")).toContain("default-src 'none'");
      const page = await rejected.text();
      expect(page).toContain(`<p class="field-error" id="password-error">${message}</p>`);
      expect(page).toContain('aria-describedby="password-hint password-error"');
      expect(page).toContain('value="Grace &quot;Amazing&quot; Hopper"');
      expect(page).toContain(`value="${email}"`);
      if (fields.password) expect(page).not.toContain(fields.password);
    }

    const blank = await postForm(jar, action, { name: "  ", email: "not-an-address", password: PASSWORD });
    expect(blank.status).toBe(400);
    const page = await blank.text();
    expect(page).toContain('<p class="field-error" id="name-error">Name is a required field</p>');
    expect(page).toContain(
      '<p class="field-error" id="email-error">Email must be an address such as ada@example.com</p>',
    );
    expect(page).not.toContain('id="password-error"');
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it("tells an address that already has an account so, with a link to sign in", async () => {
    const jar = new CookieJar();
    const { html } = await openSignUpPage(jar);
    const taken = await postForm(jar, formAction(html), {
      name: "Someone Else",
      email: "  Ada@Example.COM ",
      password: PASSWORD,
    });
    expect(taken.status).toBe(409);
    const page = await taken.text();
    expect(page).toMatch(
      /<p class="field-error" id="email-error">An account with this email already exists\. <a href="\/interaction\/[\w-]+\/login">Sign in<\/a><\/p>/,
    );
    expect(page).toContain('value="Someone Else"');
    const ada = await usersWithEmail("ada@example.com");
    expect(ada.map((user) => user.name)).toEqual(["Ada Lovelace"]);
  });

  it("creates the account and finishes as a sign-in: the code yields tokens for the new user", async () => {
    const jar = new CookieJar();
    const { request, html } = await openSignUpPage(jar);
    const signedUp = await postForm(jar, formAction(html), {
      name: " Grace Hopper ",
      email: " Grace.Hopper@Example.com",
      password: PASSWORD,
    });
    const code = codeFrom(await follow(jar, signedUp), request);
    const exchanged = await exchangeCode(code, request);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.refresh_token).toEqual(expect.any(String));

    const claims = await verifyIdToken(exchanged.body.id_token, request.nonce);
    expect(claims).toMatchObject({
      name: "Grace Hopper",
      email: "grace.hopper@example.com",
      organizations: [],
    });
    const [stored] = await usersWithEmail("grace.hopper@example.com");
    expect(claims.sub).toBe(stored?.id);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword(PASSWORD, stored?.passwordHash ?? "")).toBe(true);
    const { payload } = await jwtVerify(exchanged.body.access_token, remoteJwks(), {
      issuer: config.issuer,
      audience: config.audience,
    });
    expect(payload.sub).toBe(stored?.id);

    // The new password signs in through the login page like any other.
    const again = authorizationRequest();
    const other = new CookieJar();
    const page = await follow(other, await browse(other, again.url));
    const signedIn = await postForm(other, formAction(await page.text()), {
      email: "grace.hopper@example.com",
      password: PASSWORD,
    });
    const secondCode = codeFrom(await follow(other, signedIn), again);
    const second = await exchangeCode(secondCode, again);
    expect((await verifyIdToken(second.body.id_token, again.nonce)).sub).toBe(stored?.id);
  });
});

describe("the app's OAuth client (arctic, as under remix-auth-auth0)", () => {
  it("signs in, refreshes and revokes with client_secret_basic", async () => {
    const client = new OAuth2Client(CLIENT_ID, CLIENT_SECRET, REDIRECT_URI);
    const state = generateState();
    const verifier = generateCodeVerifier();
    const authorizationUrl = client.createAuthorizationURLWithPKCE(
      url("/authorize"),
      state,
      CodeChallengeMethod.S256,
      verifier,
      ["openid", "profile", "email", "offline_access"],
    );
    authorizationUrl.searchParams.append("audience", config.audience);
    authorizationUrl.searchParams.set("nonce", "app-nonce");
    const request = { state, nonce: "app-nonce", verifier, url: authorizationUrl.href };

    const code = await signIn(new CookieJar(), "carol@example.com", request);
    const tokens = await client.validateAuthorizationCode(url("/oauth/token"), code, verifier);
    expect((await verifyIdToken(tokens.idToken(), "app-nonce")).sub).toBe("user_carol");
    expect(tokens.accessTokenExpiresInSeconds()).toBe(config.accessTokenTtlSeconds);

    const refreshed = await client.refreshAccessToken(url("/oauth/token"), tokens.refreshToken(), []);
    expect((await verifyIdToken(refreshed.idToken())).sub).toBe("user_carol");

    await client.revokeToken(url("/oauth/revoke"), tokens.refreshToken());
    const afterRevocation = client.refreshAccessToken(url("/oauth/token"), tokens.refreshToken(), []);
    await expect(afterRevocation).rejects.toBeInstanceOf(OAuth2RequestError);
  });
});

describe("refresh tokens", () => {
  it("are issued even when the app forces the login page with prompt=login", async () => {
    const request = authorizationRequest({ prompt: "login" });
    const { body } = await exchangeCode(await signIn(new CookieJar(), "ada@example.com", request), request);
    expect(body.refresh_token).toEqual(expect.any(String));
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: body.refresh_token });
    expect(refreshed.status).toBe(200);
  });
});

describe("organizations claim", () => {
  it("is empty for a user without organizations and shows a new membership on the next refresh", async () => {
    const jar = new CookieJar();
    const request = authorizationRequest();
    const { body: tokens } = await exchangeCode(await signIn(jar, "dave@example.com", request), request);
    expect((await verifyIdToken(tokens.id_token, request.nonce)).organizations).toEqual([]);

    await addMember(database.db, {
      userId: "user_dave",
      organizationId: "org_globex",
      grants: [{ role: "developer" }],
    });
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    const claims = await verifyIdToken(refreshed.body.id_token);
    expect(claims.organizations).toEqual([
      {
        id: "org_globex",
        name: "globex",
        display_name: "Globex",
        metadata: { tenant_id: await tenantIdOf("org_globex") },
      },
    ]);
  });
});

describe("restarts", () => {
  it("keeps the signing key and the signed-in sessions", async () => {
    const jar = new CookieJar();
    await signIn(jar, "bob@example.com");
    const before = identity.publicJwks.keys[0]?.kid;

    identity = await createIdentityProvider({ db: database.db, config });
    expect(identity.publicJwks.keys[0]?.kid).toBe(before);

    const request = authorizationRequest();
    const code = codeFrom(await follow(jar, await browse(jar, request.url)), request);
    const { body } = await exchangeCode(code, request);
    expect(decodeProtectedHeader(body.id_token).kid).toBe(before);
    expect((await verifyIdToken(body.id_token, request.nonce)).sub).toBe("user_bob");
  });
});

describe("sign-in limits behind a reverse proxy (TRUST_PROXY)", () => {
  /** The address limit as a client that used it up sees it: locked for 15 minutes. */
  async function lockAddress(key: string) {
    const blockedUntil = new Date(Date.now() + 15 * 60 * 1000);
    await database.db
      .insert(loginAttempts)
      .values({ kind: "address", key, failures: 100, lastAttemptAt: new Date(), blockedUntil })
      .onConflictDoUpdate({
        target: [loginAttempts.kind, loginAttempts.key],
        set: { failures: 100, blockedUntil },
      });
  }

  /** One wrong password from a new browser (and a new e-mail, so only the address limit applies). */
  async function wrongPasswordFrom(forwardedFor?: string): Promise<number> {
    const jar = new CookieJar();
    const page = await follow(jar, await browse(jar, authorizationRequest().url));
    const response = await browse(jar, new URL(page.url).pathname, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}),
      },
      body: new URLSearchParams({
        email: `${randomBytes(6).toString("hex")}@example.com`,
        password: "wrong",
      }),
    });
    return response.status;
  }

  afterEach(async () => {
    await database.db.delete(loginAttempts).where(eq(loginAttempts.kind, "address"));
  });

  it("keys on the socket's address when unset: a forged X-Forwarded-For neither escapes a limit nor takes another's", async () => {
    for (const socket of ["127.0.0.1", "::ffff:127.0.0.1", "::1"]) await lockAddress(socket);
    expect(await wrongPasswordFrom("203.0.113.20")).toBe(429);
    await database.db.delete(loginAttempts).where(eq(loginAttempts.kind, "address"));
    await lockAddress("203.0.113.21");
    expect(await wrongPasswordFrom("203.0.113.21")).toBe(401);
  });

  it("gives two clients behind one trusted proxy separate limits, keyed on the entry the proxy added", async () => {
    const direct = identity;
    identity = await createIdentityProvider({ db: database.db, config: { ...config, trustProxyHops: 1 } });
    try {
      await lockAddress("203.0.113.10");
      expect(await wrongPasswordFrom("203.0.113.10")).toBe(429);
      expect(await wrongPasswordFrom("203.0.113.11")).toBe(401);
      // The locked client writes an address of its own to the left of the one the proxy appends: still locked.
      expect(await wrongPasswordFrom("203.0.113.11, 203.0.113.10")).toBe(429);
    } finally {
      identity = direct;
    }
  });
});

// The adapter shares this file's database: starting PGlite is the slowest part of these tests.
describe("oidc-provider payload adapter", () => {
  it("stores, replaces, finds by id and uid, consumes and destroys payloads per model", async () => {
    const Adapter = createPayloadAdapter(database.db);
    const sessions = new Adapter("Session");
    const codes = new Adapter("AuthorizationCode");

    await sessions.upsert("s1", { uid: "u1", accountId: "user_ada" }, 60);
    await sessions.upsert("s1", { uid: "u1", accountId: "user_bob" }, 60);
    expect(await sessions.find("s1")).toEqual({ uid: "u1", accountId: "user_bob" });
    expect(await sessions.findByUid("u1")).toEqual({ uid: "u1", accountId: "user_bob" });
    expect(await codes.find("s1")).toBeUndefined();

    await codes.upsert("c1", { grantId: "g1" }, 60);
    await codes.consume("c1");
    expect((await codes.find("c1"))?.consumed).toEqual(expect.any(Number));

    await sessions.destroy("s1");
    expect(await sessions.find("s1")).toBeUndefined();
  });

  it("treats expired payloads as gone and purges them", async () => {
    const Adapter = createPayloadAdapter(database.db);
    const interactions = new Adapter("Interaction");
    await interactions.upsert("i1", { uid: "i1" }, 60);
    expect(await interactions.find("i1")).toBeDefined();

    await purgeExpiredPayloads(database.db, new Date(Date.now() + 120_000));
    expect(await interactions.find("i1")).toBeUndefined();
    const rows = await database.db.select().from(oidcPayloads);
    expect(rows.find((row) => row.id === "i1")).toBeUndefined();
  });

  it("revokes everything issued under a grant", async () => {
    const Adapter = createPayloadAdapter(database.db);
    const grants = new Adapter("Grant");
    const refreshTokens = new Adapter("RefreshToken");
    await grants.upsert("g2", { accountId: "user_ada" }, 60);
    await refreshTokens.upsert("r1", { grantId: "g2" }, 60);
    await refreshTokens.upsert("r2", { grantId: "other" }, 60);

    await refreshTokens.revokeByGrantId("other");
    expect(await refreshTokens.find("r2")).toBeUndefined();
    expect(await refreshTokens.find("r1")).toBeDefined();

    await revokeGrant(database.db, "g2");
    expect(await grants.find("g2")).toBeUndefined();
    expect(await refreshTokens.find("r1")).toBeUndefined();
  });
});
