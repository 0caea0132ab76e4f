import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { apiErrorCodes } from "#contract/errors";
import {
  certificateResponseSchema,
  chartRepositoryListSchema,
  chartRepositoryResponseSchema,
  defaultServiceSettings,
  loadBalancerListSchema,
  observabilityProviderResponseSchema,
  observabilitySchema,
  serviceErrorMessages,
  servicePaths,
} from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { chartRepositories, environments, observabilityProviders, resources } from "../db/schema";
import { insertConnection } from "../testing/notification-connections";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
let member: TestMember;
beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember();
});
afterAll(() => api.close());

async function newEnvironment() {
  return (await api.createEnvironment(member.organization.tenantId)).id;
}

type NewService = Omit<typeof resources.$inferInsert, "environmentId">;
async function createService(environmentId: string, overrides: Partial<NewService> = {}) {
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId,
      name: uniqueName("svc"),
      serviceType: "application",
      stage: "STAGE_COMPLETED",
      config: { image: "ghcr.io/acme/web:1.4.2" },
      settings: defaultServiceSettings,
      deployedAt: new Date("2026-01-10T12:00:00.000Z"),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("service was not created");
  return row;
}

const publicSettings = {
  ...defaultServiceSettings,
  networking: { port: 3000, public: true, customDomain: "" },
};
const tls = (domain: string, subjectAlternativeNames: string[] = []) => ({
  ...defaultServiceConfigs.tls,
  domain,
  subjectAlternativeNames,
});

const t = () => member.organization.tenantId;
const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

describe("GET applications/loadbalancers", () => {
  it("answers an empty list without services", async () => {
    const environmentId = await newEnvironment();
    const response = await call("GET", servicePaths.loadBalancers(t(), environmentId));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ loadBalancers: [] });
  });

  it("groups public services behind one internet-facing and other applications behind one internal balancer", async () => {
    const environmentId = await newEnvironment();
    const web = await createService(environmentId, { settings: publicSettings });
    const api2 = await createService(environmentId, { settings: publicSettings });
    const worker = await createService(environmentId);
    await createService(environmentId, { stage: "STAGE_DRAFT", deployedAt: null, settings: publicSettings });
    await createService(environmentId, { serviceType: "database", config: defaultServiceConfigs.database });
    const response = await call("GET", servicePaths.loadBalancers(t(), environmentId));
    const { loadBalancers } = loadBalancerListSchema.parse(await response.json());
    expect(loadBalancers).toHaveLength(2);
    const [external, internal] = loadBalancers;
    expect(external).toMatchObject({ scheme: "internet-facing", resourceIds: [web.id, api2.id] });
    // Under the reserved .invalid domain: nothing that could be taken for a real AWS host.
    expect(external?.dnsName).toMatch(/^env-[a-z0-9]+-pub\.simulated\.invalid$/);
    expect(external?.id).toMatch(
      /^arn:aws:elasticloadbalancing:us-east-1:\d{12}:loadbalancer\/app\/env-[a-z0-9]+-pub\/[0-9a-f]{16}$/,
    );
    expect(internal).toMatchObject({ scheme: "internal", resourceIds: [worker.id] });
    expect(internal?.dnsName).toMatch(/^env-[a-z0-9]+-int\.simulated\.invalid$/);
    // Stable across reads.
    expect(
      loadBalancerListSchema.parse(
        await (await call("GET", servicePaths.loadBalancers(t(), environmentId))).json(),
      ),
    ).toEqual({ loadBalancers });
  });
});

