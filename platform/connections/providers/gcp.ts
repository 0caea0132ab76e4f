import { createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import { serviceAccountKeyProblem } from "#contract/connections";
import { jsonOf } from "../http";
import type { Credentials, Provider } from "../providers";
import { checkWith, fetchOrRefuse, ProviderRefusal } from "../refusals";

/**
 * Google Cloud (SPEC §3): a service account's JSON key, checked by exchanging a JWT signed with its private key
 * for an access token at the key's token_uri (OAuth 2.0 JWT bearer grant, RFC 7523; Google's "service account
 * authorization without OAuth client"). Artifact Registry uses the token for its API calls.
 */

export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
export const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

type ServiceAccountKey = {
  clientEmail: string;
  projectId?: string;
  privateKey: KeyObject;
  privateKeyId?: string;
  tokenUri: URL;
};

/** The pasted key, or a refusal that says what is wrong with it (without quoting any of it). */
function serviceAccountKey(credentials: Credentials): ServiceAccountKey {
  const raw = credentials.secrets.GCP_SERVICE_ACCOUNT_KEY ?? "";
  const problem = serviceAccountKeyProblem(raw);
  if (problem) throw new ProviderRefusal(problem, "GCP_SERVICE_ACCOUNT_KEY");
  const key = JSON.parse(raw) as Record<string, unknown>;
  const text = (name: string) => (typeof key[name] === "string" ? key[name] : undefined);

  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(text("private_key") ?? "");
  } catch {
    throw new ProviderRefusal(
      "The key's private_key is not a PEM private key: download a new JSON key from IAM and paste the whole file.",
      "GCP_SERVICE_ACCOUNT_KEY",
    );
  }
  let tokenUri: URL;
  try {
    tokenUri = new URL(text("token_uri") ?? GOOGLE_TOKEN_URI);
    if (!["https:", "http:"].includes(tokenUri.protocol)) throw new Error("not http(s)");
  } catch {
    throw new ProviderRefusal(
      "The key's token_uri is not an http(s) address: paste the JSON key file as Google issued it.",
      "GCP_SERVICE_ACCOUNT_KEY",
    );
  }
  return {
    clientEmail: text("client_email") ?? "",
    projectId: text("project_id"),
    privateKey,
    privateKeyId: text("private_key_id"),
    tokenUri,
  };
}

type TokenAnswer = { access_token?: unknown; error?: unknown; error_description?: unknown };

/**
 * Google's token endpoint refusals (OAuth's `error` and `error_description`) in plain words. Its failures are
 * another shape (`error` is then Google's error object): those only say the service is failing.
 */
function tokenRefusal(
  status: number,
  body: TokenAnswer | undefined,
  key: ServiceAccountKey,
): ProviderRefusal {
  const error = typeof body?.error === "string" ? body.error : undefined;
  const description = typeof body?.error_description === "string" ? body.error_description : "";
  const host = key.tokenUri.host;
  if (status >= 500) {
    return new ProviderRefusal(
      `${host} answered ${status}: Google's token service is failing, try again later.`,
    );
  }
  if (error === "invalid_grant" && /signature/i.test(description)) {
    return new ProviderRefusal(
      `Google does not accept this key's signature: the key was deleted or disabled in IAM. Create a new key for ${key.clientEmail} and paste it.`,
      "GCP_SERVICE_ACCOUNT_KEY",
    );
  }
  if (error === "invalid_grant" && /account not found/i.test(description)) {
    return new ProviderRefusal(
      `Google has no service account ${key.clientEmail}: it was deleted, or the e-mail is mistyped.`,
      "GCP_CLIENT_EMAIL",
    );
  }
  if (error === "invalid_grant" && /iat|exp|timeframe/i.test(description)) {
    return new ProviderRefusal(
      `Google refused the token's times: this machine's clock is probably wrong (${description}).`,
    );
  }
  if (error) {
    return new ProviderRefusal(
      `Google refused the service account key (${error}${description ? `: ${description}` : ""}).`,
      "GCP_SERVICE_ACCOUNT_KEY",
    );
  }
  return new ProviderRefusal(
    `${host} answered ${status} without a token: is the key's token_uri Google's token endpoint?`,
    "GCP_SERVICE_ACCOUNT_KEY",
  );
}

/**
 * An access token for the connection's service account (cloud-platform scope). The key must be the account's
 * (GCP_CLIENT_EMAIL) and, when it names one, of the project (PROJECT_ID).
 */
export async function gcpAccessToken(
  credentials: Credentials,
): Promise<{ token: string; clientEmail: string }> {
  const key = serviceAccountKey(credentials);
  const { GCP_CLIENT_EMAIL: clientEmail, PROJECT_ID: projectId } = credentials.fields;
  if (key.clientEmail !== clientEmail) {
    throw new ProviderRefusal(
      `The key belongs to ${key.clientEmail}, not ${clientEmail}: correct the e-mail or paste that account's key.`,
      "GCP_CLIENT_EMAIL",
    );
  }
  if (key.projectId && key.projectId !== projectId) {
    throw new ProviderRefusal(
      `The key belongs to project ${key.projectId}, not ${projectId}: correct the project id or paste a key of that project.`,
      "PROJECT_ID",
    );
  }

  const assertion = await new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) })
    .setIssuer(key.clientEmail)
    .setAudience(key.tokenUri.href)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key.privateKey);
  const response = await fetchOrRefuse(
    key.tokenUri,
    {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
    },
    "GCP_SERVICE_ACCOUNT_KEY",
  );
  const body = (await jsonOf(response)) as TokenAnswer | undefined;
  if (response.ok && typeof body?.access_token === "string") {
    return { token: body.access_token, clientEmail: key.clientEmail };
  }
  throw tokenRefusal(response.status, body, key);
}

export const gcp: Provider = {
  check: (credentials) =>
    checkWith(async () => {
      const { clientEmail } = await gcpAccessToken(credentials);
      return {
        message: `Google issued a token to ${clientEmail} for project ${credentials.fields.PROJECT_ID}.`,
        details: [`Service account ${clientEmail}`, `Project ${credentials.fields.PROJECT_ID}`],
      };
    }),
};
