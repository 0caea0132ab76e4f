import { generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../tests/setup/moto-server";
import { ProviderRequestError, type CheckResult, type Credentials, type ProviderContext } from "../providers";
import { gcp } from "./gcp";
import { gcpArtifactRegistry } from "./gcp-artifact-registry";
import { listen, sendJson, expectingNoLeak } from "../../testing/provider-requests";

/**
 * GCP and Artifact Registry against a server that answers like Google: its token endpoint verifies the JWT
 * bearer assertion's RS256 signature with the service account's registered public key, its audience and its
 * lifetime, and answers with Google's error bodies; the Artifact Registry API wants the token it issued.
 */

const project = "acme-prod";
const email = `deployer@${project}.iam.gserviceaccount.com`;
const location = "europe-west1";
const context: ProviderContext = {
  awsExternalId: "unused",
  organizationName: "Acme",
  appUrl: "http://localhost:3000",
  connection: () => Promise.resolve(undefined),
};

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    id: randomBytes(20).toString("hex"),
    publicKey,
    pem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}
const registered = keyPair();
/** A key the account once had: deleted in IAM, so Google no longer knows its public half. */
const deleted = keyPair();
/** Public keys by account and key id: what Google checks assertions against. */
const accounts = new Map<string, Map<string, KeyObject>>([
  [email, new Map([[registered.id, registered.publicKey]])],
]);
const issuedTokens: string[] = [];

let google: { url: string; close: () => Promise<void> };
let tokenUri: string;

function serviceAccountKey(
  key: { id: string; pem: string },
  overrides: Record<string, string | undefined> = {},
): string {
  return JSON.stringify({
    type: "service_account",
    project_id: project,
    private_key_id: key.id,
    private_key: key.pem,
    client_email: email,
    client_id: "104857382019384756102",
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    token_uri: tokenUri,
    ...overrides,
  });
}

function gcpCredentials(
  key: string,
  fields: Partial<Record<"PROJECT_ID" | "GCP_CLIENT_EMAIL", string>> = {},
): Credentials {
  return {
    kind: "GCP",
    method: "service-account",
    fields: { PROJECT_ID: project, GCP_CLIENT_EMAIL: email, ...fields },
    secrets: { GCP_SERVICE_ACCOUNT_KEY: key },
  };
}

function registryCredentials(repository: string, fields: Record<string, string> = {}): Credentials {
  return {
    kind: "GCP_ARTIFACT_REGISTRY",
    method: "service-account",
    fields: {
      PROJECT_ID: project,
      GCP_ARTIFACT_REGISTRY_LOCATION: location,
      GCP_ARTIFACT_REGISTRY_REPOSITORY: repository,
      GCP_CLIENT_EMAIL: email,
      BASE_URL: google.url,
      ...fields,
    },
    secrets: { GCP_SERVICE_ACCOUNT_KEY: serviceAccountKey(registered) },
  };
}

const secrets = () => [registered.pem, deleted.pem, ...issuedTokens];
const checkGcp = (credentials: Credentials): Promise<CheckResult> =>
  expectingNoLeak(secrets, () => gcp.check(credentials, context));
const checkRegistry = (credentials: Credentials): Promise<CheckResult> =>
  expectingNoLeak(secrets, () => gcpArtifactRegistry.check(credentials, context));

// ---------------------------------------------------------------------------------------------------------------
// The stand-in for oauth2.googleapis.com and artifactregistry.googleapis.com

const invalidGrant = (description: string) => ({ error: "invalid_grant", error_description: description });

