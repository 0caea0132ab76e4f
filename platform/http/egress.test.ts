import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionPaths } from "#contract/connections";
import { servicePaths } from "#contract/services";
import { sampleIndex } from "../testing/chart-indexes";
import { chartRepositories, connections } from "../db/schema";
import { emptyOutboundAllowList, setOutboundAllowList } from "../lib/egress";
import { startFakeGitHub, startTestServer, type TestServer } from "../testing/provider-servers";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/**
 * Issue 23, item 1: what a tenant types is never a way into the platform's own network. These run with an empty
 * OUTBOUND_ALLOW (the test set-up allows loopback for the stand-in servers), as a production platform does.
 */

const TOKEN = "github_pat_EGRESS-S3CRET-0001";

let api: TestApi;
let admin: TestMember;
let github: TestServer;
let charts: TestServer;

beforeAll(async () => {
  setOutboundAllowList(emptyOutboundAllowList);
  api = await openTestApi();
  admin = await api.createMember({ role: "admin" });
  await api.setFeatureFlag(admin.organization.tenantId, "version-control-connection", true);
  github = await startFakeGitHub({
    token: TOKEN,
    organizations: { acme: { repositories: [{ name: "api" }] } },
  });
  charts = await startTestServer({ "GET /index.yaml": () => ({ body: sampleIndex }) });
});

afterAll(async () => {
  await github.close();
  await charts.close();
  await api.close();
});

const t = () => admin.organization.tenantId;

describe("a GitHub connection whose API URL is an internal address", () => {
  it("is refused on the URL field, naming the address, with no request made and nothing stored", async () => {
    const response = await api.call("POST", connectionPaths.list(t()), {
      token: admin.user.token,
      json: {
        kind: "VERSION_CONTROL_TYPE_GITHUB",
        name: "Internal GitHub",
        method: "token",
        fields: { ORGANIZATION: "acme", TOKEN, BASE_URL: github.url },
      },
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { fieldErrors?: Record<string, string[]> };
    expect(body.fieldErrors?.["fields.BASE_URL"]?.[0]).toBe(
      "The platform does not call 127.0.0.1: it is a loopback address (this machine). Only public addresses " +
        "are called, unless the operator lists the address in OUTBOUND_ALLOW.",
    );
    expect(github.requests).toHaveLength(0);
    const [stored] = await api.db
      .select({ value: count() })
      .from(connections)
      .where(eq(connections.organizationId, admin.organization.organizationId));
    expect(stored?.value).toBe(0);
  });

  it("saved without verifying, lists nothing from there: the listing answers 502 with the refusal", async () => {
    const created = await api.call("POST", connectionPaths.list(t()), {
      token: admin.user.token,
      json: {
        kind: "VERSION_CONTROL_TYPE_GITHUB",
        name: "Unverified internal GitHub",
        method: "token",
        fields: { ORGANIZATION: "acme", TOKEN, BASE_URL: github.url },
        verify: false,
      },
    });
    expect(created.status).toBe(201);
    const { connection } = (await created.json()) as { connection: { id: string } };
    const listed = await api.call("GET", connectionPaths.repositories(t(), connection.id), {
      token: admin.user.token,
    });
    expect(listed.status).toBe(502);
    expect(await listed.json()).toMatchObject({
      message: expect.stringMatching(/^The platform does not call 127\.0\.0\.1: it is a loopback address/),
    });
    expect(github.requests).toHaveLength(0);
  });
});

describe("a chart repository on an internal address", () => {
  it("is refused on the URL field in each way a loopback address can be written, with no request made", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const port = new URL(charts.url).port;
    for (const [url, address] of [
      [`http://127.0.0.1:${port}`, "127.0.0.1"],
      [`http://127.1:${port}`, "127.0.0.1"],
      [`http://[::1]:${port}/`, "::1"],
      [`http://0.0.0.0:${port}/`, "0.0.0.0"],
      [`http://localhost:${port}/`, "localhost"],
    ] as const) {
      const response = await api.call("POST", servicePaths.chartRepositories(t(), environmentId), {
        token: admin.user.token,
        json: { name: "internal", url },
      });
      expect(response.status, url).toBe(400);
      const body = (await response.json()) as { fieldErrors?: Record<string, string[]> };
      expect(body.fieldErrors?.url?.[0], url).toMatch(
        new RegExp(`^The platform does not call ${address.replace(/[.[\]]/g, "\\$&")}: it `),
      );
    }
    expect(charts.requests).toHaveLength(0);
    const [stored] = await api.db
      .select({ value: count() })
      .from(chartRepositories)
      .where(eq(chartRepositories.environmentId, environmentId));
    expect(stored?.value).toBe(0);
  });
});
