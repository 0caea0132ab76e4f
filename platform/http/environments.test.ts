import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  addonListSchema,
  costEstimateSchema,
  environmentConfigListSchema,
  environmentConfigResponseSchema,
  environmentErrorMessages,
  environmentListSchema,
  environmentPaths,
  environmentResponseSchema,
  environmentSummaryListSchema,
  environmentVariableListSchema,
  type EnvironmentConfig,
} from "#contract/environments";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages, errorMessages } from "#contract/errors";
import { connections, engineJobs, environmentVariables } from "../db/schema";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";

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
        // Nothing launched in it yet, and nothing that costs: no services, no add-ons.
        stage: "STAGE_DRAFT",
        cloudProvider: "AWS",
        region: "us-east-1",
        cloudConnectionId: null,
        serviceCount: 0,
        monthlyCostEstimate: 0,
        deletion: null,
        clonedFrom: null,
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

  it("answers the same environments without their totals when asked for totals=false", async () => {
    const { user, organization } = await api.createMember({ role: "read-only" });
    for (const name of ["prod", "dev"]) await api.createEnvironment(organization.tenantId, name);
    const full = environmentListSchema.parse(
      await (
        await api.call("GET", environmentPaths.list(organization.tenantId), { token: user.token })
      ).json(),
    );

    const response = await api.call("GET", environmentPaths.list(organization.tenantId, { totals: false }), {
      token: user.token,
    });

    expect(response.status).toBe(200);
    const body = await response.json();
    expect(environmentSummaryListSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      environments: full.environments.map(
        ({ serviceCount: _count, monthlyCostEstimate: _cost, stage: _stage, ...summary }) => summary,
      ),
    });
  });

  it("answers 400 for a totals value other than true or false", async () => {
    const { user, organization } = await api.createMember();
    const response = await api.call("GET", `${environmentPaths.list(organization.tenantId)}?totals=no`, {
      token: user.token,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      fieldErrors: { totals: ["totals must be true or false"] },
    });
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
      json: { name: "production", cloudProvider: "GCP", region: "europe-west1" },
    });

    expect(response.status).toBe(201);
    const { environment } = environmentResponseSchema.parse(await response.json());
    expect(environment).toMatchObject({
      name: "production",
      organizationId: organization.tenantId,
      cloningStage: "STAGE_UNSPECIFIED",
      cloudProvider: "GCP",
      region: "europe-west1",
      serviceCount: 0,
      clonedFrom: null,
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
      json: { name: "staging", cloudProvider: "AWS", region: "us-east-1" },
    });

    expect(response.status).toBe(409);
    expect(apiErrorSchema.parse(await response.json())).toEqual({
      message: apiErrorMessages.environmentNameTaken,
      code: apiErrorCodes.conflict,
      fieldErrors: { name: [apiErrorMessages.environmentNameTaken] },
    });
    expect(await api.environmentsOf(organization.tenantId)).toHaveLength(1);
  });

  it("runs in a cloud account of the organization and its provider, and says which otherwise", async () => {
    const { user, organization } = await api.createMember();
    const neighbour = await api.createOrganization();
    const account = async (organizationId: string, kind: string) => {
      const [row] = await api.db
        .insert(connections)
        .values({ organizationId, kind, name: uniqueName("account"), method: "keys", status: "UNVERIFIED" })
        .returning();
      if (!row) throw new Error("connection not created");
      return row.id;
    };
    const aws = await account(organization.organizationId, "AWS");
    const create = (name: string, cloudConnectionId: string) =>
      api.call("POST", environmentPaths.list(organization.tenantId), {
        token: user.token,
        json: { name, cloudProvider: "AWS", region: "us-east-1", cloudConnectionId },
      });

    const created = await create("in-aws", aws);
    expect(created.status).toBe(201);
    expect(environmentResponseSchema.parse(await created.json()).environment.cloudConnectionId).toBe(aws);

    for (const other of [
      await account(organization.organizationId, "GCP"),
      await account(organization.organizationId, "OBSERVABILITY_PROVIDER_TYPE_DATADOG"),
      await account(neighbour.organizationId, "AWS"),
    ]) {
      const refused = await create("refused", other);
      expect(refused.status).toBe(400);
      expect(apiErrorSchema.parse(await refused.json()).fieldErrors).toEqual({
        cloudConnectionId: [environmentErrorMessages.cloudAccount("AWS")],
      });
    }
    expect((await api.environmentsOf(organization.tenantId)).map((one) => one.name)).toEqual(["in-aws"]);
  });

  it("runs on a container host connection, which it needs: containers are not simulated (issue 26)", async () => {
    const { user, organization } = await api.createMember();
    const [host] = await api.db
      .insert(connections)
      .values({
        organizationId: organization.organizationId,
        kind: "CONTAINER_HOST",
        name: "This machine",
        method: "docker-host",
        status: "VERIFIED",
      })
      .returning();
    const [aws] = await api.db
      .insert(connections)
      .values({
        organizationId: organization.organizationId,
        kind: "AWS",
        name: "aws",
        method: "keys",
        status: "VERIFIED",
      })
      .returning();
    const create = (name: string, cloudConnectionId?: string) =>
      api.call("POST", environmentPaths.list(organization.tenantId), {
        token: user.token,
        json: { name, cloudProvider: "CONTAINERS", region: "local", cloudConnectionId },
      });

    const created = await create("on-this-machine", host?.id);
    expect(created.status).toBe(201);
    expect(environmentResponseSchema.parse(await created.json()).environment).toMatchObject({
      cloudProvider: "CONTAINERS",
      region: "local",
      cloudConnectionId: host?.id,
    });
    for (const refused of [await create("no-host"), await create("in-aws", aws?.id)]) {
      expect(refused.status).toBe(400);
      expect(apiErrorSchema.parse(await refused.json()).fieldErrors).toEqual({
        cloudConnectionId: [environmentErrorMessages.containerHost],
      });
    }
    expect((await api.environmentsOf(organization.tenantId)).map((one) => one.name)).toEqual([
      "on-this-machine",
    ]);
  });

  it("allows the same name in another tenant", async () => {
    const { user, organization } = await api.createMember();
    const neighbour = await api.createOrganization();
    await api.createEnvironment(neighbour.tenantId, "shared-name");
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: { name: "shared-name", cloudProvider: "AWS", region: "us-east-1" },
    });
    expect(response.status).toBe(201);
  });

  it("refuses a read-only member with 403 PERMISSION_DENIED and creates nothing", async () => {
    const { user, organization } = await api.createMember({ role: "read-only" });
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: { name: "forbidden", cloudProvider: "AWS", region: "us-east-1" },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: errorMessages.restrictedAccess,
      code: apiErrorCodes.permissionDenied,
      permission: "environments.create",
    });
    expect(await api.environmentsOf(organization.tenantId)).toEqual([]);
  });

  it.each([
    ["a missing name", { cloudProvider: "AWS", region: "us-east-1" }, "name", "Name is a required field"],
    [
      "a one-character name",
      { name: "a", cloudProvider: "AWS", region: "us-east-1" },
      "name",
      "Name must be at least 2 characters",
    ],
    [
      "a name with capitals",
      { name: "Production", cloudProvider: "AWS", region: "us-east-1" },
      "name",
      "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
    ],
    [
      "a missing cloud provider",
      { name: "production", region: "us-east-1" },
      "cloudProvider",
      "Cloud provider is a required field",
    ],
    [
      "an unknown cloud provider",
      { name: "production", cloudProvider: "IBM", region: "us-east-1" },
      "cloudProvider",
      "Cloud provider is a required field",
    ],
    [
      "a missing region",
      { name: "production", cloudProvider: "AWS" },
      "region",
      "Region is a required field",
    ],
    [
      "a region of another provider",
      { name: "production", cloudProvider: "AWS", region: "europe-west1" },
      "region",
      environmentErrorMessages.regionNotInCatalogue("AWS"),
    ],
    [
      "Azure while its flag is off",
      { name: "production", cloudProvider: "AZURE", region: "westeurope" },
      "cloudProvider",
      environmentErrorMessages.providerNotEnabled,
    ],
  ])("answers 400 with a field error for %s and creates nothing", async (_case, body, field, message) => {
    const { user, organization } = await api.createMember();
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: body,
    });
    expect(response.status).toBe(400);
    const error = apiErrorSchema.parse(await response.json());
    expect(error.code).toBe(apiErrorCodes.validationFailed);
    expect(error.fieldErrors?.[field]).toContain(message);
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

