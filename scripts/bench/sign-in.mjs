// Signs in the way a browser does: the app's /auth/login sends it to the identity provider's login form, the form
// posts the password, and the provider's redirects end at the app's /auth callback, which sets `__session`. Then a
// second authorization-code flow (PKCE, the app's client) gets an access token for calling the platform API directly.
import { Buffer } from "node:buffer";
import { createHash, randomBytes } from "node:crypto";
import { URLSearchParams } from "node:url";
import { CookieJar, describe, isRedirect, request } from "./http.mjs";

const MAX_HOPS = 20;

/** The login form's action and fields, from the identity provider's login page. */
function parseLoginForm(html, pageUrl) {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const action = /\baction="([^"]*)"/i.exec(form[0])?.[1]?.replace(/&amp;/g, "&") ?? pageUrl;
  const fields = new URLSearchParams();
  for (const [input] of form[1].matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(input)?.[1];
    if (!name) continue;
    fields.set(name, /\bvalue="([^"]*)"/i.exec(input)?.[1]?.replace(/&amp;/g, "&") ?? "");
  }
  return { action: new URL(action, pageUrl).href, fields };
}

/**
 * Follows a chain of redirects from `url`, answering the login form with the credentials when it shows up. Stops at
 * the first 2xx page, or — when `stopAt(url)` says so — before requesting a redirect target.
 */
async function browse(url, { jar, email, password, stopAt = () => false }) {
  let method = "GET";
  let body;
  let headers = {};
  let postedCredentials = false;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (stopAt(url)) return { url };
    const result = await request(url, { jar, method, body, headers });
    if (isRedirect(result.status)) {
      url = new URL(result.response.headers.get("location") ?? "", url).href;
      method = "GET";
      body = undefined;
      headers = {};
      continue;
    }
    const html = result.text();
    const form =
      result.status === 200 && /\/interaction\//.test(new URL(url).pathname) && parseLoginForm(html, url);
    if (form && form.fields.has("password")) {
      if (postedCredentials)
        throw new Error(`sign-in: the login form came back after posting: ${describe(url, result)}`);
      form.fields.set("email", email);
      form.fields.set("password", password);
      url = form.action;
      method = "POST";
      body = form.fields.toString();
      headers = { "Content-Type": "application/x-www-form-urlencoded" };
      postedCredentials = true;
      continue;
    }
    if (result.status >= 200 && result.status < 300) return { url, result };
    throw new Error(`sign-in: ${describe(url, result)}`);
  }
  throw new Error(`sign-in: more than ${MAX_HOPS} redirects`);
}

/**
 * Signs in to the app at `appUrl`; returns the cookie jar that carries its `__session`. A `jar` that holds the
 * identity provider's session (a copy of another signed-in jar without `__session`) signs in without the form.
 */
export async function signInToApp({ appUrl, email, password, organization, jar = new CookieJar() }) {
  await browse(`${appUrl}/auth/login`, { jar, email, password });
  if (!jar.has("__session")) throw new Error("sign-in: the app set no __session cookie");
  // Make the organization the session's current one (SPEC §4: the switchOrg parameter wins and is remembered).
  await browse(`${appUrl}/?${new URLSearchParams({ switchOrg: organization })}`, { jar, email, password });
  return jar;
}

const base64url = (buffer) => Buffer.from(buffer).toString("base64url");

/**
 * An access token for the platform API through the authorization-code flow with PKCE, as the app gets its own: the
 * provider's session cookie in `jar` (from signInToApp) skips the login form; the redirect to the app's callback is
 * not followed, its code is exchanged at /oauth/token with the client's secret.
 */
export async function platformAccessToken({
  jar,
  platformUrl,
  appUrl,
  clientId,
  clientSecret,
  audience,
  email,
  password,
}) {
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const redirectUri = `${appUrl}/auth`;
  const authorize = new URL(`${platformUrl}/authorize`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: "openid profile email offline_access",
    audience,
    state,
    nonce: base64url(randomBytes(16)),
    code_challenge: base64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
  }).toString();
  const { url } = await browse(authorize.href, {
    jar,
    email,
    password,
    stopAt: (next) => next.startsWith(`${redirectUri}?`),
  });
  const callback = new URL(url);
  const code = callback.searchParams.get("code");
  if (!code || callback.searchParams.get("state") !== state) {
    throw new Error(`token: the provider did not return a code (${url})`);
  }
  const token = await request(`${platformUrl}/oauth/token`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  if (token.status !== 200) throw new Error(`token: ${describe(`${platformUrl}/oauth/token`, token)}`);
  const accessToken = JSON.parse(token.text()).access_token;
  if (typeof accessToken !== "string") throw new Error("token: the answer carried no access_token");
  return accessToken;
}
