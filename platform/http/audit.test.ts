import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditCsvColumns, auditEventListSchema, auditPaths, type AuditEventQuery } from "#contract/audit";
import { auditEvents } from "../db/schema";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(async () => {
  await api?.close();
});

type Seeded = TestMember & { staging: string; production: string; bob: { id: string; token: string } };

/** An organization with five recorded events at known times (2024-01-01 .. 2024-01-05, one a day). */
async function seeded(): Promise<Seeded> {
  const member = await api.createMember({ role: "admin" });
  const { organizationId, tenantId } = member.organization;
  const staging = (await api.createEnvironment(tenantId, "staging")).id;
  const production = (await api.createEnvironment(tenantId, "production")).id;
  const bob = await api.createUser();
  await api.addMember(bob.id, organizationId, "read-only");
  const base = { organizationId, requestId: randomUUID(), address: null, userAgent: "test" };
  await api.db.insert(auditEvents).values([
    {
      ...base,
      at: new Date("2024-01-01T10:00:00Z"),
      userId: member.user.id,
      userEmail: member.user.email,
      environmentId: staging,
      action: "environment-variables.update",
      target: "API_KEY",
      status: 200,
    },
    {
      ...base,
      at: new Date("2024-01-02T10:00:00Z"),
      userId: bob.id,
      userEmail: "bob@example.test",
      environmentId: staging,
      action: "environment-variables.update",
      target: '=HYPERLINK("x")',
      status: 403,
    },
    {
      ...base,
      at: new Date("2024-01-03T10:00:00Z"),
      userId: member.user.id,
      userEmail: member.user.email,
      environmentId: production,
      action: "services.delete",
      target: 'db, "main"',
      status: 204,
    },
    {
      ...base,
      at: new Date("2024-01-04T10:00:00Z"),
      userId: member.user.id,
      userEmail: member.user.email,
      environmentId: null,
      action: "environments.create",
      target: null,
      summary: { fields: ["name"], name: "qa" },
      status: 201,
    },
    {
      ...base,
      at: new Date("2024-01-05T10:00:00Z"),
      userId: bob.id,
      userEmail: "bob@example.test",
      environmentId: production,
      action: "services.deploy",
      target: "+cmd",
      status: 403,
    },
  ]);
  return { ...member, staging, production, bob };
}

async function list(member: TestMember, query: AuditEventQuery = {}) {
  const response = await api.call("GET", auditPaths.events(member.organization.tenantId, query), {
    token: member.user.token,
  });
  expect(response.status).toBe(200);
  return auditEventListSchema.parse(await response.json());
}

describe("GET audit-events", () => {
  it("lists the organization's events newest first with the environment's name", async () => {
    const org = await seeded();
    const { events, total } = await list(org);
    expect(total).toBe(5);
    expect(events.map((event) => event.at)).toEqual([
      "2024-01-05T10:00:00.000Z",
      "2024-01-04T10:00:00.000Z",
      "2024-01-03T10:00:00.000Z",
      "2024-01-02T10:00:00.000Z",
      "2024-01-01T10:00:00.000Z",
    ]);
    expect(events[0]).toMatchObject({
      environmentId: org.production,
      environmentName: "production",
      status: 403,
    });
  });

  it("filters by member, action, environment and time range (both ends included)", async () => {
    const org = await seeded();
    const actions = async (query: AuditEventQuery) =>
      (await list(org, query)).events.map((e) => e.at.slice(8, 10));
    expect(await actions({ userId: org.bob.id })).toEqual(["05", "02"]);
    expect(await actions({ action: "environment-variables.update" })).toEqual(["02", "01"]);
    expect(await actions({ environmentId: org.staging })).toEqual(["02", "01"]);
    expect(await actions({ from: "2024-01-02T10:00:00Z", to: "2024-01-04T10:00:00Z" })).toEqual([
      "04",
      "03",
      "02",
    ]);
    expect(await actions({ userId: org.user.id, environmentId: org.production })).toEqual(["03"]);
  });

  it("pages: the size bounds each page and the total counts them all", async () => {
    const org = await seeded();
    const first = await list(org, { pageSize: 2 });
    const third = await list(org, { pageSize: 2, page: 3 });
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: 5 });
    expect(first.events.map((e) => e.at.slice(8, 10))).toEqual(["05", "04"]);
    expect(third.events.map((e) => e.at.slice(8, 10))).toEqual(["01"]);
  });

  it("never shows another organization's events", async () => {
    const org = await seeded();
    const other = await seeded();
    const ids = new Set((await list(org)).events.map((event) => event.id));
    for (const event of (await list(other)).events) expect(ids.has(event.id)).toBe(false);
    const byOtherUser = await list(org, { userId: other.user.id });
    expect(byOtherUser.total).toBe(0);
  });

  it("answers 400 with field errors for bad filters and paging", async () => {
    const org = await seeded();
    const cases: [string, string][] = [
      ["pageSize=101", "pageSize"],
      ["page=0", "page"],
      ["from=1899-12-31T23:59:59Z", "from"],
      ["to=2100-01-01T00:00:00Z", "to"],
      ["from=yesterday", "from"],
      ["from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z", "to"],
      ["environmentId=staging", "environmentId"],
    ];
    for (const [query, field] of cases) {
      const response = await api.call("GET", `${auditPaths.events(org.organization.tenantId)}?${query}`, {
        token: org.user.token,
      });
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { fieldErrors?: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors ?? {}), query).toContain(field);
    }
  });

  it("refuses members without audit.view", async () => {
    const org = await seeded();
    const response = await api.call("GET", auditPaths.events(org.organization.tenantId), {
      token: org.bob.token,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "PERMISSION_DENIED", permission: "audit.view" });
  });
});

