import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApplicationConfig, type ApplicationConfig } from "#contract/application-config";
import { environmentMapSchema } from "#contract/infrastructure-map";
import { defaultServiceSettings, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { resources } from "../db/schema";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
let member: TestMember;
beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember();
});
afterAll(() => api.close());

type NewService = Omit<typeof resources.$inferInsert, "environmentId" | "stage" | "settings"> &
  Partial<Pick<typeof resources.$inferInsert, "stage" | "settings">>;
async function insertService(environmentId: string, values: NewService) {
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId,
      stage: "STAGE_COMPLETED",
      settings: defaultServiceSettings,
      deployedAt: new Date("2026-01-10T12:00:00.000Z"),
      ...values,
    })
    .returning();
  if (!row) throw new Error("service was not created");
  return row;
}

const application = (overrides: Partial<ApplicationConfig>): ApplicationConfig => ({
  ...defaultApplicationConfig,
  source: { kind: "image", image: "nginx:1.27" },
  ...overrides,
});

const t = () => member.organization.tenantId;
const getMap = (environmentId: string, token = member.user.token) =>
  api.call("GET", servicePaths.map(t(), environmentId), { token });

describe("GET infrastructure-map", () => {
  it("answers no nodes for an empty environment", async () => {
    const environment = await api.createEnvironment(t());
    const response = await getMap(environment.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ nodes: [], links: [] });
  });

  it("links applications to their cluster, the services their variables name and their certificate", async () => {
    const environment = await api.createEnvironment(t());
    const network = await insertService(environment.id, {
      name: "main-network",
      serviceType: "network",
      config: defaultServiceConfigs.network,
    });
    const cluster = await insertService(environment.id, {
      name: "main-cluster",
      serviceType: "kubernetes",
      config: defaultServiceConfigs.kubernetes,
    });
    // A draft cluster runs nothing: no application is placed on it.
    await insertService(environment.id, {
      name: "draft-cluster",
      serviceType: "kubernetes",
      stage: "STAGE_DRAFT",
      deployedAt: null,
      config: defaultServiceConfigs.kubernetes,
    });
    const database = await insertService(environment.id, {
      name: "orders-db",
      serviceType: "database",
      config: defaultServiceConfigs.database,
    });
    const cache = await insertService(environment.id, {
      name: "sessions",
      serviceType: "cache",
      config: defaultServiceConfigs.cache,
    });
    const certificate = await insertService(environment.id, {
      name: "shop-cert",
      serviceType: "tls",
      config: { ...defaultServiceConfigs.tls, domain: "shop.example.com" },
    });
    const mapBefore = environmentMapSchema.parse(await (await getMap(environment.id)).json());
    expect(mapBefore.nodes.find((node) => node.id === certificate.id)?.domain).toBe("shop.example.com");
    // The application names the certificate by the id GET certificates/match answers.
    const matched = (await (
      await api.call("GET", servicePaths.certificateMatch(t(), environment.id, "shop.example.com"), {
        token: member.user.token,
      })
    ).json()) as { certificate: { id: string } };

    const shop = await insertService(environment.id, {
      name: "shop",
      serviceType: "application",
      config: application({
        envvars: [
          { kind: "attribute", name: "DATABASE_URL", service: "orders-db", attribute: "connectionString" },
          { kind: "attribute", name: "DATABASE_PASSWORD", service: "orders-db", attribute: "password" },
          { kind: "attribute", name: "GONE", service: "deleted-service", attribute: "password" },
          { kind: "value", name: "MODE", value: "sessions" },
        ],
        domain: { host: "shop.example.com", certificateId: matched.certificate.id },
      }),
    });
    const worker = await insertService(environment.id, {
      name: "worker",
      serviceType: "application",
      config: application({
        envvars: [{ kind: "attribute", name: "REDIS_URL", service: "sessions", attribute: "endpoint" }],
      }),
    });

    const response = await getMap(environment.id);
    expect(response.status).toBe(200);
    const map = environmentMapSchema.parse(await response.json());
    expect(map.nodes.map((node) => node.name)).toEqual([
      "draft-cluster",
      "main-cluster",
      "main-network",
      "orders-db",
      "sessions",
      "shop",
      "shop-cert",
      "worker",
    ]);
    expect(map.nodes.find((node) => node.id === network.id)).toMatchObject({
      serviceType: "network",
      stage: "STAGE_COMPLETED",
      domain: null,
    });
    expect(map.nodes.find((node) => node.id === shop.id)?.domain).toBe("shop.example.com");
    expect(map.links).toEqual(
      expect.arrayContaining([
        { from: shop.id, to: cluster.id, kind: "runs-on" },
        { from: shop.id, to: database.id, kind: "uses" },
        { from: shop.id, to: certificate.id, kind: "certificate" },
        { from: worker.id, to: cluster.id, kind: "runs-on" },
        { from: worker.id, to: cache.id, kind: "uses" },
      ]),
    );
    // One link per used service however many variables name it; a plain value naming a service is no use.
    expect(map.links).toHaveLength(5);
  });

  it("lets a read-only member view it, and answers 404 for another organization's environment", async () => {
    const environment = await api.createEnvironment(t());
    const reader = await api.createUser();
    await api.addMember(reader.id, member.organization.organizationId, "read-only");
    expect((await getMap(environment.id, reader.token)).status).toBe(200);
    const stranger = await api.createMember();
    const response = await api.call("GET", servicePaths.map(stranger.organization.tenantId, environment.id), {
      token: stranger.user.token,
    });
    expect(response.status).toBe(404);
  });
});
