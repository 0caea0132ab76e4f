import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { CONNECTION_CHECK_FAILED } from "#contract/connections";
import { isPlatformError } from "./client.server";
import { FAKE_PLATFORM_URL, fakePlatform } from "./fake-platform.test-support";
import {
  createConnection,
  createTicket,
  deleteConnection,
  listConnections,
  listTags,
  testConnection,
  updateNotificationRules,
} from "./connections.server";

const BASE_URL = FAKE_PLATFORM_URL;
const organization = `${BASE_URL}/api/v2/organizations/t1`;

const { server, api } = fakePlatform();

const check = {
  id: "k1",
  at: "2026-01-01T00:00:00Z",
  ok: false,
  message: "Datadog refused the API key",
  details: [],
  actor: { id: "u1", name: "Ada Lovelace" },
};
const connection = {
  id: "c1",
  kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
  category: "observability",
  name: "Datadog",
  method: "api-key",
  fields: { DD_URL: "https://api.datadoghq.com" },
  secrets: { DD_API_KEY: { set: true, lastFour: "1234" } },
  status: "VERIFIED",
  lastCheck: null,
  usage: [],
  notifications: null,
  createdBy: null,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
};
const request = {
  kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG" as const,
  name: "Datadog",
  method: "api-key",
  fields: { DD_URL: "https://api.datadoghq.com", DD_API_KEY: "secret-key-1234" },
  verify: true,
};

describe("connections client", () => {
  it("lists one category's connections", async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${organization}/connections`, ({ request: sent }) => {
        url = new URL(sent.url);
        return HttpResponse.json({ connections: [connection] });
      }),
    );
    const connections = await listConnections(api, "t1", { category: "observability" });
    expect(connections.map((one) => one.name)).toEqual(["Datadog"]);
    expect(url?.searchParams.get("category")).toBe("observability");
  });

  it("creates with the request as the body", async () => {
    let body: unknown;
    server.use(
      http.post(`${organization}/connections`, async ({ request: sent }) => {
        body = await sent.json();
        return HttpResponse.json({ connection }, { status: 201 });
      }),
    );
    expect((await createConnection(api, "t1", request)).id).toBe("c1");
    expect(body).toEqual(request);
  });

  it("carries a refused check's code, message and field to the form", async () => {
    server.use(
      http.post(`${organization}/connections`, () =>
        HttpResponse.json(
          {
            message: "Datadog refused the API key",
            code: CONNECTION_CHECK_FAILED,
            fieldErrors: { "fields.DD_API_KEY": ["Datadog refused the API key"] },
          },
          { status: 422 },
        ),
      ),
    );
    const error = await createConnection(api, "t1", request).catch((caught: unknown) => caught);
    expect(isPlatformError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 422,
      code: CONNECTION_CHECK_FAILED,
      message: "Datadog refused the API key",
      fieldErrors: { "fields.DD_API_KEY": ["Datadog refused the API key"] },
    });
  });

  it("tests a connection and answers the recorded check", async () => {
    server.use(
      http.post(`${organization}/connections/c1/checks`, () =>
        HttpResponse.json({ connection: { ...connection, status: "FAILING" }, check }),
      ),
    );
    const answer = await testConnection(api, "t1", "c1");
    expect(answer.check.ok).toBe(false);
    expect(answer.connection.status).toBe("FAILING");
  });

  it("deletes, and says what uses a connection that cannot be deleted", async () => {
    server.use(http.delete(`${organization}/connections/c1`, () => new HttpResponse(null, { status: 204 })));
    await expect(deleteConnection(api, "t1", "c1")).resolves.toBeUndefined();
    server.use(
      http.delete(`${organization}/connections/c1`, () =>
        HttpResponse.json({ message: "Datadog is in use by observability staging." }, { status: 409 }),
      ),
    );
    await expect(deleteConnection(api, "t1", "c1")).rejects.toMatchObject({
      status: 409,
      message: "Datadog is in use by observability staging.",
    });
  });

  it("asks for a repository's tags by name, slashes included", async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${organization}/connections/c1/tags`, ({ request: sent }) => {
        url = new URL(sent.url);
        return HttpResponse.json({ tags: [{ name: "1.0.0", digest: "sha256:abc", pushedAt: null }] });
      }),
    );
    expect((await listTags(api, "t1", "c1", "acme/web")).map((tag) => tag.name)).toEqual(["1.0.0"]);
    expect(url?.searchParams.get("repository")).toBe("acme/web");
  });

  it("saves notification rules and opens a ticket with the chosen connection", async () => {
    let rules: unknown;
    let ticketBody: unknown;
    server.use(
      http.put(`${organization}/connections/c1/notifications`, async ({ request: sent }) => {
        rules = await sent.json();
        return HttpResponse.json({ connection });
      }),
      http.post(`${organization}/environments/w1/infrastructure/r1/tickets`, async ({ request: sent }) => {
        ticketBody = await sent.json();
        return HttpResponse.json(
          { ticket: { key: "OPS-7", url: "https://acme.atlassian.net/browse/OPS-7" } },
          { status: 201 },
        );
      }),
    );
    await updateNotificationRules(api, "t1", "c1", { events: ["deployment.failed"], environmentIds: null });
    expect(rules).toEqual({ events: ["deployment.failed"], environmentIds: null });
    const ticket = await createTicket(api, "t1", {
      environmentId: "w1",
      serviceId: "r1",
      connectionId: "c1",
    });
    expect(ticket.key).toBe("OPS-7");
    expect(ticketBody).toEqual({ connectionId: "c1" });
  });
});