async function token(body: string, response: ServerResponse) {
  const form = new URLSearchParams(body);
  if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
    return sendJson(response, 400, {
      error: "unsupported_grant_type",
      error_description: `Invalid grant_type: ${form.get("grant_type") ?? ""}`,
    });
  }
  const assertion = form.get("assertion") ?? "";
  let issuer: unknown;
  let keyId: string | undefined;
  try {
    keyId = decodeProtectedHeader(assertion).kid;
    issuer = JSON.parse(Buffer.from(assertion.split(".")[1] ?? "", "base64url").toString("utf8")).iss;
  } catch {
    return sendJson(response, 400, invalidGrant("Invalid JWT: Unable to parse JWT."));
  }
  const keys = typeof issuer === "string" ? accounts.get(issuer) : undefined;
  if (!keys) return sendJson(response, 400, invalidGrant("Invalid grant: account not found"));
  const publicKey = keyId ? keys.get(keyId) : undefined;
  if (!publicKey) return sendJson(response, 400, invalidGrant("Invalid JWT Signature."));
  try {
    const { payload } = await jwtVerify(assertion, publicKey, { algorithms: ["RS256"], audience: tokenUri });
    if (
      typeof payload.iat !== "number" ||
      typeof payload.exp !== "number" ||
      payload.exp - payload.iat > 3600
    ) {
      throw new joseErrors.JWTClaimValidationFailed("lifetime", payload, "exp");
    }
    if (payload.scope !== "https://www.googleapis.com/auth/cloud-platform") {
      return sendJson(response, 400, { error: "invalid_scope", error_description: "Invalid OAuth scope." });
    }
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      return sendJson(response, 400, invalidGrant("Invalid JWT Signature."));
    }
    return sendJson(
      response,
      400,
      invalidGrant(
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
      ),
    );
  }
  const accessToken = `ya29.c.${randomBytes(48).toString("base64url")}`;
  issuedTokens.push(accessToken);
  sendJson(response, 200, { access_token: accessToken, expires_in: 3599, token_type: "Bearer" });
}

const digest = (seed: string) => `sha256:${seed.repeat(64).slice(0, 64)}`;
const repositoryName = (repository: string) =>
  `projects/${project}/locations/${location}/repositories/${repository}`;
const image = (name: string, seed: string, tags: string[], uploadTime: string) => ({
  name: `${repositoryName("images")}/dockerImages/${encodeURIComponent(name)}@${digest(seed)}`,
  uri: `${location}-docker.pkg.dev/${project}/images/${name}@${digest(seed)}`,
  tags,
  imageSizeBytes: "2811478",
  uploadTime,
  mediaType: "application/vnd.docker.distribution.manifest.v2+json",
  buildTime: uploadTime,
  updateTime: uploadTime,
});
const images = [
  image("web", "a", ["latest", "v2"], "2024-05-02T10:00:00.123456Z"),
  image("web", "b", ["v1"], "2024-05-01T09:00:00.654321Z"),
  image("team/api", "c", [], "2024-04-01T08:00:00Z"),
  image("web", "d", [], "2024-04-20T08:00:00Z"),
];
const repositories: Record<string, { format: string }> = {
  images: { format: "DOCKER" },
  "maven-releases": { format: "MAVEN" },
};

function googleError(
  response: ServerResponse,
  code: number,
  status: string,
  message: string,
  reason?: string,
) {
  sendJson(response, code, {
    error: {
      code,
      message,
      status,
      ...(reason
        ? {
            details: [
              { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "googleapis.com" },
            ],
          }
        : {}),
    },
  });
}

function artifactRegistry(request: IncomingMessage, response: ServerResponse) {
  const bearer = request.headers.authorization?.replace(/^Bearer /, "");
  if (!bearer || !issuedTokens.includes(bearer)) {
    return googleError(
      response,
      401,
      "UNAUTHENTICATED",
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    );
  }
  const url = new URL(request.url ?? "/", google.url);
  const match = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/repositories\/([^/]+)(\/dockerImages)?$/.exec(
    url.pathname,
  );
  if (!match) return googleError(response, 404, "NOT_FOUND", "Requested entity was not found.");
  const [, projectId, locationId, repository = "", list] = match;
  if (projectId === "dormant-project") {
    return googleError(
      response,
      403,
      "PERMISSION_DENIED",
      "Artifact Registry API has not been used in project dormant-project before or it is disabled.",
      "SERVICE_DISABLED",
    );
  }
  if (repository === "restricted") {
    return googleError(
      response,
      403,
      "PERMISSION_DENIED",
      `Permission 'artifactregistry.repositories.get' denied on resource '//artifactregistry.googleapis.com/${repositoryName(repository)}' (or it may not exist).`,
      "IAM_PERMISSION_DENIED",
    );
  }
  const found = projectId === project && locationId === location ? repositories[repository] : undefined;
  if (!found) return googleError(response, 404, "NOT_FOUND", "Requested entity was not found.");
  if (!list) {
    return sendJson(response, 200, {
      name: repositoryName(repository),
      format: found.format,
      description: "Images of the Acme platform",
      createTime: "2024-01-01T00:00:00Z",
      updateTime: "2024-05-02T10:00:00Z",
      mode: "STANDARD_REPOSITORY",
    });
  }
  // Two per page whatever was asked: a server may return fewer than pageSize (AIP-158).
  const start = Number(url.searchParams.get("pageToken") ?? "0");
  const page = images.slice(start, start + 2);
  const next = start + 2 < images.length ? String(start + 2) : undefined;
  sendJson(response, 200, { dockerImages: page, ...(next ? { nextPageToken: next } : {}) });
}

