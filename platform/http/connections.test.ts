import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  awsRoleSetupSchema,
  CONNECTION_CHECK_FAILED,
  connectionCheckListSchema,
  connectionCheckResponseSchema,
  connectionListSchema,
  connectionPaths,
  connectionResponseSchema,
  type CreateConnection,
} from "#contract/connections";
import { apiErrorSchema } from "#contract/error-body";
import { defaultTerraformConfig } from "../lib/config";
import { auditEvents, connections, environments, observabilityProviders, organizations } from "../db/schema";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

const GOOD_KEY = "dd-key-0123456789abcdef-good";
const WRONG_KEY = "dd-key-0123456789abcdef-wrong";

/** Answers GET /api/v1/validate as Datadog does: 200 {valid:true} for a known key, 403 with errors otherwise. */
let datadog: Server;
let datadogUrl: string;
let acceptedKeys = new Set([GOOD_KEY]);
const seenKeys: string[] = [];

let api: TestApi;
let admin: TestMember;
const logged: string[] = [];

beforeAll(async () => {
  datadog = createServer((request: IncomingMessage, response) => {
    const key = String(request.headers["dd-api-key"] ?? "");
    seenKeys.push(key);
    if (request.url !== "/api/v1/validate") {
      response.writeHead(404).end();
    } else if (acceptedKeys.has(key)) {
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ valid: true }));
    } else {
      response
        .writeHead(403, { "Content-Type": "application/json" })
        .end(JSON.stringify({ errors: ["Forbidden"] }));
    }
  });
  await new Promise<void>((resolve) => datadog.listen(0, "127.0.0.1", resolve));
  datadogUrl = `http://127.0.0.1:${(datadog.address() as AddressInfo).port}`;
  api = await openTestApi();
  admin = await api.createMember({ role: "admin" });
  for (const method of ["log", "info", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
  }
});

afterEach(() => {
  acceptedKeys = new Set([GOOD_KEY]);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await api?.close();
  await new Promise<void>((resolve) => datadog.close(() => resolve()));
});

const t = (member: TestMember = admin) => member.organization.tenantId;

function datadogConnection(overrides: Partial<CreateConnection> = {}): CreateConnection {
  return {
    kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
    name: `Datadog ${Math.random().toString(36).slice(2, 8)}`,
    method: "api-key",
    fields: { DD_URL: datadogUrl, DD_API_KEY: GOOD_KEY },
    ...overrides,
  };
}

async function create(body: CreateConnection, member: TestMember = admin) {
  const response = await api.call("POST", connectionPaths.list(t(member)), {
    token: member.user.token,
    json: body,
  });
  return { response, text: await response.clone().text() };
}

async function createVerified(overrides: Partial<CreateConnection> = {}, member: TestMember = admin) {
  const { response } = await create(datadogConnection(overrides), member);
  expect(response.status).toBe(201);
  return connectionResponseSchema.parse(await response.json()).connection;
}

