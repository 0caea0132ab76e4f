import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoint, jsonOf, providerFetch, ProviderUnreachableError } from "./http";
import { closedPortUrl, startTestServer, type TestServer } from "../testing/provider-servers";

let server: TestServer;
/** Requests to /silent are held open until the test ends: the provider that never answers. */
const held: Array<() => void> = [];

beforeAll(async () => {
  server = await startTestServer({
    "GET /forbidden": () => ({ status: 403, body: { message: "no" } }),
    "GET /moved": () => ({ status: 302, headers: { Location: "https://elsewhere.example/steal" } }),
    "GET /page": () => ({ body: "<html>not json</html>" }),
    "GET /silent": () => new Promise((resolve) => held.push(() => resolve({ body: "late" }))),
  });
});
afterAll(async () => {
  for (const release of held) release();
  await server.close();
});

async function failure(url: string, timeoutMs?: number): Promise<ProviderUnreachableError> {
  const error = await providerFetch(url, {}, { timeoutMs }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderUnreachableError);
  return error as ProviderUnreachableError;
}

describe("providerFetch", () => {
  it("returns the provider's refusals for the caller to explain", async () => {
    const response = await providerFetch(`${server.url}/forbidden`);
    expect(response.status).toBe(403);
    expect(await jsonOf(response)).toEqual({ message: "no" });
  });

  it("does not follow redirects, so credentials never travel to another host", async () => {
    const response = await providerFetch(`${server.url}/moved`, { headers: { Authorization: "Bearer x" } });
    expect(response.status).toBe(302);
    expect(server.requests.filter((request) => request.path === "/moved")).toHaveLength(1);
  });

  it("says the connection was refused when nothing listens on the port", async () => {
    const url = await closedPortUrl();
    const error = await failure(`${url}/v2/`);
    expect(error.message).toBe(`Could not reach ${new URL(url).host}: the connection was refused.`);
  });

  it("says the name does not resolve for a host that does not exist", async () => {
    const error = await failure("http://nothing.invalid/api");
    expect(error.message).toMatch(
      /^Could not reach nothing\.invalid: its name (does not resolve|could not be resolved) \(is this machine offline/,
    );
  });

  it("gives up on a provider that does not answer in time", async () => {
    const error = await failure(`${server.url}/silent`, 1000);
    expect(error.message).toBe(`${new URL(server.url).host} did not answer within 1 second.`);
  });
});

describe("jsonOf and endpoint", () => {
  it("reads a body that is not JSON as undefined", async () => {
    expect(await jsonOf(await providerFetch(`${server.url}/page`))).toBeUndefined();
  });

  it("joins a base URL with or without a trailing slash and an API path", () => {
    expect(endpoint("https://api.github.com/", "/orgs/acme").href).toBe("https://api.github.com/orgs/acme");
    expect(endpoint("https://ghe.example/api/v3", "/orgs/acme").href).toBe(
      "https://ghe.example/api/v3/orgs/acme",
    );
  });
});
