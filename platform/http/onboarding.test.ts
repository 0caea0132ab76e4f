import { apiTokenPaths } from "#contract/api-tokens";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorCodes } from "#contract/errors";
import { onboardingResponseSchema, type Onboarding } from "#contract/onboarding";
import { onboardingPaths, onboardingSteps, type OnboardingStep } from "#contract/onboarding-steps";
import { connectionPaths } from "#contract/connections";
import { tenantPaths, tenantResponseSchema } from "#contract/tenants";
import { auditEvents, connections, invitations, onboardingStates, resources } from "../db/schema";
import { openTestApi, uniqueName, type TestApi, type TestUser } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(() => api.close());

/** A new user who creates an organization through POST /tenant, as the form does. */
async function createdThroughTheForm(): Promise<{
  creator: TestUser;
  tenantId: string;
  organizationId: string;
}> {
  const creator = await api.createUser();
  const response = await api.call("POST", tenantPaths.create(), {
    token: creator.token,
    json: { tenant: { name: uniqueName("onboarding"), displayName: "Onboarding Inc" } },
  });
  expect(response.status).toBe(201);
  const { tenant } = tenantResponseSchema.parse(await response.json());
  return { creator, tenantId: tenant.id, organizationId: tenant.organizationId };
}

async function onboardingOf(tenantId: string, token: string): Promise<Onboarding> {
  const response = await api.call("GET", onboardingPaths.one(tenantId), { token });
  expect(response.status).toBe(200);
  return onboardingResponseSchema.parse(await response.json()).onboarding;
}

function end(tenantId: string, token: string, json: unknown) {
  return api.call("PUT", onboardingPaths.one(tenantId), { token, json });
}

const doneSteps = (onboarding: Onboarding): OnboardingStep[] =>
  onboarding.checklist.filter((item) => item.done).map((item) => item.step);

async function addConnection(
  organizationId: string,
  kind: string,
  status: "VERIFIED" | "UNVERIFIED" | "FAILING" = "VERIFIED",
) {
  await api.db.insert(connections).values({
    organizationId,
    kind,
    name: uniqueName(kind.toLowerCase().replace(/_/g, "-")),
    method: "token",
    status,
  });
}

async function addApplication(environmentId: string, deployedAt: Date | null) {
  await api.db.insert(resources).values({
    environmentId,
    name: uniqueName("web"),
    serviceType: "application",
    stage: deployedAt ? "STAGE_COMPLETED" : "STAGE_DRAFT",
    config: {},
    settings: {},
    deployedAt,
  });
}

async function addInvitation(organizationId: string, { cancelled }: { cancelled: boolean }) {
  await api.db.insert(invitations).values({
    organizationId,
    email: `${uniqueName("invitee")}@example.test`,
    tokenHash: uniqueName("hash"),
    grants: [{ role: "developer", environmentIds: null }],
    expiresAt: new Date(Date.now() + 86_400_000),
    cancelledAt: cancelled ? new Date() : null,
  });
}

