import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionPaths, connectionResponseSchema, ticketResponseSchema } from "#contract/connections";
import { apiErrorSchema } from "#contract/error-body";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { startFakeJira, type FakeJira } from "../testing/provider-servers";
import { fakeDriver } from "../testing/driver";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";

const JIRA = { email: "ops@acme.example", token: "jira-token-0123456789-secret" };

let api: TestApi;
let jira: FakeJira;
let admin: TestMember;
let environment: { id: string; name: string };
let jiraConnectionId: string;

beforeAll(async () => {
  jira = await startFakeJira({
    ...JIRA,
    displayName: "Ops",
    projects: [{ key: "OPS", name: "Operations", issueTypes: ["Task", "Bug"] }],
  });
  api = await openTestApi({}, { driver: fakeDriver() });
  admin = await api.createMember({ role: "admin" });
  environment = await api.createEnvironment(admin.organization.tenantId, "production");
  const created = await api.call("POST", connectionPaths.list(admin.organization.tenantId), {
    token: admin.user.token,
    json: {
      kind: "TICKET_MANAGER_TYPE_JIRA",
      name: "Jira",
      method: "api-token",
      fields: { BASE_URL: jira.url, USERNAME: JIRA.email, TOKEN: JIRA.token, PROJECT_KEY: "OPS" },
    },
  });
  expect(created.status).toBe(201);
  jiraConnectionId = connectionResponseSchema.parse(await created.json()).connection.id;
});

afterAll(async () => {
  await api?.close();
  await jira?.close().catch(() => undefined);
});

const t = () => admin.organization.tenantId;

async function service(name: string) {
  const response = await api.call("POST", servicePaths.list(t(), environment.id), {
    token: admin.user.token,
    json: { serviceType: "database", name, config: defaultServiceConfigs.database, launch: true },
  });
  expect(response.status).toBe(201);
  const { resource } = resourceResponseSchema.parse(await response.json());
  await api.engine.runner.runUntilIdle();
  return resource;
}

const ticket = (serviceId: string, connectionId = jiraConnectionId, member = admin) =>
  api.call("POST", connectionPaths.tickets(t(), environment.id, serviceId), {
    token: member.user.token,
    json: { connectionId },
  });

describe("a Jira ticket for a failed deployment", () => {
  it("opens an issue with the failure, the logs' link and the configuration diff", async () => {
    const failed = await service(uniqueName("orders-fail-deploy"));
    const response = await ticket(failed.id);
    expect(response.status).toBe(201);
    const created = ticketResponseSchema.parse(await response.json()).ticket;
    expect(created).toEqual({ key: "OPS-1", url: `${jira.url}/browse/OPS-1` });

    const [issue] = jira.issues;
    expect(issue?.fields.summary).toBe(`Deployment of ${failed.name} failed in production`);
    expect(issue?.fields.labels).toEqual(["cloud-console", "production", "database"]);
    const description = JSON.stringify(issue?.fields.description);
    expect(description).toContain("Health check failed");
    expect(description).toContain(
      `http://localhost:3000/env/production/services/${failed.id}?tab=logs&logType=SEARCH&podNames=`,
    );
    expect(description).toContain("config.engine");
    expect(description).not.toContain(JIRA.token);
  });

  it("refuses a service whose deployment did not fail, a connection that is not Jira, and read-only members", async () => {
    const healthy = await service(uniqueName("orders"));
    const refused = await ticket(healthy.id);
    expect(refused.status).toBe(409);
    expect(apiErrorSchema.parse(await refused.json()).message).toBe(
      `Tickets are opened for failed deployments, and ${healthy.name}'s last one did not fail.`,
    );

    const failed = await service(uniqueName("billing-fail-deploy"));
    const notJira = await ticket(failed.id, "00000000-0000-4000-8000-000000000000");
    expect(notJira.status).toBe(400);
    expect(apiErrorSchema.parse(await notJira.json()).fieldErrors).toEqual({
      connectionId: ["Choose a Jira connection of this organization."],
    });

    const viewer = await api.createUser();
    await api.addMember(viewer.id, admin.organization.organizationId, "read-only");
    const forbidden = await ticket(failed.id, jiraConnectionId, {
      user: viewer,
      organization: admin.organization,
    });
    expect(forbidden.status).toBe(403);
    expect(jira.issues).toHaveLength(1);
  });

  it("shows Jira's refusal in plain words", async () => {
    const failed = await service(uniqueName("queue-fail-deploy"));
    jira.close();
    const response = await ticket(failed.id);
    expect(response.status).toBe(502);
    expect(apiErrorSchema.parse(await response.json()).message).toMatch(/^Could not reach 127\.0\.0\.1:\d+/);
  });
});