describe("saving a connection", () => {
  it("checks the credentials with the provider, then stores them sealed and answers without them", async () => {
    const { response, text } = await create(datadogConnection({ name: "Datadog EU" }));
    expect(response.status).toBe(201);
    const { connection } = connectionResponseSchema.parse(JSON.parse(text));
    expect(connection).toMatchObject({
      kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
      category: "observability",
      name: "Datadog EU",
      status: "VERIFIED",
      fields: { DD_URL: datadogUrl },
      secrets: { DD_API_KEY: { set: true, lastFour: "good" } },
      lastCheck: { ok: true, actor: { id: admin.user.id } },
    });
    expect(connection.lastCheck?.message).toContain("Datadog accepted the API key");
    expect(text).not.toContain(GOOD_KEY);
    expect(seenKeys).toContain(GOOD_KEY);

    const [row] = await api.db.select().from(connections).where(eq(connections.id, connection.id));
    expect(row?.sealedSecrets).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(GOOD_KEY);
  });

  it("refuses credentials the provider refuses with its answer on the field, and stores nothing", async () => {
    const before = await api.db.select().from(connections);
    const { response } = await create(
      datadogConnection({ fields: { DD_URL: datadogUrl, DD_API_KEY: WRONG_KEY } }),
    );
    expect(response.status).toBe(422);
    const body = apiErrorSchema.parse(await response.json());
    expect(body.code).toBe(CONNECTION_CHECK_FAILED);
    expect(body.message).toMatch(/Datadog refused the API key/);
    expect(body.fieldErrors?.["fields.DD_API_KEY"]).toEqual([body.message]);
    expect(JSON.stringify(body)).not.toContain(WRONG_KEY);
    expect(await api.db.select().from(connections)).toHaveLength(before.length);
  });

  it("says an unreachable host is unreachable, quickly", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { response } = await create(
      datadogConnection({ fields: { DD_URL: `http://127.0.0.1:${port}`, DD_API_KEY: GOOD_KEY } }),
    );
    expect(response.status).toBe(422);
    const body = apiErrorSchema.parse(await response.json());
    expect(body.message).toBe(`Could not reach 127.0.0.1:${port}: the connection was refused.`);
    expect(body.fieldErrors?.["fields.DD_URL"]).toEqual([body.message]);
  });

  it("saves without verifying when asked, as unverified and never checked", async () => {
    const { response } = await create(
      datadogConnection({ fields: { DD_URL: datadogUrl, DD_API_KEY: WRONG_KEY }, verify: false }),
    );
    expect(response.status).toBe(201);
    const { connection } = connectionResponseSchema.parse(await response.json());
    expect(connection.status).toBe("UNVERIFIED");
    expect(connection.lastCheck).toBeNull();
  });

  it("saves a refused connection when asked, as failing with the refused check recorded (time and message)", async () => {
    const { response } = await create(
      datadogConnection({
        fields: { DD_URL: datadogUrl, DD_API_KEY: WRONG_KEY },
        ifRefused: "save",
      }),
    );
    expect(response.status).toBe(201);
    const { connection } = connectionResponseSchema.parse(await response.json());
    expect(connection.status).toBe("FAILING");
    expect(connection.lastCheck).toMatchObject({ ok: false, at: expect.any(String) });
    expect(connection.lastCheck?.message).toMatch(/Datadog refused the API key/);

    // An edit saved the same way records its refused check too.
    const edited = await api.call("PUT", connectionPaths.one(t(), connection.id), {
      token: admin.user.token,
      json: {
        ...datadogConnection({ name: connection.name, ifRefused: "save" }),
        fields: { DD_URL: datadogUrl, DD_API_KEY: `${WRONG_KEY}2` },
      },
    });
    expect(edited.status).toBe(200);
    const checks = await api.call("GET", connectionPaths.checks(t(), connection.id), {
      token: admin.user.token,
    });
    expect(connectionCheckListSchema.parse(await checks.json()).checks).toHaveLength(2);
  });

  it("answers 400 with field errors for bad input, and stores nothing", async () => {
    const before = await api.db.select().from(connections);
    const cases: [unknown, string, string][] = [
      [
        { ...datadogConnection(), fields: { DD_URL: "ftp://x" } },
        "fields.DD_URL",
        "Value must be a valid URL.",
      ],
      [
        { ...datadogConnection(), fields: { DD_URL: datadogUrl } },
        "fields.DD_API_KEY",
        "API key is a required field",
      ],
      [{ ...datadogConnection(), name: "" }, "name", "Name is a required field"],
      [{ ...datadogConnection(), kind: "FTP" }, "kind", "Kind must be one of the connection kinds"],
      [{ ...datadogConnection(), method: "password" }, "method", "Method must be one of: api-key"],
      [
        { ...datadogConnection(), fields: { DD_API_KEY: GOOD_KEY, PASSWORD: "x" } },
        "fields.PASSWORD",
        "PASSWORD is not a field of this connection",
      ],
      [
        {
          kind: "AWS",
          name: "prod",
          method: "keys",
          fields: {
            ACCOUNT_ID: "12345",
            ACCESS_KEY_ID: "AKIAEXAMPLE000000",
            SECRET_ACCESS_KEY: "s".repeat(40),
          },
        },
        "fields.ACCOUNT_ID",
        "Value must be 12 digits, optionally with dashes every 4 digits (e.g. 1234-5678-9012).",
      ],
    ];
    for (const [json, field, message] of cases) {
      const response = await api.call("POST", connectionPaths.list(t()), { token: admin.user.token, json });
      expect(response.status, field).toBe(400);
      const body = apiErrorSchema.parse(await response.json());
      expect(body.fieldErrors?.[field]?.[0], field).toContain(message);
    }
    expect(await api.db.select().from(connections)).toHaveLength(before.length);
  });

  it("refuses a second connection with the same name", async () => {
    await createVerified({ name: "Datadog twin" });
    const { response } = await create(datadogConnection({ name: "Datadog twin" }));
    expect(response.status).toBe(409);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors?.name).toEqual([
      "A connection named Datadog twin already exists.",
    ]);
  });

  it("offers a kind behind a feature flag only while the flag is on", async () => {
    const slack: CreateConnection = {
      kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
      name: "Slack",
      method: "webhook",
      fields: { WEBHOOK_URL: "http://127.0.0.1:9/hook" },
      verify: false,
    };
    await api.setFeatureFlag(t(), "notification-connections", false);
    const { response } = await create(slack);
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors?.kind).toEqual([
      "Slack connections are not enabled for this organization.",
    ]);
  });
});

