import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditActions } from "#contract/audit";
import type { AuthenticatedEnv } from "./auth";
import { openTestApi, type TestApi } from "../testing/http-harness";
import type { Database } from "../db/index";
import { auditEvents } from "../db/schema";
import { actionOf, isAuditedRoute, mappedRoutes, routeKey } from "../audit/actions";
import { auditTrail } from "./audit-trail";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function eventsOf(organizationId: string) {
  return api.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId));
}

async function organizationWithStaging() {
  const { user: ada, organization } = await api.createMember({ role: "admin" });
  const staging = await api.createEnvironment(organization.tenantId, "staging");
  const variables = `/v2/organizations/${organization.tenantId}/environments/${staging.id}/environment-variables`;
  return { ada, organization, staging, variables };
}

describe("the action map", () => {
  it("names every write route of the API with an action from the contract", () => {
    const writes = [
      ...new Set(
        api.app.routes
          .filter((route) => isAuditedRoute(route.method, route.path))
          .map((route) => `${route.method} ${route.path}`),
      ),
    ];
    expect(writes.length).toBeGreaterThan(20);
    const unmapped = writes.filter((write) => {
      const [method = "", path = ""] = write.split(" ");
      return actionOf(method, path) === null;
    });
    expect(unmapped).toEqual([]);
    for (const key of mappedRoutes) {
      const [method = "", path = ""] = key.split(" ");
      expect(auditActions).toContain(actionOf(method, path));
    }
  });

  it("leaves reads and cost estimates out, and ignores parameter names", () => {
    expect(isAuditedRoute("GET", "/api/v2/organizations/:tenantId/environments")).toBe(false);
    expect(isAuditedRoute("POST", "/api/v2/organizations/:tenantId/environments/estimate-cost")).toBe(false);
    expect(isAuditedRoute("POST", "/api/tenant")).toBe(false);
    expect(routeKey("DELETE", "/api/v2/organizations/:tenantId/environments/:id")).toBe(
      "DELETE /v2/organizations/:/environments/:",
    );
  });
});

describe("recording writes", () => {
  it("records an allowed change with who, where, what, request id, address and agent, and no secret value", async () => {
    const { ada, organization, staging, variables } = await organizationWithStaging();
    const secretValue = `hunter2-${randomUUID()}`;
    const requestId = randomUUID();
    const created = await api.call("POST", variables, {
      token: ada.token,
      json: { envVariables: [{ name: "API_KEY", value: secretValue, secret: true }] },
      headers: { "X-Request-ID": requestId, "User-Agent": "audit-test/1.0" },
    });
    expect(created.status).toBe(201);
    const [variable] = ((await created.json()) as { envVariables: { id: string }[] }).envVariables;
    const newValue = `rotated-${randomUUID()}`;
    const updated = await api.call("PUT", variables, {
      token: ada.token,
      json: { envVariables: [{ id: variable?.id, value: newValue }] },
    });
    expect(updated.status).toBe(200);

    const events = await eventsOf(organization.organizationId);
    expect(events).toHaveLength(2);
    const create = events.find((event) => event.action === "environment-variables.create");
    expect(create).toMatchObject({
      userId: ada.id,
      userEmail: ada.email,
      environmentId: staging.id,
      target: "API_KEY",
      summary: {
        fields: ["envVariables"],
        variables: [{ name: "API_KEY", secret: true, valueChanged: true }],
      },
      requestId,
      userAgent: "audit-test/1.0",
      status: 201,
    });
    expect(create?.at).toBeInstanceOf(Date);
    const update = events.find((event) => event.action === "environment-variables.update");
    expect(update).toMatchObject({ target: variable?.id, status: 200 });
    const stored = JSON.stringify(events);
    expect(stored).not.toContain(secretValue);
    expect(stored).not.toContain(newValue);
  });

  it("records a refused change (403) and an invalid one (400) with their status", async () => {
    const { organization, staging, variables } = await organizationWithStaging();
    const bob = await api.createUser();
    await api.addMember(bob.id, organization.organizationId, "read-only");
    const refused = await api.call("POST", variables, {
      token: bob.token,
      json: { envVariables: [{ name: "PASSWORD", value: "letmein-123", secret: true }] },
    });
    expect(refused.status).toBe(403);
    const deletion = await api.call(
      "DELETE",
      `/v2/organizations/${organization.tenantId}/environments/${staging.id}`,
      {
        token: bob.token,
      },
    );
    expect(deletion.status).toBe(403);
    const ada = await api.createUser();
    await api.addMember(ada.id, organization.organizationId, "admin");
    const badInput = await api.call("POST", variables, { token: ada.token, json: { envVariables: [] } });
    expect(badInput.status).toBe(400);

    const events = await eventsOf(organization.organizationId);
    expect(events.map((event) => [event.userId, event.action, event.status]).sort()).toEqual(
      [
        [bob.id, "environment-variables.create", 403],
        [bob.id, "environments.delete", 403],
        [ada.id, "environment-variables.create", 400],
      ].sort(),
    );
    expect(JSON.stringify(events)).not.toContain("letmein-123");
  });

  it("records a non-member's refused write in the organization it names, and nothing for an unknown one or a 401", async () => {
    const { organization, variables } = await organizationWithStaging();
    const outsider = await api.createUser();
    const json = { envVariables: [{ name: "X", value: "y" }] };
    expect((await api.call("POST", variables, { token: outsider.token, json })).status).toBe(403);
    expect((await api.call("POST", variables, { json })).status).toBe(401);
    const unknownTenant = randomUUID();
    const before = await api.db.select().from(auditEvents);
    expect(
      (
        await api.call("POST", `/v2/organizations/${unknownTenant}/environments`, {
          token: outsider.token,
          json: {},
        })
      ).status,
    ).toBe(403);
    const after = await api.db.select().from(auditEvents);
    expect(after).toHaveLength(before.length);

    const events = await eventsOf(organization.organizationId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ userId: outsider.id, userEmail: outsider.email, status: 403 });
  });

  it("records neither reads nor cost estimates", async () => {
    const { ada, organization, variables } = await organizationWithStaging();
    expect((await api.call("GET", variables, { token: ada.token })).status).toBe(200);
    const estimate = await api.call(
      "POST",
      `/v2/organizations/${organization.tenantId}/environments/estimate-cost`,
      {
        token: ada.token,
        json: { cloudProvider: "AWS", region: "us-east-1", addons: [] },
      },
    );
    expect(estimate.status).toBeLessThan(500);
    expect(await eventsOf(organization.organizationId)).toEqual([]);
  });

  it("keeps the route's answer when the audit row cannot be written, and logs the failure", async () => {
    const brokenDb = {
      insert: () => {
        throw new Error("database unavailable");
      },
    } as unknown as Database;
    const log = vi.fn();
    const app = new Hono<AuthenticatedEnv>();
    app.use(async (c, next) => {
      c.set("accessToken", { subject: "user_1", grantId: "grant" });
      c.set("user", { id: "user_1", email: "ada@example.com", name: "Ada" });
      c.set("organization" as never, { organizationId: "org_1" } as never);
      await next();
    });
    app.use(auditTrail({ db: brokenDb, log }).recordWrites);
    app.post("/v2/organizations/:tenantId/environments", (c) => c.json({ created: true }, 201));
    const response = await app.request("/v2/organizations/t/environments", { method: "POST" });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ created: true });
    expect(log).toHaveBeenCalledWith(expect.stringContaining("could not record POST"), expect.any(Error));
  });
});