describe("certificates", () => {
  it("finds the wildcard certificate of a domain with its status and expiry", async () => {
    const environmentId = await newEnvironment();
    const issued = await createService(environmentId, {
      serviceType: "tls",
      config: tls("*.example.com", ["example.com"]),
    });
    await createService(environmentId, { serviceType: "tls", config: tls("*.other.com") });
    const response = await call("GET", servicePaths.wildcardCertificate(t(), environmentId, "example.com"));
    expect(response.status).toBe(200);
    expect(certificateResponseSchema.parse(await response.json())).toEqual({
      certificate: {
        id: expect.stringMatching(new RegExp(`^arn:aws:acm:us-east-1:\\d{12}:certificate/${issued.id}$`)),
        resourceId: issued.id,
        domain: "*.example.com",
        subjectAlternativeNames: ["example.com"],
        status: "ISSUED",
        expiresAt: "2027-02-09T12:00:00.000Z",
      },
    });
    const none = await call("GET", servicePaths.wildcardCertificate(t(), environmentId, "nothing.org"));
    expect(await none.json()).toEqual({ certificate: null });
  });

  it("reports a deploying certificate as pending and a failed one as failed", async () => {
    const environmentId = await newEnvironment();
    await createService(environmentId, {
      serviceType: "tls",
      stage: "STAGE_IN_PROGRESS",
      deployedAt: null,
      config: tls("*.pending.com"),
    });
    await createService(environmentId, {
      serviceType: "tls",
      stage: "STAGE_FAILED",
      deployedAt: null,
      config: tls("*.failed.com"),
    });
    await createService(environmentId, {
      serviceType: "tls",
      stage: "STAGE_DRAFT",
      deployedAt: null,
      config: tls("*.draft.com"),
    });
    const statusOf = async (domain: string) =>
      certificateResponseSchema.parse(
        await (await call("GET", servicePaths.wildcardCertificate(t(), environmentId, domain))).json(),
      ).certificate;
    expect(await statusOf("pending.com")).toMatchObject({ status: "PENDING_VALIDATION", expiresAt: null });
    expect(await statusOf("failed.com")).toMatchObject({ status: "FAILED", expiresAt: null });
    expect(await statusOf("draft.com")).toBeNull();
  });

  it("matches a domain exactly, by a SAN, or by a wildcard one level up", async () => {
    const environmentId = await newEnvironment();
    const exact = await createService(environmentId, { serviceType: "tls", config: tls("api.example.com") });
    const wildcard = await createService(environmentId, { serviceType: "tls", config: tls("*.example.com") });
    const san = await createService(environmentId, {
      serviceType: "tls",
      config: tls("shop.io", ["www.shop.io"]),
    });
    const match = async (domain: string) =>
      certificateResponseSchema.parse(
        await (await call("GET", servicePaths.certificateMatch(t(), environmentId, domain))).json(),
      ).certificate?.resourceId ?? null;
    expect(await match("api.example.com")).toBe(exact.id);
    expect(await match("web.example.com")).toBe(wildcard.id);
    expect(await match("www.shop.io")).toBe(san.id);
    expect(await match("a.b.example.com")).toBeNull();
    expect(await match("example.com")).toBeNull();
  });

  it("answers 400 for a domain that is not one", async () => {
    const environmentId = await newEnvironment();
    for (const path of [
      servicePaths.wildcardCertificate(t(), environmentId, "*.example.com"),
      servicePaths.certificateMatch(t(), environmentId, "Not A Domain"),
      `${servicePaths.certificateMatch(t(), environmentId, "x.com").split("?")[0]}`,
    ]) {
      const response = await call("GET", path);
      expect(response.status).toBe(400);
      expect(
        ((await response.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.domain,
      ).toBeDefined();
    }
  });
});

describe("observability", () => {
  const datadog = (organizationId = member.organization.organizationId, site = "https://api.datadoghq.eu") =>
    insertConnection(api.db, api.secrets, {
      organizationId,
      kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
      method: "api-key",
      name: uniqueName("Datadog"),
      fields: { DD_URL: site },
      secretFields: { DD_API_KEY: "dd-api-key-0123456789" },
    });

  it("lists providers with their connection and dashboard, and whether the built-in add-on is on; adds once; removes", async () => {
    const environmentId = await newEnvironment();
    const [environment] = await api.db.select().from(environments).where(eq(environments.id, environmentId));
    const path = servicePaths.observability(t(), environmentId);
    expect(observabilitySchema.parse(await (await call("GET", path)).json())).toEqual({
      providers: [],
      builtIn: false,
    });
    await api.db
      .update(environments)
      .set({ enabledAddons: ["observability"] })
      .where(eq(environments.id, environmentId));
    const connection = await datadog();

    const created = await call("POST", servicePaths.observabilityProviders(t(), environmentId), {
      "connection-id": connection.id,
    });
    expect(created.status).toBe(201);
    const { provider } = observabilityProviderResponseSchema.parse(await created.json());
    expect(provider).toEqual({
      id: expect.any(String),
      connectionId: connection.id,
      createdAt: expect.any(String),
      connectionName: connection.name,
      connectionKind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
      lastForwardedAt: null,
      lastForwardError: null,
      dashboardUrl:
        "https://app.datadoghq.eu/metric/explorer?exp_metric=cloudconsole.cpu.utilization" +
        `&exp_scope=env%3A${environment?.name}&exp_agg=avg&exp_row_type=metric`,
    });

    const again = await call("POST", servicePaths.observabilityProviders(t(), environmentId), {
      "connection-id": connection.id,
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      message: serviceErrorMessages.providerAdded,
      code: apiErrorCodes.conflict,
      fieldErrors: { "connection-id": [serviceErrorMessages.providerAdded] },
    });
    expect(observabilitySchema.parse(await (await call("GET", path)).json())).toEqual({
      providers: [provider],
      builtIn: true,
    });

    const removed = await call("DELETE", servicePaths.observabilityProvider(t(), environmentId, provider.id));
    expect(removed.status).toBe(204);
    for (const id of [provider.id, "nope"]) {
      const missing = await call("DELETE", servicePaths.observabilityProvider(t(), environmentId, id));
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({
        message: serviceErrorMessages.providerNotFound,
        code: apiErrorCodes.notFound,
      });
    }
  });

  it("links Middleware with its app as the dashboard", async () => {
    const environmentId = await newEnvironment();
    const middleware = await insertConnection(api.db, api.secrets, {
      organizationId: member.organization.organizationId,
      kind: "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
      method: "api-key",
      name: uniqueName("Middleware"),
      fields: { MW_URL: "https://acme.middleware.io", MW_PROJECT_ALIAS: "shop" },
      secretFields: { MW_API_KEY: "mw-api-key-0123456789" },
    });
    const created = await call("POST", servicePaths.observabilityProviders(t(), environmentId), {
      "connection-id": middleware.id,
    });
    expect(created.status).toBe(201);
    expect(observabilityProviderResponseSchema.parse(await created.json()).provider).toMatchObject({
      connectionKind: "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
      dashboardUrl: "https://acme.middleware.io",
    });
  });

  it("refuses anything but an observability connection of the organization, and another environment's provider, storing nothing", async () => {
    const environmentId = await newEnvironment();
    const other = await newEnvironment();
    const created = await call("POST", servicePaths.observabilityProviders(t(), other), {
      "connection-id": (await datadog()).id,
    });
    const { provider } = observabilityProviderResponseSchema.parse(await created.json());
    const stranger = await api.createMember();
    const slack = await insertConnection(api.db, api.secrets, {
      organizationId: member.organization.organizationId,
      kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
      method: "webhook",
      secretFields: { WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/x" },
    });
    const before = await api.db.select({ value: count() }).from(observabilityProviders);
    for (const body of [
      {},
      { "connection-id": "" },
      { "connection-id": "has spaces" },
      { "connection-id": "datadog-prod" },
      { "connection-id": "00000000-0000-4000-8000-000000000000" },
      { "connection-id": (await datadog(stranger.organization.organizationId)).id },
      { "connection-id": slack.id },
    ]) {
      const response = await call("POST", servicePaths.observabilityProviders(t(), environmentId), body);
      expect(response.status).toBe(400);
      expect(
        ((await response.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors["connection-id"],
      ).toHaveLength(1);
    }
    expect(
      (await call("DELETE", servicePaths.observabilityProvider(t(), environmentId, provider.id))).status,
    ).toBe(404);
    expect(await api.db.select({ value: count() }).from(observabilityProviders)).toEqual(before);
  });
});

describe("chart repositories", () => {
  it("creates, lists by name and refuses a taken name", async () => {
    const environmentId = await newEnvironment();
    const path = servicePaths.chartRepositories(t(), environmentId);
    expect(await (await call("GET", path)).json()).toEqual({ chartRepositories: [] });
    const bitnami = await call("POST", path, {
      name: "bitnami",
      url: "oci://registry-1.docker.io/bitnamicharts",
    });
    expect(bitnami.status).toBe(201);
    const { chartRepository } = chartRepositoryResponseSchema.parse(await bitnami.json());
    expect(chartRepository).toMatchObject({
      name: "bitnami",
      url: "oci://registry-1.docker.io/bitnamicharts",
    });
    // An OCI registry, stored without a fetch (an https repository's index is checked: chart-repositories.test.ts).
    await call("POST", path, { name: "argo", url: "oci://ghcr.io/argoproj/argo-helm" });

    const taken = await call("POST", path, { name: "bitnami", url: "https://charts.bitnami.com/bitnami" });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({
      message: serviceErrorMessages.chartRepositoryNameTaken,
      code: apiErrorCodes.conflict,
      fieldErrors: { name: [serviceErrorMessages.chartRepositoryNameTaken] },
    });
    const { chartRepositories: list } = chartRepositoryListSchema.parse(
      await (await call("GET", path)).json(),
    );
    expect(list.map((repository) => repository.name)).toEqual(["argo", "bitnami"]);
  });

  it("answers 400 with field errors for a bad name or URL, storing nothing", async () => {
    const environmentId = await newEnvironment();
    const before = await api.db.select({ value: count() }).from(chartRepositories);
    for (const [body, field] of [
      [{ name: "Bad Name", url: "https://charts.example.com" }, "name"],
      [{ name: "good", url: "ftp://charts.example.com" }, "url"],
      [{ name: "good" }, "url"],
    ] as const) {
      const response = await call("POST", servicePaths.chartRepositories(t(), environmentId), body);
      expect(response.status).toBe(400);
      expect(
        ((await response.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors[field],
      ).toBeDefined();
    }
    expect(await api.db.select({ value: count() }).from(chartRepositories)).toEqual(before);
  });
});

describe("another tenant's environment", () => {
  it("answers 404 on every route and stores nothing", async () => {
    const stranger = await api.createMember();
    const environmentId = await newEnvironment();
    const as = (method: string, path: string, json?: unknown) =>
      api.call(method, path, { token: stranger.user.token, json });
    const tenant = stranger.organization.tenantId;
    for (const [method, path, body] of [
      ["GET", servicePaths.loadBalancers(tenant, environmentId)],
      ["GET", servicePaths.wildcardCertificate(tenant, environmentId, "example.com")],
      ["GET", servicePaths.observability(tenant, environmentId)],
      ["POST", servicePaths.observabilityProviders(tenant, environmentId), { "connection-id": "dd" }],
      ["GET", servicePaths.chartRepositories(tenant, environmentId)],
      [
        "POST",
        servicePaths.chartRepositories(tenant, environmentId),
        { name: "x1", url: "https://x.example.com" },
      ],
    ] as const) {
      expect((await as(method, path, body)).status).toBe(404);
    }
    const providers = await api.db
      .select()
      .from(observabilityProviders)
      .where(eq(observabilityProviders.environmentId, environmentId));
    expect(providers).toEqual([]);
  });
});
