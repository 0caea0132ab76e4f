import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chartListSchema,
  chartRepositoryMessages,
  chartRepositoryPaths,
  chartVersionListSchema,
} from "#contract/chart-repositories";
import { chartRepositoryResponseSchema, servicePaths } from "#contract/services";
import { sampleIndex } from "../testing/chart-indexes";
import { chartRepositories } from "../db/schema";
import { closedPortUrl, startTestServer, type TestServer } from "../testing/provider-servers";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
let member: TestMember;
let charts: TestServer;
beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember();
  await api.setFeatureFlag(member.organization.tenantId, "private-chart-apps", true);
  charts = await startTestServer({
    "GET /stable/index.yaml": () => ({ body: sampleIndex }),
    "GET /broken/index.yaml": () => ({ body: "apiVersion: v1\nentries:\n  nginx: [\n" }),
  });
});
afterAll(async () => {
  await charts.close();
  await api.close();
});

const t = () => member.organization.tenantId;
const call = (method: string, path: string, json?: unknown, as: TestMember = member) =>
  api.call(method, path, { token: as.user.token, json });

async function addRepository(environmentId: string, url: string, name = "stable") {
  const response = await call("POST", servicePaths.chartRepositories(t(), environmentId), { name, url });
  expect(response.status).toBe(201);
  return chartRepositoryResponseSchema.parse(await response.json()).chartRepository;
}

const rowsOf = async (environmentId: string) =>
  (
    await api.db
      .select({ value: count() })
      .from(chartRepositories)
      .where(eq(chartRepositories.environmentId, environmentId))
  )[0]?.value;

describe("POST chart-repositories", () => {
  it("saves a repository whose index answers", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const repository = await addRepository(environmentId, `${charts.url}/stable`);
    expect(repository).toMatchObject({ name: "stable", url: `${charts.url}/stable` });
    expect(charts.requests.filter((request) => request.path === "/stable/index.yaml")).not.toHaveLength(0);
  });

  it("refuses a repository that cannot be listed, saying why on the URL field, and stores nothing", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const closed = await closedPortUrl();
    for (const [url, message] of [
      [closed, `Could not reach ${new URL(closed).host}: the connection was refused.`],
      [
        `${charts.url}/missing`,
        `${new URL(charts.url).host} answered 404 Not Found for /missing/index.yaml: is the URL the repository's root, where its index.yaml is?`,
      ],
      [`${charts.url}/broken`, expect.stringMatching(/^The index is not valid YAML: Line \d/)],
    ] as const) {
      const response = await call("POST", servicePaths.chartRepositories(t(), environmentId), {
        name: "stable",
        url,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ fieldErrors: { url: [message] } });
    }
    expect(await rowsOf(environmentId)).toBe(0);
  });

  it("stores an OCI registry as it is: it has no index to check", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const repository = await addRepository(environmentId, "oci://registry.example.test/charts", "oci");
    const response = await call("GET", chartRepositoryPaths.charts(t(), environmentId, repository.id));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ message: chartRepositoryMessages.ociHasNoIndex });
  });
});

describe("listing a repository's charts and versions", () => {
  it("lists the charts by name and a chart's versions newest first, from one fetch of the index", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const repository = await addRepository(environmentId, `${charts.url}/stable`);
    const fetchesBefore = charts.requests.length;

    const listed = await call("GET", chartRepositoryPaths.charts(t(), environmentId, repository.id));
    expect(listed.status).toBe(200);
    const list = chartListSchema.parse(await listed.json());
    expect(list.charts.map((chart) => [chart.name, chart.latestVersion, chart.versionCount])).toEqual([
      ["nginx", "18.10.0", 3],
      ["redis", "1", 1],
    ]);
    expect(list.generatedAt).toBe("2026-01-12T08:00:00Z");

    const versions = await call(
      "GET",
      chartRepositoryPaths.versions(t(), environmentId, repository.id, "nginx"),
    );
    expect(versions.status).toBe(200);
    const body = chartVersionListSchema.parse(await versions.json());
    expect(body.chart).toBe("nginx");
    expect(body.versions.map((version) => version.version)).toEqual(["19.0.0-rc.1", "18.10.0", "18.2.0"]);
    expect(body.versions[1]).toEqual({
      version: "18.10.0",
      appVersion: "1.27.1",
      description: "NGINX Open Source is a web server",
      created: null,
      digest: null,
      urls: ["nginx-18.10.0.tgz"],
    });
    // The index checked by POST serves both listings.
    expect(charts.requests.length).toBe(fetchesBefore);

    const unknown = await call(
      "GET",
      chartRepositoryPaths.versions(t(), environmentId, repository.id, "mysql"),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: chartRepositoryMessages.chartNotFound });
  });

  it("answers 502 with the reason when the index can no longer be fetched", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const closed = await closedPortUrl();
    // Saved while it answered; the host has gone since.
    const [row] = await api.db
      .insert(chartRepositories)
      .values({ environmentId, name: "gone", url: closed })
      .returning();
    const response = await call("GET", chartRepositoryPaths.charts(t(), environmentId, row?.id ?? ""));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
    });
  });

  it("is behind the private-chart-apps flag", async () => {
    const other = await api.createMember();
    const { id: environmentId } = await api.createEnvironment(other.organization.tenantId);
    const created = await call(
      "POST",
      servicePaths.chartRepositories(other.organization.tenantId, environmentId),
      { name: "stable", url: `${charts.url}/stable` },
      other,
    );
    const { chartRepository } = chartRepositoryResponseSchema.parse(await created.json());
    const path = chartRepositoryPaths.charts(other.organization.tenantId, environmentId, chartRepository.id);
    const off = await call("GET", path, undefined, other);
    expect(off.status).toBe(404);
    expect(await off.json()).toMatchObject({ message: chartRepositoryMessages.flagOff });
    await api.setFeatureFlag(other.organization.tenantId, "private-chart-apps", true);
    expect((await call("GET", path, undefined, other)).status).toBe(200);
  });

  it("answers 404 for another tenant's repository, and for one of another environment", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const repository = await addRepository(environmentId, `${charts.url}/stable`);
    const stranger = await api.createMember();
    await api.setFeatureFlag(stranger.organization.tenantId, "private-chart-apps", true);
    const { id: strangersEnvironment } = await api.createEnvironment(stranger.organization.tenantId);
    const tenant = stranger.organization.tenantId;
    for (const path of [
      chartRepositoryPaths.charts(tenant, environmentId, repository.id),
      chartRepositoryPaths.versions(tenant, environmentId, repository.id, "nginx"),
      chartRepositoryPaths.charts(tenant, strangersEnvironment, repository.id),
      chartRepositoryPaths.versions(tenant, strangersEnvironment, repository.id, "nginx"),
    ]) {
      const response = await call("GET", path, undefined, stranger);
      expect(response.status).toBe(404);
      expect(JSON.stringify(await response.json())).not.toContain("nginx");
    }
    const { id: otherEnvironment } = await api.createEnvironment(t());
    const elsewhere = await call("GET", chartRepositoryPaths.charts(t(), otherEnvironment, repository.id));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ message: chartRepositoryMessages.notFound });
  });

  it("lets a read-only member list charts", async () => {
    const { id: environmentId } = await api.createEnvironment(t());
    const repository = await addRepository(environmentId, `${charts.url}/stable`);
    const reader = await api.createUser();
    await api.addMember(reader.id, member.organization.organizationId, "read-only");
    const response = await api.call("GET", chartRepositoryPaths.charts(t(), environmentId, repository.id), {
      token: reader.token,
    });
    expect(response.status).toBe(200);
  });
});
