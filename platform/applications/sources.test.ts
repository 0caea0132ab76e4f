import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../connections/providers";
import {
  providerContext,
  startFakeGitHub,
  startTestServer,
  type TestServer,
} from "../testing/provider-servers";
import { connectionSources } from "./sources";

/*
 * A GitHub repository's archive for a container build (issue 26): GitHub's tarball API answers a redirect to
 * codeload, another host. Each hop goes through the egress policy, and the connection's token goes to GitHub's
 * API only.
 */

const token = "github-archive-token";
const servers: TestServer[] = [];

async function sourcesRedirectingTo(codeloadOrigin?: string) {
  const github = await startFakeGitHub({
    token,
    organizations: { acme: { repositories: [{ name: "web", files: { Dockerfile: "FROM scratch\n" } }] } },
    ...(codeloadOrigin ? { codeloadOrigin } : {}),
  });
  servers.push(github);
  const credentials: Credentials = {
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    method: "token",
    fields: { BASE_URL: github.url, ORGANIZATION: "acme" },
    secrets: { TOKEN: token },
  };
  return connectionSources({ connection: async () => credentials, providerContext: providerContext() });
}

let codeload: TestServer;
beforeAll(async () => {
  // Another origin serving the archive, as codeload.github.com does, recording what it was sent.
  codeload = await startTestServer({
    "GET /codeload/:owner/:repo/legacy.tar.gz/:ref": () => ({ status: 404, body: "404: Not Found" }),
  });
  servers.push(codeload);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe("a GitHub repository's archive", () => {
  it("follows GitHub's redirect and answers the gzipped tar of the commit", async () => {
    const sources = await sourcesRedirectingTo();
    const archive = await sources.githubArchive("github", { owner: "acme", name: "web", commit: "main" });
    const tar = gunzipSync(archive).toString("latin1");
    expect(tar).toContain("acme-web-");
    expect(tar).toContain("FROM scratch");
  });

  it("sends the connection's token to GitHub's API only, never to the host it redirects to", async () => {
    const sources = await sourcesRedirectingTo(codeload.url);
    await expect(
      sources.githubArchive("github", { owner: "acme", name: "web", commit: "main" }),
    ).rejects.toThrow(
      `GitHub's archive host ${new URL(codeload.url).host} answered 404 for acme/web at main.`,
    );
    const [request] = codeload.requests;
    expect(request?.path).toBe("/codeload/acme/web/legacy.tar.gz/main");
    expect(request?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(request?.headers)).not.toContain(token);
  });

  it("refuses a redirect to an address the egress policy refuses, in its words", async () => {
    const sources = await sourcesRedirectingTo("http://169.254.169.254");
    await expect(
      sources.githubArchive("github", { owner: "acme", name: "web", commit: "main" }),
    ).rejects.toThrow(/169\.254\.169\.254.*(link-local|metadata|refus)/i);
  });
});
