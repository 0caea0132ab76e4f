import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../providers";
import { ProviderRequestError } from "../providers";
import {
  closedPortUrl,
  leakedSecrets,
  providerContext,
  startFakeGitHub,
  startTestServer,
  type TestServer,
} from "../../testing/provider-servers";
import { dependabot } from "./dependabot";
import { github } from "./github";

const TOKEN = "github_pat_S3CRET-0001";
const WRONG = "github_pat_wrong-S3CRET-0002";
const secrets = [TOKEN, WRONG];

const manyRepositories = Array.from({ length: 150 }, (_, index) => ({
  name: `service-${String(index).padStart(3, "0")}`,
  description: index === 0 ? "The first one" : undefined,
}));
const manyBranches = Array.from({ length: 120 }, (_, index) => `feature/${String(index).padStart(3, "0")}`);

let api: TestServer;
let limited: TestServer;
let notGitHub: TestServer;
const resetsAt = Math.floor(Date.parse("2030-01-01T14:05:00Z") / 1000);

beforeAll(async () => {
  api = await startFakeGitHub({
    token: TOKEN,
    organizations: {
      acme: {
        name: "Acme Corp",
        repositories: [{ name: "api", branches: ["main", ...manyBranches] }, ...manyRepositories],
        dependabotAlerts: [
          { number: 7, repository: "api", severity: "high", summary: "Prototype pollution in lodash" },
          { number: 3, repository: "web", severity: "low", summary: "ReDoS in semver" },
        ],
      },
      quiet: { repositories: [], dependabotAlerts: [] },
      locked: { repositories: [{ name: "vault" }], dependabotAlerts: "forbidden" },
    },
  });
  limited = await startFakeGitHub({
    token: TOKEN,
    organizations: { acme: { repositories: [] } },
    rateLimitResetsAt: resetsAt,
  });
  notGitHub = await startTestServer({ "GET /": () => ({ body: "<html>GitHub Enterprise</html>" }) });
});
afterAll(async () => {
  for (const server of [api, limited, notGitHub]) await server.close();
});

function connection(organization: string, { token = TOKEN, baseUrl = api.url } = {}): Credentials {
  return {
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    method: "token",
    fields: { ORGANIZATION: organization, BASE_URL: baseUrl },
    secrets: { TOKEN: token },
  };
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

describe("the GitHub check", () => {
  it("confirms the organization and counts the repositories the token sees", async () => {
    const before = api.requests.length;
    const result = await github.check(connection("acme"));
    expect(result).toEqual({
      ok: true,
      message: "GitHub accepted the token for the organization acme.",
      details: ["Organization: Acme Corp (acme)", "Repositories the token can see: 151"],
    });
    const [organization, repositories] = api.requests.slice(before);
    expect(organization?.path).toBe("/orgs/acme");
    expect(organization?.headers).toMatchObject({
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      authorization: `Bearer ${TOKEN}`,
    });
    expect(repositories?.path).toBe("/orgs/acme/repos");
    expect(repositories?.query.get("per_page")).toBe("1");
  });

  it("says when the token sees no repository yet", async () => {
    const result = await github.check(connection("quiet"));
    expect(result.ok).toBe(true);
    expect(result.details).toEqual([
      "Organization: quiet",
      "Repositories the token can see: none yet (give the token access to the repositories to build from)",
    ]);
  });

  it("says GitHub refused a wrong token, on the token field", async () => {
    const result = await github.check(connection("acme", { token: WRONG }));
    expect(result).toEqual({
      ok: false,
      message: `GitHub (${new URL(api.url).host}) refused the token: it is wrong, expired or revoked.`,
      details: [],
      field: "TOKEN",
    });
  });

  it("says the organization is unknown or hidden from the token, on the organization field", async () => {
    const result = await github.check(connection("nobody"));
    expect(result).toMatchObject({
      ok: false,
      message: 'GitHub has no organization "nobody", or the token cannot see it.',
      field: "ORGANIZATION",
    });
  });

  it("says when the rate limit resets", async () => {
    const result = await github.check(connection("acme", { baseUrl: limited.url }));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(
      /^GitHub's rate limit for this token is used up; it resets at 14:05 UTC \(in \d+ minutes\)\. Try again then\.$/,
    );
    expect(result.field).toBeUndefined();
  });

  it("points at the API URL when it is not GitHub's API", async () => {
    const result = await github.check(connection("acme", { baseUrl: notGitHub.url }));
    expect(result).toMatchObject({ ok: false, field: "BASE_URL" });
    expect(result.message).toContain("does not answer like GitHub's API (HTTP 404)");
  });

  it("says a host that refuses connections or does not exist cannot be reached", async () => {
    const closed = await closedPortUrl();
    expect(await github.check(connection("acme", { baseUrl: closed }))).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "BASE_URL",
    });
    const unknown = await github.check(connection("acme", { baseUrl: "http://nothing.invalid" }));
    expect(unknown).toMatchObject({ ok: false, field: "BASE_URL" });
    expect(unknown.message).toMatch(/^Could not reach nothing\.invalid: its name/);
  });

  it("never shows the token", async () => {
    for (const result of [
      await github.check(connection("acme", { token: WRONG })),
      await github.check(connection("acme")),
      await github.check(connection("nobody")),
    ]) {
      expect(leakedSecrets(result, secrets)).toEqual([]);
    }
  });
});