describe("POST /api/v2/organizations/:tenantId/environments with Azure", () => {
  it("creates an Azure environment once the tenant's azure-connection flag is on", async () => {
    const { user, organization } = await api.createMember();
    await api.setFeatureFlag(organization.tenantId, "azure-connection", true);
    const response = await api.call("POST", environmentPaths.list(organization.tenantId), {
      token: user.token,
      json: { name: "azure-env", cloudProvider: "AZURE", region: "westeurope" },
    });
    expect(response.status).toBe(201);
    const { environment } = environmentResponseSchema.parse(await response.json());
    expect(environment).toMatchObject({ cloudProvider: "AZURE", region: "westeurope" });
  });
});

/** A member with an environment created through the API. */
async function memberWithEnvironment(role: "admin" | "developer" = "admin") {
  const member = await api.createMember({ role });
  const environment = await api.createEnvironment(member.organization.tenantId);
  return { ...member, environment };
}

function send(member: TestMember, method: string, path: string, json?: unknown) {
  return api.call(method, path, { token: member.user.token, json });
}

async function expectError(response: Response, status: number, body: Record<string, unknown>) {
  expect(response.status).toBe(status);
  expect(apiErrorSchema.parse(await response.json())).toMatchObject(body);
}

describe("GET /api/v2/organizations/:tenantId/environments/:id", () => {
  it("answers the environment, and 404 for another tenant's or a malformed id", async () => {
    const member = await memberWithEnvironment();
    const { tenantId } = member.organization;
    const own = await send(member, "GET", environmentPaths.one(tenantId, member.environment.id));
    expect(own.status).toBe(200);
    expect(environmentResponseSchema.parse(await own.json()).environment.id).toBe(member.environment.id);

    const neighbour = await memberWithEnvironment();
    for (const id of [neighbour.environment.id, "not-a-uuid"]) {
      await expectError(await send(member, "GET", environmentPaths.one(tenantId, id)), 404, {
        message: apiErrorMessages.environmentNotFound,
        code: apiErrorCodes.notFound,
      });
    }
  });
});