describe("editing and testing a connection", () => {
  it("keeps a secret left empty, replaces one given, and keeps the status of a rename", async () => {
    const connection = await createVerified({ name: "Datadog edit" });
    const path = connectionPaths.one(t(), connection.id);
    const renamed = await api.call("PUT", path, {
      token: admin.user.token,
      json: {
        ...datadogConnection({ name: "Datadog renamed", verify: false }),
        fields: { DD_URL: datadogUrl },
      },
    });
    expect(renamed.status).toBe(200);
    expect(connectionResponseSchema.parse(await renamed.json()).connection).toMatchObject({
      name: "Datadog renamed",
      status: "VERIFIED",
      secrets: { DD_API_KEY: { set: true, lastFour: "good" } },
    });

    // The kept key still works: the check uses the stored one.
    const tested = await api.call("POST", connectionPaths.checks(t(), connection.id), {
      token: admin.user.token,
    });
    expect(connectionCheckResponseSchema.parse(await tested.json()).check.ok).toBe(true);

    const replaced = await api.call("PUT", path, {
      token: admin.user.token,
      json: datadogConnection({
        name: "Datadog renamed",
        fields: { DD_URL: datadogUrl, DD_API_KEY: WRONG_KEY },
        verify: false,
      }),
    });
    expect(connectionResponseSchema.parse(await replaced.json()).connection).toMatchObject({
      status: "UNVERIFIED",
      secrets: { DD_API_KEY: { set: true, lastFour: "rong" } },
    });
  });

  it("'Test connection' records when and with what result, and a refused key makes it failing", async () => {
    const connection = await createVerified({ name: "Datadog test" });
    acceptedKeys = new Set();
    const response = await api.call("POST", connectionPaths.checks(t(), connection.id), {
      token: admin.user.token,
    });
    expect(response.status).toBe(200);
    const tested = connectionCheckResponseSchema.parse(await response.json());
    expect(tested.check).toMatchObject({ ok: false, actor: { id: admin.user.id } });
    expect(tested.connection.status).toBe("FAILING");

    const history = await api.call("GET", connectionPaths.checks(t(), connection.id), {
      token: admin.user.token,
    });
    const { checks } = connectionCheckListSchema.parse(await history.json());
    expect(checks.map((check) => check.ok)).toEqual([false, true]);
  });
});

