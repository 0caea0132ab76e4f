import { afterAll, expect, it } from "vitest";
import {
  attributeResponseSchema,
  costEstimateSchema,
  resourceResponseSchema,
  servicePaths,
} from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { openTestApi } from "../testing/http-harness";

/* The services API over the default (simulated) driver: a deployment runs its real plan end to end. */
const api = await openTestApi();
afterAll(() => api.close());

it("deploys a database with the simulated driver", async () => {
  const { user, organization } = await api.createMember();
  const environment = await api.createEnvironment(organization.tenantId);
  const call = (method: string, path: string, json?: unknown) =>
    api.call(method, path, { token: user.token, json });

  const created = await call("POST", servicePaths.list(organization.tenantId, environment.id), {
    serviceType: "database",
    name: "orders-db",
    config: defaultServiceConfigs.database,
    launch: true,
  });
  expect(created.status).toBe(201);
  const { resource } = resourceResponseSchema.parse(await created.json());
  await api.engine.runner.runUntilIdle();

  const detail = resourceResponseSchema.parse(
    await (await call("GET", servicePaths.one(organization.tenantId, environment.id, resource.id))).json(),
  ).resource;
  expect(detail.stage).toBe("STAGE_COMPLETED");
  expect(detail.endpoint).toBeTruthy();
  expect(detail.monthlyCost).toBeGreaterThan(0);
  expect(detail.pods.length).toBeGreaterThan(0);
  const [attribute] = detail.secretAttributes;
  if (!attribute) throw new Error("a database has secret attributes");
  const revealed = await call(
    "GET",
    servicePaths.attribute(organization.tenantId, environment.id, resource.id, attribute),
  );
  expect(revealed.status).toBe(200);
  const { value } = attributeResponseSchema.parse(await revealed.json());
  expect(JSON.stringify(detail)).not.toContain(value);

  const estimate = await call("POST", servicePaths.estimateCost(organization.tenantId, environment.id), {
    serviceType: "database",
    config: defaultServiceConfigs.database,
  });
  expect(costEstimateSchema.parse(await estimate.json()).monthlyCost).toBe(detail.monthlyCost);
});