beforeAll(async () => {
  google = await listen(async (request, body, response) => {
    if (request.method === "POST" && request.url === "/token") return token(body, response);
    if (request.method === "POST" && request.url === "/failing-token") {
      return sendJson(response, 503, {
        error: { code: 503, message: "The service is currently unavailable." },
      });
    }
    if (request.method === "GET") return artifactRegistry(request, response);
    response.writeHead(404).end();
  });
  tokenUri = `${google.url}/token`;
});

afterAll(async () => {
  await google?.close();
});

describe("GCP", () => {
  it("exchanges a JWT signed with the key for a token", async () => {
    expect(await checkGcp(gcpCredentials(serviceAccountKey(registered)))).toEqual({
      ok: true,
      message: `Google issued a token to ${email} for project ${project}.`,
      details: [`Service account ${email}`, `Project ${project}`],
    });
    expect(issuedTokens.length).toBeGreaterThan(0);
  });

  it("says the key was deleted when Google does not accept its signature", async () => {
    expect(await checkGcp(gcpCredentials(serviceAccountKey(deleted)))).toEqual({
      ok: false,
      message: `Google does not accept this key's signature: the key was deleted or disabled in IAM. Create a new key for ${email} and paste it.`,
      details: [],
      field: "GCP_SERVICE_ACCOUNT_KEY",
    });
  });

  it("says the account does not exist when Google does not know it", async () => {
    const gone = `removed@${project}.iam.gserviceaccount.com`;
    const result = await checkGcp(
      gcpCredentials(serviceAccountKey(registered, { client_email: gone }), { GCP_CLIENT_EMAIL: gone }),
    );
    expect(result).toEqual({
      ok: false,
      message: `Google has no service account ${gone}: it was deleted, or the e-mail is mistyped.`,
      details: [],
      field: "GCP_CLIENT_EMAIL",
    });
  });

  it("refuses a key of another account or project before calling Google", async () => {
    const other = "builder@acme-prod.iam.gserviceaccount.com";
    expect(
      await checkGcp(gcpCredentials(serviceAccountKey(registered), { GCP_CLIENT_EMAIL: other })),
    ).toEqual({
      ok: false,
      message: `The key belongs to ${email}, not ${other}: correct the e-mail or paste that account's key.`,
      details: [],
      field: "GCP_CLIENT_EMAIL",
    });
    expect(
      await checkGcp(gcpCredentials(serviceAccountKey(registered), { PROJECT_ID: "acme-staging" })),
    ).toEqual({
      ok: false,
      message: `The key belongs to project ${project}, not acme-staging: correct the project id or paste a key of that project.`,
      details: [],
      field: "PROJECT_ID",
    });
  });

  it("says what is wrong with a key that is not one", async () => {
    expect(await checkGcp(gcpCredentials('{"type": "authorized_user"}'))).toMatchObject({
      ok: false,
      message:
        'Value must be a service account key file: a JSON object with "type": "service_account", client_email and private_key.',
      field: "GCP_SERVICE_ACCOUNT_KEY",
    });
    const truncated = serviceAccountKey({ id: registered.id, pem: registered.pem.slice(0, 200) });
    expect(await checkGcp(gcpCredentials(truncated))).toMatchObject({
      ok: false,
      message:
        "The key's private_key is not a PEM private key: download a new JSON key from IAM and paste the whole file.",
      field: "GCP_SERVICE_ACCOUNT_KEY",
    });
  });

  it("says so when the token endpoint cannot be reached or fails", async () => {
    const closed = `http://127.0.0.1:${await freePort()}/token`;
    expect(await checkGcp(gcpCredentials(serviceAccountKey(registered, { token_uri: closed })))).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "GCP_SERVICE_ACCOUNT_KEY",
    });
    const unresolvable = gcpCredentials(
      serviceAccountKey(registered, { token_uri: "http://nothing.invalid/token" }),
    );
    expect(await checkGcp(unresolvable)).toMatchObject({
      ok: false,
      message:
        "Could not reach nothing.invalid: its name does not resolve (is this machine offline, or the address mistyped?).",
    });
    const failing = gcpCredentials(
      serviceAccountKey(registered, { token_uri: `${google.url}/failing-token` }),
    );
    expect(await checkGcp(failing)).toEqual({
      ok: false,
      message: `${new URL(google.url).host} answered 503: Google's token service is failing, try again later.`,
      details: [],
    });
  });
});

