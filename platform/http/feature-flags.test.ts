import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages, errorMessages } from "#contract/errors";
import { featureFlagsSchema } from "#contract/feature-flag-schemas";
import { featureFlagDefaults, featureFlagPaths } from "#contract/feature-flags";
import { openTestApi, type TestApi } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
  // Platform-wide defaults shared by every test here; tenants differ only by their own rows.
  await api.setFeatureFlag(null, "alarms", true);
  await api.setFeatureFlag(null, "platform-only-flag", true);
});
afterAll(() => api.close());

async function readFlags(response: Response) {
  expect(response.status).toBe(200);
  return featureFlagsSchema.parse(await response.json()).featureFlags;
}

describe("GET /api/v2/feature-flags", () => {
  it("answers the catalogue overridden by platform defaults, then by the tenant's rows", async () => {
    const { user, organization } = await api.createMember({ role: "read-only" });
    await api.setFeatureFlag(organization.tenantId, "users-v2", true);
    await api.setFeatureFlag(organization.tenantId, "alarms", false);

    const flags = await readFlags(
      await api.call("GET", featureFlagPaths.list({ organizationId: organization.tenantId }), {
        token: user.token,
      }),
    );

    expect(flags).toEqual({
      ...featureFlagDefaults,
      "platform-only-flag": true,
      "users-v2": true,
      alarms: false,
    });
  });

  it("does not let one tenant's rows leak into another's flags", async () => {
    const first = await api.createMember();
    await api.setFeatureFlag(first.organization.tenantId, "multi-container", true);
    const second = await api.createMember();

    const flags = await readFlags(
      await api.call("GET", featureFlagPaths.list({ organizationId: second.organization.tenantId }), {
        token: second.user.token,
      }),
    );

    expect(flags["multi-container"]).toBe(false);
    expect(flags.alarms).toBe(true);
  });

  it("accepts an environment of the tenant", async () => {
    const { user, organization } = await api.createMember();
    const environment = await api.createEnvironment(organization.tenantId);
    const path = featureFlagPaths.list({
      organizationId: organization.tenantId,
      environmentId: environment.id,
    });
    const flags = await readFlags(await api.call("GET", path, { token: user.token }));
    expect(Object.keys(flags)).toEqual(expect.arrayContaining(Object.keys(featureFlagDefaults)));
  });

  it.each([
    ["an environment of another tenant", "neighbour"],
    ["an unknown environment", "unknown"],
    ["an environment id that is not a uuid", "malformed"],
  ] as const)("answers 404 to %s", async (_case, kind) => {
    const { user, organization } = await api.createMember();
    const neighbour = await api.createOrganization();
    const environmentIds = {
      neighbour: (await api.createEnvironment(neighbour.tenantId)).id,
      unknown: "6f1f0a8e-8a53-4a43-9f0e-8b1cc2a7b1e4",
      malformed: "production",
    };
    const path = featureFlagPaths.list({
      organizationId: organization.tenantId,
      environmentId: environmentIds[kind],
    });
    const response = await api.call("GET", path, { token: user.token });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      message: apiErrorMessages.environmentNotFound,
      code: apiErrorCodes.notFound,
    });
  });

  it("answers 400 with a field error when organizationId is missing", async () => {
    const { user } = await api.createMember();
    const response = await api.call("GET", "/v2/feature-flags", { token: user.token });
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json())).toEqual({
      message: "organizationId is a required field",
      code: apiErrorCodes.validationFailed,
      fieldErrors: { organizationId: ["organizationId is a required field"] },
    });
  });

  it.each([
    ["a tenant the caller does not belong to", "other"],
    ["an unknown tenant", "unknown"],
    ["a tenant id that is not a uuid", "malformed"],
  ] as const)("answers 403 for %s", async (_case, kind) => {
    const { user } = await api.createMember();
    const organizationIds = {
      other: (await api.createOrganization()).tenantId,
      unknown: "1d6e1c5e-0a2b-4a7e-8d8f-1b0d0f1e2a3b",
      malformed: "org_acme",
    };
    const path = featureFlagPaths.list({ organizationId: organizationIds[kind] });
    const response = await api.call("GET", path, { token: user.token });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: apiErrorMessages.forbiddenOrganization,
      code: apiErrorCodes.forbidden,
    });
  });

  it("answers 'Tenant approval required' for an unapproved organization", async () => {
    const { user, organization } = await api.createMember({ approved: false });
    const response = await api.call("GET", featureFlagPaths.list({ organizationId: organization.tenantId }), {
      token: user.token,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: errorMessages.tenantApprovalRequired,
      code: apiErrorCodes.tenantApprovalRequired,
    });
  });
});
