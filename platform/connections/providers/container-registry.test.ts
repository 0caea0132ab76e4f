import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../providers";
import { ProviderRequestError } from "../providers";
import {
  closedPortUrl,
  leakedSecrets,
  providerContext,
  startFakeDockerHub,
  startFakeRegistry,
  startTestServer,
  type FakeRegistry,
  type TestServer,
} from "../../testing/provider-servers";
import {
  containerRegistry,
  dockerRegistry,
  githubContainerRegistry,
  parseChallenge,
} from "./container-registry";

const TOKEN = "dckr_pat_registry-S3CRET-0001";
const WRONG = "dckr_pat_wrong-S3CRET-0002";
const secrets = [TOKEN, WRONG];
const context = providerContext();

const tagsOfApi = Array.from({ length: 60 }, (_, index) => `v1.${String(index).padStart(2, "0")}`);

let tokenRegistry: FakeRegistry;
let bigPages: FakeRegistry;
let basicRegistry: FakeRegistry;
let closedCatalog: FakeRegistry;
let hubRegistry: FakeRegistry;
let hub: TestServer;
let notARegistry: TestServer;
let openRegistry: TestServer;
let unchallenged: TestServer;

beforeAll(async () => {
  tokenRegistry = await startFakeRegistry({
    username: "ada",
    token: TOKEN,
    pageSize: 2,
    repositories: {
      "team/api": tagsOfApi,
      "team/web": ["1.0", "latest"],
      "team/worker": ["latest"],
      tools: ["3"],
      empty: [],
    },
  });
  bigPages = await startFakeRegistry({
    username: "ada",
    token: TOKEN,
    pageSize: 25,
    repositories: { "team/api": tagsOfApi },
  });
  basicRegistry = await startFakeRegistry({
    username: "ada",
    token: TOKEN,
    auth: "basic",
    repositories: { "team/api": ["latest"] },
  });
  closedCatalog = await startFakeRegistry({
    username: "ada",
    token: TOKEN,
    catalog: false,
    repositories: { "ada/api": ["latest"] },
  });
  hubRegistry = await startFakeRegistry({
    username: "ada",
    token: TOKEN,
    catalog: false,
    repositories: { "library/nginx": ["1.27", "latest"], "ada/api": ["latest"] },
  });
  hub = await startFakeDockerHub({
    username: "ada",
    token: TOKEN,
    pageSize: 2,
    repositories: [
      { name: "api", description: "The API", lastUpdated: "2024-05-01T10:00:00Z" },
      { name: "web" },
      { name: "worker", description: "Jobs" },
    ],
  });
  notARegistry = await startTestServer({ "GET /": () => ({ body: "<html>welcome</html>" }) });
  openRegistry = await startTestServer({ "GET /v2/": () => ({ body: {} }) });
  unchallenged = await startTestServer({ "GET /v2/": () => ({ status: 401, body: { message: "log in" } }) });
});
afterAll(async () => {
  for (const server of [
    tokenRegistry,
    bigPages,
    basicRegistry,
    closedCatalog,
    hubRegistry,
    hub,
    notARegistry,
    openRegistry,
    unchallenged,
  ]) {
    await server.close();
  }
});

function docker(baseUrl: string, token = TOKEN): Credentials {
  return {
    kind: "DOCKER",
    method: "token",
    fields: { BASE_URL: baseUrl, USERNAME: "ada" },
    secrets: { TOKEN: token },
  };
}

/** Docker Hub as the provider sees it, with both of its addresses pointed at the test servers. */
function dockerHubProvider() {
  return containerRegistry({
    label: "Docker Hub",
    defaultBaseUrl: hubRegistry.url,
    hub: { registryUrl: hubRegistry.url, apiUrl: hub.url },
  });
}

async function refusal(promise: Promise<unknown>): Promise<ProviderRequestError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderRequestError);
  expect(leakedSecrets(error, secrets)).toEqual([]);
  return error as ProviderRequestError;
}