describe("GCP Artifact Registry", () => {
  it("reads the Docker repository with the service account's token", async () => {
    expect(await checkRegistry(registryCredentials("images"))).toEqual({
      ok: true,
      message: `Artifact Registry let ${email} read the Docker repository ${location}-docker.pkg.dev/${project}/images.`,
      details: [
        `Service account ${email}`,
        `Repository ${location}-docker.pkg.dev/${project}/images`,
        "Images of the Acme platform",
      ],
    });
  });

  it("refuses a repository of another format, a missing or forbidden one, and a project without the API", async () => {
    expect(await checkRegistry(registryCredentials("maven-releases"))).toEqual({
      ok: false,
      message:
        "The repository maven-releases holds MAVEN packages, not Docker images: choose a Docker repository.",
      details: [],
      field: "GCP_ARTIFACT_REGISTRY_REPOSITORY",
    });
    expect(await checkRegistry(registryCredentials("nothing-here"))).toEqual({
      ok: false,
      message: `Project ${project} has no Artifact Registry repository nothing-here in ${location}.`,
      details: [],
      field: "GCP_ARTIFACT_REGISTRY_REPOSITORY",
    });
    expect(await checkRegistry(registryCredentials("restricted"))).toEqual({
      ok: false,
      message: `The service account ${email} may not read the repository restricted (or it does not exist in ${location}): grant it the Artifact Registry Reader role on it.`,
      details: [],
      field: "GCP_CLIENT_EMAIL",
    });
    const dormant = registryCredentials("images", { PROJECT_ID: "dormant-project" });
    dormant.secrets.GCP_SERVICE_ACCOUNT_KEY = serviceAccountKey(registered, {
      project_id: "dormant-project",
    });
    expect(await checkRegistry(dormant)).toEqual({
      ok: false,
      message:
        "The Artifact Registry API is not enabled in project dormant-project: enable it in the Google Cloud console, then try again.",
      details: [],
      field: "PROJECT_ID",
    });
  });

  it("says so when the API cannot be reached", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await checkRegistry(registryCredentials("images", { BASE_URL: closed }))).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "BASE_URL",
    });
  });

  it("lists the images, page by page, as repositories", async () => {
    const listed = await expectingNoLeak(secrets, () =>
      gcpArtifactRegistry.repositories!(registryCredentials("images"), context),
    );
    expect(listed).toEqual([
      {
        name: "team/api",
        description: `${location}-docker.pkg.dev/${project}/images/team/api`,
        updatedAt: "2024-04-01T08:00:00Z",
      },
      {
        name: "web",
        description: `${location}-docker.pkg.dev/${project}/images/web`,
        updatedAt: "2024-05-02T10:00:00.123456Z",
      },
    ]);
  });

  it("lists an image's tags, the newest first", async () => {
    const tags = await expectingNoLeak(secrets, () =>
      gcpArtifactRegistry.tags!(registryCredentials("images"), context, "web"),
    );
    expect(tags).toEqual([
      { name: "latest", digest: digest("a"), pushedAt: "2024-05-02T10:00:00.123456Z" },
      { name: "v2", digest: digest("a"), pushedAt: "2024-05-02T10:00:00.123456Z" },
      { name: "v1", digest: digest("b"), pushedAt: "2024-05-01T09:00:00.654321Z" },
    ]);
    expect(await gcpArtifactRegistry.tags!(registryCredentials("images"), context, "team/api")).toEqual([]);
  });

  it("refuses listings in plain words", async () => {
    const missing = gcpArtifactRegistry.tags!(registryCredentials("images"), context, "mobile");
    await expect(missing).rejects.toBeInstanceOf(ProviderRequestError);
    await expect(missing).rejects.toThrow(
      `The repository ${location}-docker.pkg.dev/${project}/images has no image named mobile.`,
    );
    const deletedKey = registryCredentials("images");
    deletedKey.secrets.GCP_SERVICE_ACCOUNT_KEY = serviceAccountKey(deleted);
    const refused = expectingNoLeak(secrets, () => gcpArtifactRegistry.repositories!(deletedKey, context));
    await expect(refused).rejects.toBeInstanceOf(ProviderRequestError);
    await expect(refused).rejects.toThrow(/^Google does not accept this key's signature/);
  });
});
