import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { environmentListSchema, environmentPaths, environmentResponseSchema } from "#contract/environments";
import { apiErrorCodes, apiErrorMessages, apiErrorSchema, errorMessages } from "#contract/errors";
import { openTestApi, type TestApi } from "./test-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(() => api.close());

describe("GET /api/v2/organizations/:tenantId/environments", () => {
  it("lists only the tenant's environments, sorted by name in byte order", async () => {
    const { user, organization } = await api.createMember({ role: "read-only" });
    for (const name of ["staging", "prod-eu", "prod", "dev"])
      await api.createEnvironment(organization.tenantId, name);
    const neighbour = await api.createOrganization();
    await api.createEnvironment(neighbour.tenantId, "neighbour-env");

    const response = await api.call("GET", environmentPaths.list(organization.tenantId), {
      token: user.token,
    });

    expect(response.status).toBe(200);
    const { environments } = environmentListSchema.parse(await response.json());
    expect(environments.map((environment) => environment.name)).toEqual([
      "dev",
      "prod",
      "prod-eu",
      "staging",
    ]);
    for (const environment of environments) {
      expect(environment).toEqual({
        id: expect.any(String),
        name: environment.name,
        organizationId: organization.tenantId,
        cloningStage: "STAGE_UNSPECIFIED",
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
    }
  });

  it("answers an empty list for a tenant without environments", async () => {
    const { user, organization } = await api.createMember();
    const response = await api.call("GET", environmentPaths.list(organization.tenantId), {
      token: user.token,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ environments: [] });
  });

  it("answers 'Tenant approval required' while the organization awaits approval", async () => {
    const { user, organization } = await api.createMember({ approved: false });
    const response = await api.call("GET", environmentPaths.list(organization.tenantId), {
      token: user.token,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: errorMessages.tenantApprovalRequired,
      code: apiErrorCodes.tenantApprovalRequired,
    });
  });
});

describe("POST /api/v2/organizations/:tenantId/environments", () => {
  it("creates an environment in the tenant", async () => {
    const { user, organization } = await api.createMember({ role: "developer" });
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: { name: "production" },
    });

    expect(response.status).toBe(201);
    const { environment } = environmentResponseSchema.parse(await response.json());
    expect(environment).toMatchObject({
      name: "production",
      organizationId: organization.tenantId,
      cloningStage: "STAGE_UNSPECIFIED",
    });
    expect(await api.environmentsOf(organization.tenantId)).toEqual([
      expect.objectContaining({ id: environment.id, name: "production" }),
    ]);
  });

  it("refuses a name already used in the tenant with a field error on name", async () => {
    const { user, organization } = await api.createMember();
    await api.createEnvironment(organization.tenantId, "staging");

    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: { name: "staging" },
    });

    expect(response.status).toBe(409);
    expect(apiErrorSchema.parse(await response.json())).toEqual({
      message: apiErrorMessages.environmentNameTaken,
      code: apiErrorCodes.conflict,
      fieldErrors: { name: [apiErrorMessages.environmentNameTaken] },
    });
    expect(await api.environmentsOf(organization.tenantId)).toHaveLength(1);
  });

  it("allows the same name in another tenant", async () => {
    const { user, organization } = await api.createMember();
    const neighbour = await api.createOrganization();
    await api.createEnvironment(neighbour.tenantId, "shared-name");
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: { name: "shared-name" },
    });
    expect(response.status).toBe(201);
  });

  it("refuses a read-only member with 403 READ_ONLY and creates nothing", async () => {
    const { user, organization } = await api.createMember({ role: "read-only" });
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: { name: "forbidden" },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: errorMessages.restrictedAccess,
      code: apiErrorCodes.readOnly,
    });
    expect(await api.environmentsOf(organization.tenantId)).toEqual([]);
  });

  it.each([
    ["a missing name", {}, "Name is a required field"],
    ["a one-character name", { name: "a" }, "Name must be at least 2 characters"],
    [
      "a name with capitals",
      { name: "Production" },
      "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
    ],
  ])("answers 400 with a field error for %s and creates nothing", async (_case, body, message) => {
    const { user, organization } = await api.createMember();
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: body,
    });
    expect(response.status).toBe(400);
    const error = apiErrorSchema.parse(await response.json());
    expect(error.code).toBe(apiErrorCodes.validationFailed);
    expect(error.fieldErrors?.name).toContain(message);
    expect(await api.environmentsOf(organization.tenantId)).toEqual([]);
  });

  it("answers 400 to a body that is not JSON and creates nothing", async () => {
    const { user, organization } = await api.createMember();
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      rawBody: "name=production",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: apiErrorMessages.invalidJson,
      code: apiErrorCodes.invalidJson,
    });
    expect(await api.environmentsOf(organization.tenantId)).toEqual([]);
  });
});