describe("DELETE /api/v2/organizations/:tenantId/environments/:id", () => {
  it("removes the environment with its variables and jobs", async () => {
    const member = await memberWithEnvironment();
    const { tenantId } = member.organization;
    const created = await send(member, "POST", environmentPaths.variables(tenantId, member.environment.id), {
      envVariables: [
        { name: "A", value: "1" },
        { name: "B", value: "2", secret: true },
      ],
    });
    expect(created.status).toBe(201);

    const response = await send(member, "DELETE", environmentPaths.one(tenantId, member.environment.id));
    expect(response.status).toBe(204);
    expect(await api.environmentsOf(tenantId)).toEqual([]);
    expect(
      await api.db
        .select()
        .from(environmentVariables)
        .where(eq(environmentVariables.environmentId, member.environment.id)),
    ).toEqual([]);
  });

  it("answers 404 for another tenant's environment and deletes nothing", async () => {
    const member = await memberWithEnvironment();
    const neighbour = await memberWithEnvironment();
    await expectError(
      await send(
        member,
        "DELETE",
        environmentPaths.one(member.organization.tenantId, neighbour.environment.id),
      ),
      404,
      { message: apiErrorMessages.environmentNotFound },
    );
    expect(await api.environmentsOf(neighbour.organization.tenantId)).toHaveLength(1);
  });

  it("answers 409 while deletion protection is on", async () => {
    const member = await memberWithEnvironment();
    const { tenantId } = member.organization;
    const config: EnvironmentConfig = {
      description: "",
      autoDeploy: false,
      deletionProtection: true,
      maintenanceWindow: { day: "monday", hour: 1 },
    };
    expect(
      (await send(member, "PUT", environmentPaths.config(tenantId, member.environment.id), config)).status,
    ).toBe(200);
    await expectError(
      await send(member, "DELETE", environmentPaths.one(tenantId, member.environment.id)),
      409,
      {
        message: environmentErrorMessages.deletionProtected,
        code: apiErrorCodes.conflict,
      },
    );
    expect(await api.environmentsOf(tenantId)).toHaveLength(1);
  });

  it("answers 409 for a clone in progress and for its source until the clone's job has finished", async () => {
    const member = await memberWithEnvironment();
    const { tenantId } = member.organization;
    const cloned = await send(member, "POST", environmentPaths.clone(tenantId, member.environment.id), {
      name: "the-clone",
    });
    expect(cloned.status).toBe(201);
    const { environment: clone } = environmentResponseSchema.parse(await cloned.json());

    await expectError(await send(member, "DELETE", environmentPaths.one(tenantId, clone.id)), 409, {
      message: environmentErrorMessages.environmentBusy,
    });
    await expectError(
      await send(member, "DELETE", environmentPaths.one(tenantId, member.environment.id)),
      409,
      {
        message: environmentErrorMessages.cloneSourceInUse,
      },
    );

    // Waiting for the launch event is still unfinished; exiting cancels the clone, and both can go.
    await api.engine.runner.runUntilIdle();
    expect((await send(member, "DELETE", environmentPaths.one(tenantId, clone.id))).status).toBe(409);
    expect((await send(member, "PUT", environmentPaths.cloneExit(tenantId, clone.id))).status).toBe(200);
    expect((await send(member, "DELETE", environmentPaths.one(tenantId, member.environment.id))).status).toBe(
      204,
    );
    expect((await send(member, "DELETE", environmentPaths.one(tenantId, clone.id))).status).toBe(204);
    expect(await api.db.select().from(engineJobs).where(eq(engineJobs.environmentId, clone.id))).toEqual([]);
  });
});

