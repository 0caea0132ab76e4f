import { afterAll, expect, it } from "vitest";
import {
  attributeResponseSchema,
  costEstimateSchema,
  resourceResponseSchema,
  servicePaths,
  serviceUnitsSchema,
} from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { openTestApi, testEngineConfig } from "../testing/http-harness";

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

it("answers what a running deployment's step waits for, and since when", async () => {
  let clock = new Date("2033-01-01T09:40:00.000Z");
  // Real step durations on the test's clock: the deployment stays in a phase until the test moves time.
  const paced = await openTestApi({ engine: { ...testEngineConfig, timeScale: 1 } }, { now: () => clock });
  try {
    const { user, organization } = await paced.createMember();
    const environment = await paced.createEnvironment(organization.tenantId);
    const call = (method: string, path: string, json?: unknown) =>
      paced.call(method, path, { token: user.token, json });
    const created = await call("POST", servicePaths.list(organization.tenantId, environment.id), {
      serviceType: "database",
      name: "orders-db",
      config: defaultServiceConfigs.database,
      launch: true,
    });
    const { resource } = resourceResponseSchema.parse(await created.json());
    const shown = async () =>
      resourceResponseSchema.parse(
        await (
          await call("GET", servicePaths.one(organization.tenantId, environment.id, resource.id))
        ).json(),
      ).resource;
    expect((await shown()).progress).toBeNull();

    clock = new Date(clock.getTime() + 1_000);
    await paced.engine.runner.runDue();
    const started = clock.toISOString();
    expect(await shown()).toMatchObject({
      stage: "STAGE_IN_PROGRESS",
      progress: { step: expect.stringMatching(/\S/), since: started },
    });
    const { progress } = await shown();

    // Still in that phase a second later: the same wait, since the same time.
    clock = new Date(clock.getTime() + 1_000);
    await paced.engine.runner.runDue();
    expect((await shown()).progress).toEqual(progress);
  } finally {
    await paced.close();
  }
});

it("answers the simulated units of a type that has them, marked simulated, and none for a queue", async () => {
  const { user, organization } = await api.createMember();
  const environment = await api.createEnvironment(organization.tenantId);
  const call = (method: string, path: string, json?: unknown) =>
    api.call(method, path, { token: user.token, json });
  const deployed = async (serviceType: "database" | "queue", name: string) => {
    const created = await call("POST", servicePaths.list(organization.tenantId, environment.id), {
      serviceType,
      name,
      config: defaultServiceConfigs[serviceType],
      launch: true,
    });
    return resourceResponseSchema.parse(await created.json()).resource.id;
  };
  const database = await deployed("database", "units-db");
  const queue = await deployed("queue", "units-queue");
  await api.engine.runner.runUntilIdle();
  const unitsOf = async (id: string) => {
    const response = await call("GET", servicePaths.units(organization.tenantId, environment.id, id));
    expect(response.status).toBe(200);
    return serviceUnitsSchema.parse(await response.json());
  };

  // A single-AZ database: its one instance, as the simulated cloud names it.
  expect(await unitsOf(database)).toEqual({
    simulated: true,
    units: [{ name: "units-db-0", status: "Running" }],
  });
  // SQS runs a queue on nothing of the account's: no made-up agent pod.
  expect(await unitsOf(queue)).toEqual({ simulated: true, units: [] });
});
