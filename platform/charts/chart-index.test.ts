import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPortUrl, startTestServer, type TestServer } from "../testing/provider-servers";
import {
  ChartIndexError,
  chartSummariesOf,
  compareVersions,
  createChartIndexReader,
  fetchChartIndex,
  parseChartIndex,
} from "./chart-index";
import { sampleIndex } from "../testing/chart-indexes";

let server: TestServer;
let stalling: Server;
let stallingUrl: string;
const held: Array<() => void> = [];

beforeAll(async () => {
  server = await startTestServer({
    "GET /good/index.yaml": () => ({ headers: { "Content-Type": "text/yaml" }, body: sampleIndex }),
    "GET /broken/index.yaml": () => ({ body: "apiVersion: v1\nentries:\n  nginx: [\n" }),
    "GET /html/index.yaml": () => ({ body: "<html><body>Welcome</body></html>" }),
    "GET /v2/index.yaml": () => ({ body: "apiVersion: v2\nentries: {}\n" }),
    "GET /huge/index.yaml": () => ({ body: `apiVersion: v1\n# ${"x".repeat(5000)}\nentries: {}\n` }),
    "GET /moved/index.yaml": (request) => ({
      status: 302,
      headers: { Location: `${request.origin}/good/index.yaml` },
    }),
    "GET /silent/index.yaml": () => new Promise((resolve) => held.push(() => resolve({ body: "late" }))),
  });
  // Sends the headers and the start of the index, then nothing: the time-out covers the body too.
  stalling = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/yaml" });
    response.write("apiVersion: v1\nentries:\n");
    held.push(() => response.end());
  });
  await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
  stallingUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const release of held) release();
  await server.close();
  await new Promise((resolve) => stalling.close(resolve));
});

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ChartIndexError);
  return (error as ChartIndexError).message;
}

describe("parseChartIndex", () => {
  it("lists each chart's versions newest first, reading unquoted numbers as versions", () => {
    const index = parseChartIndex(sampleIndex);
    expect(index.generatedAt).toBe("2026-01-12T08:00:00Z");
    expect(index.charts.get("nginx")?.map((entry) => entry.version)).toEqual([
      "19.0.0-rc.1",
      "18.10.0",
      "18.2.0",
    ]);
    expect(index.charts.get("nginx")?.[2]).toEqual({
      version: "18.2.0",
      appVersion: "1.27.0",
      description: "NGINX Open Source is a web server",
      created: "2026-01-10T12:00:00.000000000Z",
      digest: "2c9f0e3b",
      urls: ["https://charts.example.test/nginx-18.2.0.tgz"],
      icon: "https://charts.example.test/nginx.png",
      deprecated: false,
    });
    expect(index.charts.get("redis")?.[0]?.version).toBe("1");
  });

  it("summarizes charts by name with their latest release (a pre-release is not the latest)", () => {
    expect(chartSummariesOf(parseChartIndex(sampleIndex))).toEqual([
      {
        name: "nginx",
        latestVersion: "18.10.0",
        appVersion: "1.27.1",
        description: "NGINX Open Source is a web server",
        icon: null,
        deprecated: false,
        versionCount: 3,
      },
      {
        name: "redis",
        latestVersion: "1",
        appVersion: "7.4",
        description: "Redis",
        icon: null,
        deprecated: true,
        versionCount: 1,
      },
    ]);
  });

  it("says where YAML is malformed, and what makes a document not an index", () => {
    expect(() => parseChartIndex("apiVersion: v1\nentries:\n  nginx: [\n")).toThrow(
      /^The index is not valid YAML: Line \d, column \d+: .+\.$/,
    );
    expect(() => parseChartIndex("entries: {}\n")).toThrow(
      "This is not a Helm repository index: it has no apiVersion (at apiVersion).",
    );
    expect(() => parseChartIndex("apiVersion: v1\nentries: [1]\n")).toThrow(
      "This is not a Helm repository index: its entries must map each chart's name to a list of versions (at entries).",
    );
    expect(() => parseChartIndex("apiVersion: v1\nentries:\n  nginx:\n  - name: nginx\n")).toThrow(
      "This is not a Helm repository index: each version must have a version number (at entries.nginx.0.version).",
    );
    expect(() =>
      parseChartIndex("apiVersion: v1\nentries:\n  nginx:\n  - version: 1.0.0\n    urls: 5\n"),
    ).toThrow(/^This is not a Helm repository index: .+ \(at entries\.nginx\.0\.urls\)\.$/);
    expect(() => parseChartIndex("apiVersion: v2\nentries: {}\n")).toThrow("its apiVersion is v2, not v1");
  });

  it("compares versions as Helm does", () => {
    expect(compareVersions("1.10.0", "1.9.0")).toBeGreaterThan(0);
    expect(compareVersions("2.0.0-rc.1", "2.0.0")).toBeLessThan(0);
    expect(compareVersions("2.0.0-rc.10", "2.0.0-rc.2")).toBeGreaterThan(0);
    expect(compareVersions("v1.2.3", "1.2.3")).toBe(0);
  });
});