describe("who sees and changes connections", () => {
  it("shows members the connections without secret hints, and lets only admins change them", async () => {
    const connection = await createVerified({ name: "Datadog roles" });
    for (const role of ["read-only", "developer"] as const) {
      const member = await api.createUser();
      await api.addMember(member.id, admin.organization.organizationId, role);
      const list = await api.call("GET", connectionPaths.list(t()), { token: member.token });
      const seen = connectionListSchema
        .parse(await list.json())
        .connections.find((one) => one.id === connection.id);
      expect(seen?.secrets).toEqual({ DD_API_KEY: { set: true, lastFour: null } });

      const writes: [string, string, unknown?][] = [
        ["POST", connectionPaths.list(t()), datadogConnection()],
        ["PUT", connectionPaths.one(t(), connection.id), datadogConnection()],
        ["DELETE", connectionPaths.one(t(), connection.id)],
        ["POST", connectionPaths.checks(t(), connection.id)],
      ];
      for (const [method, path, json] of writes) {
        const response = await api.call(method, path, { token: member.token, json });
        expect(response.status, `${role} ${method} ${path}`).toBe(403);
        expect(apiErrorSchema.parse(await response.json()).permission).toBe("connections.manage");
      }
    }
  });

  it("never shows or changes another organization's connections", async () => {
    const connection = await createVerified({ name: "Datadog private" });
    const other = await api.createMember({ role: "admin" });
    const list = await api.call("GET", connectionPaths.list(t(other)), { token: other.user.token });
    expect(connectionListSchema.parse(await list.json()).connections).toEqual([]);
    for (const [method, path] of [
      ["GET", connectionPaths.one(t(other), connection.id)],
      ["PUT", connectionPaths.one(t(other), connection.id)],
      ["DELETE", connectionPaths.one(t(other), connection.id)],
      ["POST", connectionPaths.checks(t(other), connection.id)],
      ["GET", connectionPaths.checks(t(other), connection.id)],
      ["GET", connectionPaths.repositories(t(other), connection.id)],
    ] as const) {
      const json = method === "GET" ? undefined : datadogConnection();
      const response = await api.call(method, path, { token: other.user.token, json });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    // The owner's own path with the other organization's token: not a member.
    const foreign = await api.call("GET", connectionPaths.one(t(), connection.id), {
      token: other.user.token,
    });
    expect(foreign.status).toBe(403);
    expect((await api.db.select().from(connections).where(eq(connections.id, connection.id)))[0]?.name).toBe(
      "Datadog private",
    );
  });
});

describe("deleting a connection", () => {
  it("answers 409 listing what uses it, and deletes it once nothing does", async () => {
    const connection = await createVerified({ name: "Datadog used" });
    const environment = await api.createEnvironment(t(), "observed");
    await api.db
      .insert(observabilityProviders)
      .values({ environmentId: environment.id, connectionId: connection.id });
    const path = connectionPaths.one(t(), connection.id);

    const refused = await api.call("DELETE", path, { token: admin.user.token });
    expect(refused.status).toBe(409);
    expect(apiErrorSchema.parse(await refused.json()).message).toBe(
      "Datadog used is in use by observability Observability of observed. Remove those uses first, then delete it.",
    );
    const described = connectionResponseSchema.parse(
      await (await api.call("GET", path, { token: admin.user.token })).json(),
    ).connection;
    expect(described.usage).toEqual([
      expect.objectContaining({ type: "observability", environmentName: "observed" }),
    ]);

    await api.db.delete(observabilityProviders).where(eq(observabilityProviders.connectionId, connection.id));
    await api.db.delete(environments).where(eq(environments.id, environment.id));
    const deleted = await api.call("DELETE", path, { token: admin.user.token });
    expect(deleted.status).toBe(204);
    expect((await api.call("GET", path, { token: admin.user.token })).status).toBe(404);
  });
});

describe("secrets in logs", () => {
  it("never writes a secret value to the platform's log or the audit log", async () => {
    const all = logged.join("\n");
    expect(all).not.toContain(GOOD_KEY);
    expect(all).not.toContain(WRONG_KEY);
    const events = await api.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, admin.organization.organizationId));
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining([
        "connections.create",
        "connections.update",
        "connections.test",
        "connections.delete",
      ]),
    );
    const audit = JSON.stringify(events);
    expect(audit).toContain("DD_API_KEY");
    expect(audit).not.toContain(GOOD_KEY);
    expect(audit).not.toContain(WRONG_KEY);
  });
});

describe("the AWS role flow", () => {
  it("gives admins the organization's external id and the CloudFormation link of the deploy role", async () => {
    const configured = await openTestApi({
      terraform: { ...defaultTerraformConfig, platformAccountId: "111122223333" },
    });
    try {
      const owner = await configured.createMember({ role: "admin" });
      const path = connectionPaths.awsRoleSetup(owner.organization.tenantId);
      const response = await configured.call("GET", path, { token: owner.user.token });
      expect(response.status).toBe(200);
      const setup = awsRoleSetupSchema.parse(await response.json());
      const [organization] = await configured.db
        .select({ externalId: organizations.awsExternalId })
        .from(organizations)
        .where(eq(organizations.id, owner.organization.organizationId));
      expect(setup).toMatchObject({ externalId: organization?.externalId, trustedAccountId: "111122223333" });
      expect(setup.launchStackUrl).toContain(`param_ExternalId=${organization?.externalId}`);

      const viewer = await configured.createUser();
      await configured.addMember(viewer.id, owner.organization.organizationId, "developer");
      expect((await configured.call("GET", path, { token: viewer.token })).status).toBe(403);
    } finally {
      await configured.close();
    }
  });
});