describe("environment configuration", () => {
  const configured: EnvironmentConfig = {
    description: "Customer-facing production",
    autoDeploy: true,
    deletionProtection: false,
    maintenanceWindow: { day: "saturday", hour: 22 },
  };

  it("answers the defaults for a new environment, then what was saved", async () => {
    const member = await memberWithEnvironment("developer");
    const path = environmentPaths.config(member.organization.tenantId, member.environment.id);
    const initial = await send(member, "GET", path);
    expect(environmentConfigResponseSchema.parse(await initial.json())).toEqual({
      config: {
        description: "",
        autoDeploy: false,
        deletionProtection: false,
        maintenanceWindow: { day: "sunday", hour: 3 },
      },
    });

    const saved = await send(member, "PUT", path, {
      ...configured,
      description: `  ${configured.description} `,
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ config: configured });
    expect(await (await send(member, "GET", path)).json()).toEqual({ config: configured });
  });

  it("lists every environment's configuration of the tenant", async () => {
    const member = await memberWithEnvironment();
    const { tenantId } = member.organization;
    const second = await api.createEnvironment(tenantId);
    await send(member, "PUT", environmentPaths.config(tenantId, second.id), configured);

    const response = await send(member, "GET", environmentPaths.configs(tenantId));
    expect(response.status).toBe(200);
    const { configs } = environmentConfigListSchema.parse(await response.json());
    expect(configs).toHaveLength(2);
    expect(configs).toEqual(
      expect.arrayContaining([
        { environmentId: second.id, config: configured },
        { environmentId: member.environment.id, config: expect.objectContaining({ autoDeploy: false }) },
      ]),
    );
  });

  it.each([
    [
      "an hour out of range",
      { ...configured, maintenanceWindow: { day: "monday", hour: 24 } },
      "maintenanceWindow.hour",
    ],
    [
      "an unknown day",
      { ...configured, maintenanceWindow: { day: "someday", hour: 1 } },
      "maintenanceWindow.day",
    ],
    [
      "a missing flag",
      { description: "", deletionProtection: false, maintenanceWindow: configured.maintenanceWindow },
      "autoDeploy",
    ],
    ["a long description", { ...configured, description: "x".repeat(501) }, "description"],
  ])("answers 400 to %s and keeps the configuration", async (_case, body, field) => {
    const member = await memberWithEnvironment();
    const path = environmentPaths.config(member.organization.tenantId, member.environment.id);
    const response = await send(member, "PUT", path, body);
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toHaveProperty([field]);
    expect(
      environmentConfigResponseSchema.parse(await (await send(member, "GET", path)).json()).config.autoDeploy,
    ).toBe(false);
  });

  it("answers 404 for another tenant's environment", async () => {
    const member = await memberWithEnvironment();
    const neighbour = await memberWithEnvironment();
    const path = environmentPaths.config(member.organization.tenantId, neighbour.environment.id);
    expect((await send(member, "GET", path)).status).toBe(404);
    expect((await send(member, "PUT", path, configured)).status).toBe(404);
  });
});