describe("the registry check", () => {
  it("makes the v2 token handshake and confirms the credentials", async () => {
    const before = tokenRegistry.requests.length;
    const result = await dockerRegistry.check(docker(tokenRegistry.url), context);
    const host = new URL(tokenRegistry.url).host;
    expect(result).toEqual({
      ok: true,
      message: `The registry at ${host} accepted the username and token.`,
      details: [`Registry: ${host}`, "User: ada"],
    });
    const [challenge, token, confirmed] = tokenRegistry.requests.slice(before);
    expect(challenge).toMatchObject({ method: "GET", path: "/v2/" });
    expect(challenge?.headers.authorization).toBeUndefined();
    expect(token?.path).toBe("/token");
    expect(token?.query.get("service")).toBe("fake-registry");
    expect(token?.headers.authorization).toBe(`Basic ${Buffer.from(`ada:${TOKEN}`).toString("base64")}`);
    expect(confirmed?.path).toBe("/v2/");
    expect(confirmed?.headers.authorization).toMatch(/^Bearer [0-9a-f]{32}$/);
  });

  it("says the registry refused a wrong token, on the token field", async () => {
    const result = await dockerRegistry.check(docker(tokenRegistry.url, WRONG), context);
    expect(result).toMatchObject({
      ok: false,
      message: `The registry refused the username or token (${new URL(tokenRegistry.url).host}): check both, and that the token may read the registry.`,
      field: "TOKEN",
    });
    expect(leakedSecrets(result, secrets)).toEqual([]);
  });

  it("signs in with Basic where the registry asks for it", async () => {
    const before = basicRegistry.requests.length;
    const result = await dockerRegistry.check(docker(basicRegistry.url), context);
    expect(result.ok).toBe(true);
    const requests = basicRegistry.requests.slice(before);
    expect(requests.map((request) => request.path)).toEqual(["/v2/", "/v2/"]);
    expect(requests[1]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`ada:${TOKEN}`).toString("base64")}`,
    );

    const refused = await dockerRegistry.check(docker(basicRegistry.url, WRONG), context);
    expect(refused).toMatchObject({ ok: false, field: "TOKEN" });
  });

  it("says so when the registry needs no credentials at all", async () => {
    const result = await dockerRegistry.check(docker(openRegistry.url), context);
    expect(result.ok).toBe(true);
    expect(result.message).toContain("answers without signing in: the username and token were not needed.");
  });

  it("points at the URL when the address is not a registry", async () => {
    const result = await dockerRegistry.check(docker(notARegistry.url), context);
    expect(result).toMatchObject({
      ok: false,
      message: `${new URL(notARegistry.url).host} does not answer as a Docker registry (GET /v2/ answered 404): check the registry URL.`,
      field: "BASE_URL",
    });
  });

  it("points at the URL when a 401 comes without a challenge, which registries always send", async () => {
    const result = await dockerRegistry.check(docker(unchallenged.url), context);
    expect(result).toMatchObject({ ok: false, field: "BASE_URL" });
    expect(result.message).toContain("answered 401 without saying how to sign in");
  });

  it("says a host that refuses connections or does not exist cannot be reached", async () => {
    const closed = await closedPortUrl();
    const refused = await dockerRegistry.check(docker(closed), context);
    expect(refused).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "BASE_URL",
    });
    const unknown = await dockerRegistry.check(docker("http://nothing.invalid"), context);
    expect(unknown).toMatchObject({ ok: false, field: "BASE_URL" });
    expect(unknown.message).toMatch(/^Could not reach nothing\.invalid: its name/);
  });

  it("names the GitHub Container Registry for ghcr.io connections", async () => {
    const result = await githubContainerRegistry.check(
      { ...docker(tokenRegistry.url), kind: "GITHUB" },
      context,
    );
    expect(result.message).toBe(
      `GitHub Container Registry at ${new URL(tokenRegistry.url).host} accepted the username and token.`,
    );
  });
});

describe("the registry listings", () => {
  it("lists the catalog page by page, with a token for the catalog scope", async () => {
    const before = tokenRegistry.requests.length;
    const repositories = await dockerRegistry.repositories(docker(tokenRegistry.url), context);
    expect(repositories?.map((repository) => repository.name)).toEqual([
      "empty",
      "team/api",
      "team/web",
      "team/worker",
      "tools",
    ]);
    const requests = tokenRegistry.requests.slice(before);
    const pages = requests.filter(
      (request) => request.path === "/v2/_catalog" && request.headers.authorization,
    );
    expect(pages.map((request) => request.query.get("last"))).toEqual([null, "team/api", "team/worker"]);
    expect(requests.find((request) => request.path === "/token")?.query.get("scope")).toBe(
      "registry:catalog:*",
    );
  });

  it("lists a repository's tags page by page, with the digests of the first 50", async () => {
    const before = bigPages.requests.length;
    const tags = (await dockerRegistry.tags(docker(bigPages.url), context, "team/api")) ?? [];
    expect(tags.map((tag) => tag.name)).toEqual(tagsOfApi);
    expect(tags[0]).toEqual({
      name: "v1.00",
      digest: bigPages.digestOf("team/api", "v1.00"),
      pushedAt: null,
    });
    expect(tags.filter((tag) => tag.digest)).toHaveLength(50);
    expect(tags[59]?.digest).toBeNull();

    const requests = bigPages.requests.slice(before);
    expect(
      requests.filter(
        (request) => request.path === "/v2/team/api/tags/list" && request.headers.authorization,
      ),
    ).toHaveLength(3);
    const heads = requests.filter((request) => request.method === "HEAD");
    expect(heads).toHaveLength(50);
    expect(heads[0]?.headers.accept).toContain("application/vnd.oci.image.index.v1+json");
    expect(requests.find((request) => request.path === "/token")?.query.get("scope")).toBe(
      "repository:team/api:pull",
    );
  });

  it("stops a listing after ten pages", async () => {
    const tags = await dockerRegistry.tags(docker(tokenRegistry.url), context, "team/api");
    expect(tags.map((tag) => tag.name)).toEqual(tagsOfApi.slice(0, 20));
  });

  it("lists an empty repository as no tags", async () => {
    await expect(dockerRegistry.tags(docker(tokenRegistry.url), context, "empty")).resolves.toEqual([]);
  });

  it("says which repository the registry does not know", async () => {
    const error = await refusal(dockerRegistry.tags(docker(tokenRegistry.url), context, "team/gone"));
    expect(error.message).toBe(
      `${new URL(tokenRegistry.url).host} has no repository "team/gone": repository name not known to registry.`,
    );
  });

  it("refuses a repository name that is not one", async () => {
    const error = await refusal(dockerRegistry.tags(docker(tokenRegistry.url), context, "../v2/_catalog"));
    expect(error.message).toContain('"../v2/_catalog" is not a repository name');
  });

  it("says the catalog is closed where the registry keeps it closed", async () => {
    const error = await refusal(dockerRegistry.repositories(docker(closedCatalog.url), context));
    expect(error.message).toBe(
      `${new URL(closedCatalog.url).host} does not list its repositories to this account (its catalog answered 401): name the repository to see its tags.`,
    );
  });

  it("turns a wrong token and an unreachable host into the listing's error", async () => {
    const wrong = await refusal(dockerRegistry.repositories(docker(tokenRegistry.url, WRONG), context));
    expect(wrong.message).toContain("The registry refused the username or token");
    const closed = await closedPortUrl();
    const unreachable = await refusal(dockerRegistry.tags(docker(closed), context, "team/api"));
    expect(unreachable.message).toBe(`Could not reach ${new URL(closed).host}: the connection was refused.`);
  });
});

describe("Docker Hub", () => {
  it("lists the account's repositories through hub.docker.com, page by page", async () => {
    const before = hub.requests.length;
    const repositories = await dockerHubProvider().repositories(docker(hubRegistry.url), context);
    expect(repositories).toEqual([
      { name: "ada/api", description: "The API", updatedAt: "2024-05-01T10:00:00Z" },
      { name: "ada/web", description: null, updatedAt: null },
      { name: "ada/worker", description: "Jobs", updatedAt: null },
    ]);
    const requests = hub.requests.slice(before);
    expect(JSON.parse(requests[0]?.body ?? "{}")).toEqual({ identifier: "ada", secret: TOKEN });
    expect(requests.slice(1).map((request) => request.query.get("page"))).toEqual([null, "2"]);
    expect(requests[1]?.headers.authorization).toMatch(/^Bearer /);
  });

  it("says Docker Hub refused a wrong token", async () => {
    const error = await refusal(dockerHubProvider().repositories(docker(hubRegistry.url, WRONG), context));
    expect(error.message).toBe("Docker Hub refused the username or token: check both.");
  });

  it("reads an official image's tags under library/", async () => {
    const tags = await dockerHubProvider().tags(docker(hubRegistry.url), context, "nginx");
    expect(tags?.map((tag) => [tag.name, tag.digest])).toEqual([
      ["1.27", hubRegistry.digestOf("library/nginx", "1.27")],
      ["latest", hubRegistry.digestOf("library/nginx", "latest")],
    ]);
  });
});

describe("parseChallenge", () => {
  it("reads the scheme and the parameters, commas inside quotes included", () => {
    expect(
      parseChallenge(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:a/b:pull,push"',
      ),
    ).toEqual({
      scheme: "bearer",
      params: {
        realm: "https://auth.docker.io/token",
        service: "registry.docker.io",
        scope: "repository:a/b:pull,push",
      },
    });
    expect(parseChallenge('Basic realm="Registry Realm"')).toEqual({
      scheme: "basic",
      params: { realm: "Registry Realm" },
    });
    expect(parseChallenge(null)).toBeUndefined();
  });
});
