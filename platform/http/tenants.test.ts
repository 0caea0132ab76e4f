import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages, errorMessages } from "#contract/errors";
import { tenantPaths, tenantResponseSchema } from "#contract/tenants";
import { memberships, roleGrants } from "../db/schema";
import { openTestApi, uniqueName, type TestApi } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(() => api.close());

function createTenant(token: string, tenant: unknown) {
  return api.call("POST", tenantPaths.create(), { token, json: { tenant } });
}

describe("POST /api/tenant", () => {
  it("creates an approved organization with its tenant and makes the caller its admin", async () => {
    const creator = await api.createUser();
    const name = uniqueName("acme");
    const response = await createTenant(creator.token, { name, displayName: "Acme Corp" });

    expect(response.status).toBe(201);
    const { tenant } = tenantResponseSchema.parse(await response.json());
    expect(tenant).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organizationId: expect.stringMatching(/^org_[A-Za-z0-9_-]{16}$/),
      name,
      displayName: "Acme Corp",
      approved: true,
    });
    const membershipRows = await api.db
      .select()
      .from(memberships)
      .where(eq(memberships.organizationId, tenant.organizationId));
    expect(membershipRows).toEqual([expect.objectContaining({ userId: creator.id })]);
    const grantRows = await api.db
      .select()
      .from(roleGrants)
      .where(eq(roleGrants.organizationId, tenant.organizationId));
    expect(grantRows).toEqual([
      expect.objectContaining({ userId: creator.id, role: "admin", environmentIds: null }),
    ]);

    const lookup = await api.call("GET", tenantPaths.one(tenant.id), { token: creator.token });
    expect(lookup.status).toBe(200);
    expect(tenantResponseSchema.parse(await lookup.json())).toEqual({ tenant });
  });

  it("trims the names it stores", async () => {
    const creator = await api.createUser();
    const name = uniqueName("trimmed");
    const response = await createTenant(creator.token, { name: `  ${name} `, displayName: " Trimmed " });
    expect(response.status).toBe(201);
    const { tenant } = tenantResponseSchema.parse(await response.json());
    expect([tenant.name, tenant.displayName]).toEqual([name, "Trimmed"]);
  });

  it("refuses a duplicate name with a field error on tenant.name and creates nothing", async () => {
    const existing = await api.createOrganization();
    const creator = await api.createUser();
    const before = await api.countRows();

    const response = await createTenant(creator.token, { name: existing.name, displayName: "Copy" });

    expect(response.status).toBe(409);
    expect(apiErrorSchema.parse(await response.json())).toEqual({
      message: apiErrorMessages.organizationNameTaken,
      code: apiErrorCodes.conflict,
      fieldErrors: { "tenant.name": [apiErrorMessages.organizationNameTaken] },
    });
    expect(await api.countRows()).toEqual(before);
  });

  it("answers 400 to a body that is not JSON and creates nothing", async () => {
    const creator = await api.createUser();
    const before = await api.countRows();
    const response = await api.call("POST", tenantPaths.create(), {
      token: creator.token,
      rawBody: '{"tenant": {"name": ',
    });
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json())).toEqual({
      message: apiErrorMessages.invalidJson,
      code: apiErrorCodes.invalidJson,
    });
    expect(await api.countRows()).toEqual(before);
  });

  it("answers 400 with the contract's messages per field and creates nothing", async () => {
    const creator = await api.createUser();
    const before = await api.countRows();
    const response = await createTenant(creator.token, { name: "Not Valid!", displayName: "" });

    expect(response.status).toBe(400);
    const body = apiErrorSchema.parse(await response.json());
    expect(body.code).toBe(apiErrorCodes.validationFailed);
    expect(body.fieldErrors).toEqual({
      "tenant.name": [
        "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
      ],
      "tenant.displayName": ["Organization name is a required field"],
    });
    expect(await api.countRows()).toEqual(before);
  });

  it("answers 400 when the tenant object is missing", async () => {
    const creator = await api.createUser();
    const response = await api.call("POST", tenantPaths.create(), { token: creator.token, json: {} });
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toHaveProperty("tenant");
  });
});

describe("POST /api/tenant when approval is required", () => {
  let approvalApi: TestApi;
  beforeAll(async () => {
    approvalApi = await openTestApi({ tenantApprovalRequired: true });
  });
  afterAll(() => approvalApi.close());

  it("creates the organization unapproved, and its lookup then answers 'Tenant approval required'", async () => {
    const creator = await approvalApi.createUser();
    const response = await approvalApi.call("POST", tenantPaths.create(), {
      token: creator.token,
      json: { tenant: { name: uniqueName("pending"), displayName: "Pending Inc" } },
    });
    expect(response.status).toBe(201);
    const { tenant } = tenantResponseSchema.parse(await response.json());
    expect(tenant.approved).toBe(false);

    const lookup = await approvalApi.call("GET", tenantPaths.one(tenant.id), { token: creator.token });
    expect(lookup.status).toBe(403);
    expect(apiErrorSchema.parse(await lookup.json())).toEqual({
      message: errorMessages.tenantApprovalRequired,
      code: apiErrorCodes.tenantApprovalRequired,
    });
  });
});

describe("GET /api/tenant/:tenantId", () => {
  const forbidden = { message: apiErrorMessages.forbiddenOrganization, code: apiErrorCodes.forbidden };

  it("answers the tenant to any member, whatever the role", async () => {
    const { user, organization } = await api.createMember({ role: "read-only" });
    const response = await api.call("GET", tenantPaths.one(organization.tenantId), { token: user.token });
    expect(response.status).toBe(200);
    expect(tenantResponseSchema.parse(await response.json()).tenant).toMatchObject({
      id: organization.tenantId,
      organizationId: organization.organizationId,
      name: organization.name,
      approved: true,
    });
  });

  it("answers 403 to a user of another organization", async () => {
    const { organization } = await api.createMember();
    const outsider = await api.createMember();
    const response = await api.call("GET", tenantPaths.one(organization.tenantId), {
      token: outsider.user.token,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(forbidden);
  });

  it.each([
    ["an unknown tenant id", "5b0c7c1e-3c39-4f5e-9a51-0d7b5cf0f5a1"],
    ["a tenant id that is not a uuid", "not-a-uuid"],
    ["an organization id instead of a tenant id", "org_acme"],
  ])("answers 403, not 404 or 500, to %s", async (_case, tenantId) => {
    const { user } = await api.createMember();
    const response = await api.call("GET", tenantPaths.one(tenantId), { token: user.token });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(forbidden);
  });

  it("answers 'Tenant approval required' to a member of an unapproved organization", async () => {
    const { user, organization } = await api.createMember({ approved: false });
    const response = await api.call("GET", tenantPaths.one(organization.tenantId), { token: user.token });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: errorMessages.tenantApprovalRequired,
      code: apiErrorCodes.tenantApprovalRequired,
    });
  });

  it("keeps the approval state of an organization from non-members", async () => {
    const { organization } = await api.createMember({ approved: false });
    const outsider = await api.createMember();
    const response = await api.call("GET", tenantPaths.one(organization.tenantId), {
      token: outsider.user.token,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(forbidden);
  });
});