describe("GET audit-events/export", () => {
  it("answers the whole filtered set as CSV, escaped and safe from formulas", async () => {
    const org = await seeded();
    const response = await api.call(
      "GET",
      auditPaths.export(org.organization.tenantId, { action: "services.delete" }),
      {
        token: org.user.token,
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    expect(response.headers.get("Content-Disposition")).toContain("attachment");
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe(auditCsvColumns.join(","));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,services.delete,"db, ""main""",`);
    expect(lines[2]).toBe("");

    const all = await (
      await api.call("GET", auditPaths.export(org.organization.tenantId), { token: org.user.token })
    ).text();
    expect(all.split("\r\n")).toHaveLength(7);
    expect(all).toContain(`,"'=HYPERLINK(""x"")",`);
    expect(all).toContain(",'+cmd,");
    expect(all).toContain(`"{""name"":""qa"",""fields"":[""name""]}"`);
  });

  it("validates the filters like the list", async () => {
    const org = await seeded();
    const response = await api.call(
      "GET",
      `${auditPaths.export(org.organization.tenantId)}?to=2100-01-01T00:00:00Z`,
      {
        token: org.user.token,
      },
    );
    expect(response.status).toBe(400);
  });
});

describe("audit-settings", () => {
  it("reads and sets the retention within 30..3650 days, and records the change", async () => {
    const org = await seeded();
    const path = auditPaths.settings(org.organization.tenantId);
    expect(await (await api.call("GET", path, { token: org.user.token })).json()).toEqual({
      retentionDays: 365,
    });
    for (const retentionDays of [29, 3651, 90.5, "ninety"]) {
      const refused = await api.call("PUT", path, { token: org.user.token, json: { retentionDays } });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ fieldErrors: { retentionDays: [expect.any(String)] } });
    }
    const saved = await api.call("PUT", path, { token: org.user.token, json: { retentionDays: 90 } });
    expect(saved.status).toBe(200);
    expect(await (await api.call("GET", path, { token: org.user.token })).json()).toEqual({
      retentionDays: 90,
    });
    const recorded = await list(org, { action: "audit-settings.update" });
    expect(recorded.events.map((event) => [event.status, event.summary])).toEqual([
      [200, { fields: ["retentionDays"], retentionDays: 90 }],
      [400, { fields: ["retentionDays"] }],
      [400, { fields: ["retentionDays"], retentionDays: 90.5 }],
      [400, { fields: ["retentionDays"], retentionDays: 3651 }],
      [400, { fields: ["retentionDays"], retentionDays: 29 }],
    ]);
  });

  it("lets only organization.manage holders change it", async () => {
    const org = await seeded();
    const developer = await api.createUser();
    await api.addMember(developer.id, org.organization.organizationId, "developer");
    const response = await api.call("PUT", auditPaths.settings(org.organization.tenantId), {
      token: developer.token,
      json: { retentionDays: 90 },
    });
    expect(response.status).toBe(403);
  });
});
