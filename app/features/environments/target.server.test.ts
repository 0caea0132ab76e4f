import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "#contract/connections";
import { createPlatformClient } from "~/platform/client.server";
import { loadEnvironmentTarget } from "./target.server";
import { anEnvironment } from "./test-factories";

const BASE_URL = "http://platform.test";
const connectionUrl = `${BASE_URL}/api/v2/organizations/t1/connections/c-aws`;
// Unhandled requests fail the test: the simulated case must not ask the platform anything.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const api = createPlatformClient({
  baseUrl: BASE_URL,
  getAccessToken: async () => "token",
  retryDelaysMs: [],
  log: () => {},
});

const account: Connection = {
  id: "c-aws",
  kind: "AWS",
  category: "cloud-provider",
  name: "Acme production",
  method: "role",
  fields: {},
  secrets: {},
  status: "VERIFIED",
  lastCheck: null,
  usage: [],
  notifications: null,
  createdBy: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

describe("the shell's target line", () => {
  it("says Simulated cloud without asking the platform", async () => {
    expect(await loadEnvironmentTarget(api, "t1", anEnvironment({ name: "demo" }))).toBe("Simulated cloud");
  });

  it("names the connection of an environment in a cloud account", async () => {
    server.use(http.get(connectionUrl, () => HttpResponse.json({ connection: account })));
    const production = anEnvironment({ name: "production", cloudConnectionId: "c-aws" });
    expect(await loadEnvironmentTarget(api, "t1", production)).toBe("AWS account Acme production");
  });

  it("keeps the provider's noun when the connection cannot be read", async () => {
    server.use(http.get(connectionUrl, () => HttpResponse.json({ message: "down" }, { status: 500 })));
    const production = anEnvironment({ name: "production", cloudConnectionId: "c-aws" });
    expect(await loadEnvironmentTarget(api, "t1", production)).toBe("AWS account");
  });
});