describe("GET /v2/organizations/:tenantId/onboarding", () => {
  it("is in progress for an organization created through the form, with nothing ticked", async () => {
    const { creator, tenantId } = await createdThroughTheForm();
    const onboarding = await onboardingOf(tenantId, creator.token);
    expect(onboarding).toEqual({
      status: "in-progress",
      startedAt: expect.any(String),
      endedAt: null,
      checklist: onboardingSteps.map((step) => ({ step, done: false })),
    });
  });

  it("is not started for an organization that was not created through the form (the demo data's)", async () => {
    const { user, organization } = await api.createMember();
    expect((await onboardingOf(organization.tenantId, user.token)).status).toBe("not-started");
  });

  it("ticks each step from the organization's data, and only what is really done", async () => {
    const { creator, tenantId, organizationId } = await createdThroughTheForm();
    // Things that do not count: a draft application, a cancelled invitation, a registry connection.
    const environment = await api.createEnvironment(tenantId, "staging");
    await addApplication(environment.id, null);
    await addInvitation(organizationId, { cancelled: true });
    await addConnection(organizationId, "DOCKER");
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual(["environment"]);

    await addConnection(organizationId, "AWS");
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual(["cloud-account", "environment"]);

    await addApplication(environment.id, new Date());
    await addConnection(organizationId, "COMMUNICATION_PLATFORM_TYPE_TEAMS");
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual([
      "cloud-account",
      "environment",
      "application",
      "notifications",
    ]);

    await addInvitation(organizationId, { cancelled: false });
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual([...onboardingSteps]);
  });

  it("ticks the cloud account only for a verified connection, not one saved without verifying", async () => {
    const { creator, tenantId, organizationId } = await createdThroughTheForm();
    await addConnection(organizationId, "AWS", "UNVERIFIED");
    await addConnection(organizationId, "GCP", "FAILING");
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual([]);
    await addConnection(organizationId, "AWS", "VERIFIED");
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual(["cloud-account"]);
  });

  it("offers Slack or Teams to a new organization: the step's connections can be made", async () => {
    const { creator, tenantId } = await createdThroughTheForm();
    expect((await onboardingOf(tenantId, creator.token)).checklist.map((item) => item.step)).toContain(
      "notifications",
    );
    const response = await api.call("POST", connectionPaths.list(tenantId), {
      token: creator.token,
      json: {
        kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
        name: "Slack",
        method: "webhook",
        fields: { WEBHOOK_URL: "http://127.0.0.1:9/hook" },
        verify: false,
      },
    });
    expect(response.status).toBe(201);
  });

  it("offers only the steps whose feature is on, and counts those: Slack or Teams switched off", async () => {
    const { creator, tenantId, organizationId } = await createdThroughTheForm();
    await api.setFeatureFlag(tenantId, "notification-connections", false);
    const onboarding = await onboardingOf(tenantId, creator.token);
    expect(onboarding.checklist.map((item) => item.step)).toEqual(
      onboardingSteps.filter((step) => step !== "notifications"),
    );
    const environment = await api.createEnvironment(tenantId, "production");
    await addApplication(environment.id, new Date());
    await addConnection(organizationId, "AWS");
    await addInvitation(organizationId, { cancelled: false });
    const done = await onboardingOf(tenantId, creator.token);
    expect(done.checklist.every((item) => item.done)).toBe(true);
  });

  it("counts a second member as the team step", async () => {
    const { creator, tenantId, organizationId } = await createdThroughTheForm();
    const colleague = await api.createUser();
    await api.addMember(colleague.id, organizationId, "read-only");
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual(["team"]);
    // Every member sees it, read-only ones too.
    expect(doneSteps(await onboardingOf(tenantId, colleague.token))).toEqual(["team"]);
  });

  it("does not count a service account as a teammate", async () => {
    const { creator, tenantId } = await createdThroughTheForm();
    const created = await api.call("POST", apiTokenPaths.serviceAccounts(tenantId), {
      token: creator.token,
      json: { name: "ci deployer", roles: [{ role: "developer", environmentIds: null }] },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(doneSteps(await onboardingOf(tenantId, creator.token))).toEqual([]);
  });

  it("reads another organization's data for none of its steps, and refuses a non-member", async () => {
    const ours = await createdThroughTheForm();
    const theirs = await createdThroughTheForm();
    const environment = await api.createEnvironment(theirs.tenantId, "production");
    await addApplication(environment.id, new Date());
    await addConnection(theirs.organizationId, "AWS");
    await addConnection(theirs.organizationId, "COMMUNICATION_PLATFORM_TYPE_SLACK");
    await addInvitation(theirs.organizationId, { cancelled: false });
    expect(doneSteps(await onboardingOf(theirs.tenantId, theirs.creator.token))).toEqual([
      ...onboardingSteps,
    ]);
    expect(doneSteps(await onboardingOf(ours.tenantId, ours.creator.token))).toEqual([]);

    for (const [method, json] of [
      ["GET", undefined],
      ["PUT", { status: "dismissed" }],
    ] as const) {
      const response = await api.call(method, onboardingPaths.one(theirs.tenantId), {
        token: ours.creator.token,
        json,
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: apiErrorCodes.forbidden });
    }
    expect((await onboardingOf(theirs.tenantId, theirs.creator.token)).status).toBe("in-progress");
  });
});

describe("PUT /v2/organizations/:tenantId/onboarding", () => {
  it("finishes onboarding for the whole organization; a later dismissal changes nothing", async () => {
    const { creator, tenantId, organizationId } = await createdThroughTheForm();
    const colleague = await api.createUser();
    await api.addMember(colleague.id, organizationId, "admin");

    const finished = await end(tenantId, creator.token, { status: "finished" });
    expect(finished.status).toBe(200);
    const { onboarding } = onboardingResponseSchema.parse(await finished.json());
    expect(onboarding).toMatchObject({ status: "finished", endedAt: expect.any(String) });
    // Every member, on every device, reads it ended.
    expect(await onboardingOf(tenantId, colleague.token)).toEqual(onboarding);

    const again = await end(tenantId, colleague.token, { status: "dismissed" });
    expect(again.status).toBe(200);
    expect(onboardingResponseSchema.parse(await again.json()).onboarding).toEqual(onboarding);
    const [state] = await api.db
      .select()
      .from(onboardingStates)
      .where(eq(onboardingStates.organizationId, organizationId));
    expect(state).toMatchObject({ outcome: "finished", endedBy: creator.id });
  });

  it("records a dismissal for an organization that never started one, so it stays ended", async () => {
    const { user, organization } = await api.createMember({ role: "admin" });
    const response = await end(organization.tenantId, user.token, { status: "dismissed" });
    expect(response.status).toBe(200);
    expect((await onboardingOf(organization.tenantId, user.token)).status).toBe("dismissed");
  });

  it.each([
    ["an unknown status", { status: "done" }],
    ["no status", {}],
    ["in progress again", { status: "in-progress" }],
  ])("answers 400 with the field's message for %s, and changes nothing", async (_case, json) => {
    const { creator, tenantId } = await createdThroughTheForm();
    const response = await end(tenantId, creator.token, json);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: "Status must be finished or dismissed",
      code: apiErrorCodes.validationFailed,
      fieldErrors: { status: ["Status must be finished or dismissed"] },
    });
    expect((await onboardingOf(tenantId, creator.token)).status).toBe("in-progress");
  });

  it.each(["developer", "read-only"] as const)(
    "refuses a %s member: ending it takes organization.manage",
    async (role) => {
      const { tenantId, organizationId } = await createdThroughTheForm();
      const member = await api.createUser();
      await api.addMember(member.id, organizationId, role);
      const response = await end(tenantId, member.token, { status: "dismissed" });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: apiErrorCodes.permissionDenied });
      expect((await onboardingOf(tenantId, member.token)).status).toBe("in-progress");
    },
  );

  it("is recorded in the audit log as onboarding.end", async () => {
    const { creator, tenantId, organizationId } = await createdThroughTheForm();
    expect((await end(tenantId, creator.token, { status: "dismissed" })).status).toBe(200);
    const events = await api.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, "onboarding.end")));
    expect(events).toEqual([
      expect.objectContaining({ userId: creator.id, status: 200, summary: { fields: ["status"] } }),
    ]);
  });
});