describe("environment add-ons", () => {
  it("lists every add-on, and a PUT changes only those it names", async () => {
    const member = await memberWithEnvironment();
    const path = environmentPaths.addons(member.organization.tenantId, member.environment.id);
    expect(addonListSchema.parse(await (await send(member, "GET", path)).json())).toEqual({
      addons: [
        { name: "observability", enabled: false },
        { name: "log-retention", enabled: false },
        { name: "backups", enabled: false },
        { name: "vulnerability-scanning", enabled: false },
        { name: "cost-alerts", enabled: false },
      ],
    });

    await send(member, "PUT", path, {
      addons: [
        { name: "backups", enabled: true },
        { name: "observability", enabled: true },
      ],
    });
    const response = await send(member, "PUT", path, { addons: [{ name: "observability", enabled: false }] });
    expect(response.status).toBe(200);
    const { addons } = addonListSchema.parse(await response.json());
    expect(addons.filter((addon) => addon.enabled).map((addon) => addon.name)).toEqual(["backups"]);

    const { environments } = environmentListSchema.parse(
      await (await send(member, "GET", environmentPaths.list(member.organization.tenantId))).json(),
    );
    // Backups alone: the environment has no services.
    expect(environments[0]?.monthlyCostEstimate).toBe(15);
  });

  it.each([
    ["an unknown add-on", { addons: [{ name: "coffee", enabled: true }] }, "addons.0.name"],
    [
      "a repeated add-on",
      {
        addons: [
          { name: "backups", enabled: true },
          { name: "backups", enabled: false },
        ],
      },
      "addons.1.name",
    ],
    ["a missing flag", { addons: [{ name: "backups" }] }, "addons.0.enabled"],
  ])("answers 400 to %s and changes nothing", async (_case, body, field) => {
    const member = await memberWithEnvironment();
    const path = environmentPaths.addons(member.organization.tenantId, member.environment.id);
    const response = await send(member, "PUT", path, body);
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toHaveProperty([field]);
    const { addons } = addonListSchema.parse(await (await send(member, "GET", path)).json());
    expect(addons.every((addon) => !addon.enabled)).toBe(true);
  });
});

describe("POST /api/v2/organizations/:tenantId/environments/estimate-cost", () => {
  it("prices the provider's baseline in the region's market plus the add-ons", async () => {
    const member = await api.createMember();
    const response = await send(member, "POST", environmentPaths.estimateCost(member.organization.tenantId), {
      cloudProvider: "AWS",
      region: "eu-west-1",
      addons: ["observability", "backups"],
    });
    expect(response.status).toBe(200);
    expect(costEstimateSchema.parse(await response.json())).toEqual({
      currency: "USD",
      monthlyCost: 156.44,
      breakdown: [
        { item: "Kubernetes control plane (EKS)", monthlyCost: 80.3 },
        { item: "NAT gateway", monthlyCost: 36.14 },
        { item: "Add-on: observability", monthlyCost: 25 },
        { item: "Add-on: backups", monthlyCost: 15 },
      ],
    });
  });

  it.each([
    ["a region of another provider", { cloudProvider: "GCP", region: "us-east-1" }, "region"],
    ["an unknown add-on", { cloudProvider: "GCP", region: "us-east1", addons: ["coffee"] }, "addons.0"],
    ["a missing provider", { region: "us-east1" }, "cloudProvider"],
  ])("answers 400 to %s", async (_case, body, field) => {
    const member = await api.createMember();
    const response = await send(
      member,
      "POST",
      environmentPaths.estimateCost(member.organization.tenantId),
      body,
    );
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).fieldErrors).toHaveProperty([field]);
  });
});

describe("writes to a clone's settings before the clone has copied them", () => {
  it("answer 409 and change nothing", async () => {
    const member = await memberWithEnvironment();
    const { tenantId } = member.organization;
    const cloned = await send(member, "POST", environmentPaths.clone(tenantId, member.environment.id), {
      name: "copying",
    });
    const { environment: clone } = environmentResponseSchema.parse(await cloned.json());
    const writes: [string, string, unknown][] = [
      ["POST", environmentPaths.variables(tenantId, clone.id), { envVariables: [{ name: "A", value: "1" }] }],
      ["PUT", environmentPaths.addons(tenantId, clone.id), { addons: [{ name: "backups", enabled: true }] }],
      [
        "PUT",
        environmentPaths.config(tenantId, clone.id),
        {
          description: "",
          autoDeploy: true,
          deletionProtection: false,
          maintenanceWindow: { day: "monday", hour: 1 },
        },
      ],
    ];
    for (const [method, path, body] of writes) {
      await expectError(await send(member, method, path, body), 409, {
        message: environmentErrorMessages.settingsBeingCopied,
      });
    }
    await api.engine.runner.runUntilIdle();
    for (const [method, path, body] of writes)
      expect((await send(member, method, path, body)).status).toBeLessThan(300);
    const { envVariables } = environmentVariableListSchema.parse(
      await (await send(member, "GET", environmentPaths.variables(tenantId, clone.id))).json(),
    );
    expect(envVariables.map((variable) => variable.name)).toEqual(["A"]);
  });
});
