import { createHmac } from "node:crypto";
import {
  CodeChallengeMethod,
  OAuth2Client,
  generateCodeVerifier,
  generateState,
  type OAuth2Tokens,
} from "arctic";
import { Auth0Strategy } from "remix-auth-auth0";
import type { Strategy } from "remix-auth/strategy";
import * as z from "zod";

export const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  revocation_endpoint: z.url().optional(),
});
export type Discovery = z.infer<typeof discoverySchema>;

/** Reads the issuer's OpenID discovery document; its issuer must be exactly the configured one. */
export async function discover(issuer: string, fetcher: typeof fetch = fetch): Promise<Discovery> {
  const response = await fetcher(`${issuer}.well-known/openid-configuration`, {
    headers: { Accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`Identity provider discovery failed with HTTP ${response.status}`);
  const discovery = discoverySchema.parse(await response.json());
  if (discovery.issuer !== issuer) {
    throw new Error(`Identity provider discovery names issuer "${discovery.issuer}", expected "${issuer}"`);
  }
  return discovery;
}

/**
 * The ID token's nonce is derived from the request's state with a server secret, so the callback can check it
 * without storing anything beyond the state the strategy already keeps.
 */
export function nonceForState(state: string, secret: string): string {
  return createHmac("sha256", secret).update(`nonce:${state}`).digest("base64url");
}

/** Auth0's authorization parameter that picks the Universal Login screen. */
export const SCREEN_HINT = "screen_hint";
/** The OpenID parameter that starts the sign-in (and Auth0's sign-up) screen with an address filled in. */
export const LOGIN_HINT = "login_hint";
/** An address is at most 254 characters; anything longer is not one and is dropped. */
const MAX_LOGIN_HINT_LENGTH = 254;

export type DiscoveredAuth0StrategyOptions = Omit<Auth0Strategy.ConstructorOptions, "domain"> & {
  discovery: Discovery;
  nonceSecret: string;
};

/**
 * remix-auth-auth0 with the endpoints taken from the issuer's discovery document.
 *
 * arctic (under remix-auth-auth0) hard-codes `https://{domain}/...`; real Auth0 publishes exactly those in its
 * discovery document, while the embedded identity provider serves plain http on localhost. Taking the endpoints
 * from discovery serves both without a certificate, and everything else (state cookie, PKCE, audience) stays
 * the Auth0 strategy's own.
 */
export class DiscoveredAuth0Strategy<User> extends Auth0Strategy<User> {
  private readonly discovery: Discovery;
  private readonly oauth: OAuth2Client;
  private readonly nonceSecret: string;

  constructor(
    options: DiscoveredAuth0StrategyOptions,
    verify: Strategy.VerifyFunction<User, Auth0Strategy.VerifyOptions>,
  ) {
    const { discovery, nonceSecret, ...auth0Options } = options;
    super({ ...auth0Options, domain: new URL(discovery.issuer).host }, verify);
    this.discovery = discovery;
    this.nonceSecret = nonceSecret;
    this.oauth = new OAuth2Client(options.clientId, options.clientSecret, options.redirectURI.toString());
  }

  protected override createAuthorizationURL() {
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const url = this.oauth.createAuthorizationURLWithPKCE(
      this.discovery.authorization_endpoint,
      state,
      CodeChallengeMethod.S256,
      codeVerifier,
      this.options.scopes ?? [],
    );
    return { state, codeVerifier, url };
  }

  protected override authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const extended = super.authorizationParams(params, request);
    const state = extended.get("state");
    if (state) extended.set("nonce", nonceForState(state, this.nonceSecret));
    // Forwarded from the request as the Auth0 strategy forwards `invitation`: Auth0 (and the embedded
    // provider) then open the sign-up screen instead of the login screen.
    const asked = new URL(request.url).searchParams;
    if (asked.get(SCREEN_HINT) === "signup") extended.set(SCREEN_HINT, "signup");
    // An invitation's page knows the invited address: the screen opens with it filled in.
    const loginHint = asked.get(LOGIN_HINT)?.trim();
    if (loginHint && loginHint.length <= MAX_LOGIN_HINT_LENGTH) extended.set(LOGIN_HINT, loginHint);
    return extended;
  }

  protected override validateAuthorizationCode(code: string, codeVerifier: string): Promise<OAuth2Tokens> {
    return this.oauth.validateAuthorizationCode(this.discovery.token_endpoint, code, codeVerifier);
  }

  override refreshToken(refreshToken: string): Promise<OAuth2Tokens> {
    return this.oauth.refreshAccessToken(this.discovery.token_endpoint, refreshToken, []);
  }

  override async revokeToken(token: string): Promise<void> {
    if (this.discovery.revocation_endpoint)
      await this.oauth.revokeToken(this.discovery.revocation_endpoint, token);
  }
}
