import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEventListSchema, auditPaths } from "#contract/audit";
import { environmentPaths } from "#contract/environments";
import { userPaths } from "#contract/users";
import { auditEvents, customRoles, environments, environmentVariables } from "../db/schema";
import { openTestApi, uniqueName, type TestApi } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(async () => {
  await api?.close();
});

/** A lone (unpaired) surrogate: valid in a JavaScript string and in JSON text, not in UTF-8 or jsonb. */
const LONE = "\ud800";

async function eventsOf(organizationId: string) {
  return api.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId));
}

async function quietly<T>(run: () => T | Promise<T>): Promise<T> {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    return await run();
  } finally {
    logged.mockRestore();
  }
}

describe("a lone surrogate in what a caller sends", () => {
  it("leaves a variable created and deleted with such a body key in the log", async () => {
    const { user, organization } = await api.createMember();
    const environment = await api.createEnvironment(organization.tenantId);
    const path = environmentPaths.variables(organization.tenantId, environment.id);
    const created = await api.call("POST", path, {
      token: user.token,
      json: { envVariables: [{ name: "API_KEY", value: "v", secret: false }], [`x${LONE}`]: 1 },
    });
    expect(created.status).toBe(201);
    const [variable] = ((await created.json()) as { envVariables: { id: string }[] }).envVariables;
    const deleted = await api.call("DELETE", path, {
      token: user.token,
      json: { envVariableIds: [variable?.id], [`y${LONE}`]: true },
    });
    expect(deleted.status).toBeLessThan(300);

    const events = await eventsOf(organization.organizationId);
    expect(events.map((event) => [event.action, event.status]).sort()).toEqual([
      ["environment-variables.create", 201],
      ["environment-variables.delete", deleted.status],
    ]);
    expect(events.find((event) => event.action === "environment-variables.create")?.summary).toMatchObject({
      fields: ["envVariables", "x\ufffd"],
    });
  });

  it("leaves a custom role named with one, allowed to manage users and reveal secrets, in the log", async () => {
    const { user, organization } = await api.createMember();
    const response = await api.call("POST", userPaths.roles(organization.tenantId), {
      token: user.token,
      json: { name: `Ops${LONE}`, permissions: ["users.manage", "secrets.reveal"] },
    });
    expect(response.status).toBe(201);
    const [role] = await api.db
      .select()
      .from(customRoles)
      .where(eq(customRoles.organizationId, organization.organizationId));
    expect(role?.name).toBe("Ops\ufffd");
    expect(await eventsOf(organization.organizationId)).toMatchObject([
      { action: "roles.create", status: 201, summary: { name: "Ops\ufffd" } },
    ]);
  });

  it("in an environment's description is stored well-formed, not answered with a 500", async () => {
    const { user, organization } = await api.createMember();
    const environment = await api.createEnvironment(organization.tenantId);
    const response = await quietly(() =>
      api.call("PUT", environmentPaths.config(organization.tenantId, environment.id), {
        token: user.token,
        json: {
          description: `before${LONE}after`,
          autoDeploy: false,
          deletionProtection: false,
          maintenanceWindow: { day: "sunday", hour: 3 },
        },
      }),
    );
    expect(response.status).toBe(200);
    const [stored] = await api.db.select().from(environments).where(eq(environments.id, environment.id));
    expect(stored?.config).toMatchObject({ description: "before\ufffdafter" });
    expect(await eventsOf(organization.organizationId)).toMatchObject([
      { action: "environment-settings.update", status: 200 },
    ]);
  });
});

describe("what a refused request stores", () => {
  it("caps a read-only member's 1,000,000-character role name, and says it was cut", async () => {
    const { organization } = await api.createMember();
    const reader = await api.createUser();
    await api.addMember(reader.id, organization.organizationId, "read-only");
    const response = await api.call("POST", userPaths.roles(organization.tenantId), {
      token: reader.token,
      json: { name: "r".repeat(1_000_000), permissions: ["users.manage"] },
    });
    expect(response.status).toBe(403);
    const [event] = await eventsOf(organization.organizationId);
    expect(event).toMatchObject({ action: "roles.create", status: 403, userId: reader.id });
    const name = String(event?.summary?.name);
    expect(name.length).toBeLessThan(1_000);
    expect(name).toMatch(/^r+…\[cut: 1000000 characters\]$/);
    expect(JSON.stringify(event).length).toBeLessThan(10_000);
  });

  it("names no environment of another organization in the first one's log", async () => {
    const acme = await api.createMember();
    const globex = await api.createMember();
    const globexDev = await api.createEnvironment(globex.organization.tenantId, uniqueName("globex-dev"));
    const reader = await api.createUser();
    await api.addMember(reader.id, acme.organization.organizationId, "read-only");
    const refused = await api.call(
      "DELETE",
      `/v2/organizations/${acme.organization.tenantId}/environments/${globexDev.id}`,
      { token: reader.token },
    );
    expect(refused.status).toBe(403);

    const listed = await api.call("GET", auditPaths.events(acme.organization.tenantId), {
      token: acme.user.token,
    });
    expect(listed.status).toBe(200);
    const { events } = auditEventListSchema.parse(await listed.json());
    expect(events).toMatchObject([{ action: "environments.delete", status: 403, environmentName: null }]);
    const exported = await api.call("GET", auditPaths.export(acme.organization.tenantId), {
      token: acme.user.token,
    });
    expect(exported.status).toBe(200);
    expect(await exported.text()).not.toContain(globexDev.name);
  });
});

describe("a write whose audit row cannot be written", () => {
  /** A constraint the audit insert of this organization's rows breaks, as a full disk or a bug would refuse it. */
  async function refusingAuditRowsOf(organizationId: string, run: () => Promise<void>) {
    const constraint = sql.raw(`refuse_${organizationId.replace(/\W/g, "_")}`);
    await api.db.execute(
      sql`alter table ${auditEvents} add constraint ${constraint} check (organization_id <> ${sql.raw(`'${organizationId}'`)}) not valid`,
    );
    try {
      await quietly(run);
    } finally {
      await api.db.execute(sql`alter table ${auditEvents} drop constraint ${constraint}`);
    }
  }

  it("does not happen: neither a variable nor a custom role is stored", async () => {
    const { user, organization } = await api.createMember();
    const environment = await api.createEnvironment(organization.tenantId);
    await refusingAuditRowsOf(organization.organizationId, async () => {
      const variable = await api.call(
        "POST",
        environmentPaths.variables(organization.tenantId, environment.id),
        {
          token: user.token,
          json: { envVariables: [{ name: "API_KEY", value: "v", secret: false }] },
        },
      );
      expect(variable.status).toBe(500);
      const role = await api.call("POST", userPaths.roles(organization.tenantId), {
        token: user.token,
        json: { name: "Ops", permissions: ["users.manage", "secrets.reveal"] },
      });
      expect(role.status).toBe(500);
    });
    expect(
      await api.db
        .select()
        .from(environmentVariables)
        .where(eq(environmentVariables.environmentId, environment.id)),
    ).toEqual([]);
    expect(
      await api.db
        .select()
        .from(customRoles)
        .where(eq(customRoles.organizationId, organization.organizationId)),
    ).toEqual([]);
    expect(await eventsOf(organization.organizationId)).toEqual([]);
  });
});