describe("fetchChartIndex", () => {
  it("fetches <url>/index.yaml, with or without a trailing slash, and follows redirects", async () => {
    expect((await fetchChartIndex(`${server.url}/good/`)).charts.size).toBe(2);
    expect((await fetchChartIndex(`${server.url}/moved`)).charts.size).toBe(2);
  });

  it("says what the repository answered instead of an index", async () => {
    const host = new URL(server.url).host;
    expect(await failure(fetchChartIndex(`${server.url}/nowhere`))).toBe(
      `${host} answered 404 Not Found for /nowhere/index.yaml: is the URL the repository's root, where its index.yaml is?`,
    );
    expect(await failure(fetchChartIndex(`${server.url}/broken`))).toMatch(
      /^The index is not valid YAML: Line /,
    );
    expect(await failure(fetchChartIndex(`${server.url}/html`))).toBe(
      "This is not a Helm repository index: the file is not a YAML mapping with apiVersion and entries.",
    );
    expect(await failure(fetchChartIndex(`${server.url}/v2`))).toMatch(/its apiVersion is v2, not v1/);
  });

  it("refuses an index larger than the limit", async () => {
    expect(await failure(fetchChartIndex(`${server.url}/huge`, { maxBytes: 4096 }))).toBe(
      `The index at ${server.url}/huge/index.yaml is larger than 4 KB, the most the platform reads.`,
    );
  });

  it("refuses a body that grows past the limit without saying its length", async () => {
    const growing = createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/yaml" }); // chunked: no Content-Length
      response.write("apiVersion: v1\n");
      response.end(`# ${"y".repeat(8192)}\n`);
    });
    await new Promise<void>((resolve) => growing.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(growing.address() as AddressInfo).port}`;
      expect(await failure(fetchChartIndex(url, { maxBytes: 4096 }))).toMatch(/is larger than 4 KB/);
    } finally {
      await new Promise((resolve) => growing.close(resolve));
    }
  });

  it("says the host cannot be reached, never hanging", async () => {
    const closed = await closedPortUrl();
    expect(await failure(fetchChartIndex(closed))).toBe(
      `Could not reach ${new URL(closed).host}: the connection was refused.`,
    );
    expect(await failure(fetchChartIndex("https://charts.nothing.invalid/stable"))).toMatch(
      /^Could not reach charts\.nothing\.invalid: its name (does not resolve|could not be resolved) \(is this machine offline/,
    );
  });

  it("gives up on a repository that does not answer, or stops sending, within the time-out", async () => {
    const host = new URL(server.url).host;
    expect(await failure(fetchChartIndex(`${server.url}/silent`, { timeoutMs: 500 }))).toBe(
      `${host} did not answer within 1 second.`,
    );
    const started = Date.now();
    expect(await failure(fetchChartIndex(stallingUrl, { timeoutMs: 500 }))).toBe(
      `${new URL(stallingUrl).host} did not answer within 1 second.`,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("the index reader", () => {
  it("keeps a fetched index for five minutes per repository", async () => {
    let fetches = 0;
    let clock = 0;
    const reader = createChartIndexReader({
      fetchIndex: () => {
        fetches += 1;
        return Promise.resolve(parseChartIndex(sampleIndex));
      },
      now: () => clock,
    });
    const repository = { id: "r1", url: "https://charts.example.test" };
    await reader.read(repository);
    await reader.read(repository);
    expect(fetches).toBe(1);
    await reader.read({ ...repository, url: "https://other.example.test" });
    expect(fetches).toBe(2);
    clock += 5 * 60 * 1000;
    await reader.read(repository);
    expect(fetches).toBe(3);
  });
});