describe("the GitHub listings", () => {
  it("lists the organization's repositories across pages", async () => {
    const before = api.requests.length;
    const repositories = await github.repositories(connection("acme"));
    expect(repositories).toHaveLength(151);
    expect(repositories[1]).toEqual({
      name: "service-000",
      description: "The first one",
      updatedAt: "2024-01-01T00:00:00Z",
    });
    const pages = api.requests.slice(before);
    expect(pages.map((request) => request.query.get("page"))).toEqual([null, "2"]);
    expect(pages[1]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("lists a repository's branches across pages, named with or without its owner", async () => {
    const branches = await github.branches(connection("acme"), providerContext(), "api");
    expect(branches).toHaveLength(121);
    expect(branches[0]?.name).toBe("main");
    expect(branches[0]?.commitSha).toMatch(/^[0-9a-f]{40}$/);
    const withOwner = await github.branches(connection("acme"), providerContext(), "acme/api");
    expect(withOwner).toEqual(branches);
  });

  it("says which repository GitHub does not show", async () => {
    const error = await refusal(github.branches(connection("acme"), providerContext(), "acme/gone"));
    expect(error.message).toBe('GitHub has no repository "acme/gone", or the token cannot see it.');
  });

  it("refuses a repository that is not owner/name", async () => {
    const error = await refusal(github.branches(connection("acme"), providerContext(), "a/b/c"));
    expect(error.message).toBe('"a/b/c" is not a GitHub repository: give "name" or "owner/name".');
    await refusal(github.branches(connection("acme"), providerContext(), "acme/.."));
  });

  it("turns a wrong token and an unreachable host into the listing's error", async () => {
    const wrong = await refusal(github.repositories(connection("acme", { token: WRONG })));
    expect(wrong.message).toContain("refused the token");
    const closed = await closedPortUrl();
    const unreachable = await refusal(github.repositories(connection("acme", { baseUrl: closed })));
    expect(unreachable.message).toBe(`Could not reach ${new URL(closed).host}: the connection was refused.`);
  });
});

describe("the Dependabot check", () => {
  const GITHUB_ID = "6f1c8a52-3f7e-4a43-9a8e-8f3f8a9c1d20";
  const dependabotConnection: Credentials = {
    kind: "VULNERABILITY_SCANNER_TYPE_DEPENDABOT",
    method: "github",
    fields: { GITHUB_CONNECTION_ID: GITHUB_ID },
    secrets: {},
  };
  const through = (githubConnection: Credentials | undefined) =>
    providerContext(githubConnection ? { [GITHUB_ID]: githubConnection } : {});

  it("reads the organization's alerts with the GitHub connection's token", async () => {
    const before = api.requests.length;
    const result = await dependabot.check(dependabotConnection, through(connection("acme")));
    expect(result).toEqual({
      ok: true,
      message: "The GitHub connection's token may read the Dependabot alerts of acme.",
      details: ["Organization: acme", "Latest alert: #7 (high) in api: Prototype pollution in lodash"],
    });
    const [request] = api.requests.slice(before);
    expect(request?.path).toBe("/orgs/acme/dependabot/alerts");
    expect(request?.query.get("per_page")).toBe("1");
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const quiet = await dependabot.check(dependabotConnection, through(connection("quiet")));
    expect(quiet.details).toEqual(["Organization: quiet", "No Dependabot alerts yet"]);
  });

  it("says the token lacks the Dependabot alerts permission", async () => {
    const result = await dependabot.check(dependabotConnection, through(connection("locked")));
    expect(result).toEqual({
      ok: false,
      message:
        'The GitHub connection\'s token may not read the Dependabot alerts of locked: give it the "Dependabot alerts" read permission (fine-grained token) or the security_events scope (classic token).',
      details: [],
      field: "GITHUB_CONNECTION_ID",
    });
  });

  it("sends a refused GitHub token back to the GitHub connection", async () => {
    const result = await dependabot.check(
      dependabotConnection,
      through(connection("acme", { token: WRONG })),
    );
    expect(result).toMatchObject({ ok: false, field: "GITHUB_CONNECTION_ID" });
    expect(result.message).toBe(
      `GitHub (${new URL(api.url).host}) refused the token: it is wrong, expired or revoked. Fix it on the GitHub connection.`,
    );
    expect(leakedSecrets(result, secrets)).toEqual([]);
  });

  it("needs a GitHub connection of the organization", async () => {
    const missing = await dependabot.check(dependabotConnection, through(undefined));
    expect(missing).toMatchObject({ ok: false, field: "GITHUB_CONNECTION_ID" });
    expect(missing.message).toBe(
      "Choose a GitHub connection of this organization: the one chosen does not exist.",
    );
    const registry = await dependabot.check(
      dependabotConnection,
      through({ ...connection("acme"), kind: "GITHUB" }),
    );
    expect(registry).toMatchObject({ ok: false, field: "GITHUB_CONNECTION_ID" });
  });

  it("says when GitHub cannot be reached", async () => {
    const closed = await closedPortUrl();
    const result = await dependabot.check(
      dependabotConnection,
      through(connection("acme", { baseUrl: closed })),
    );
    expect(result).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "GITHUB_CONNECTION_ID",
    });
  });
});
