import { afterAll, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { environmentPaths, environmentVariableListSchema } from "#contract/environments";
import { defaultServiceConfigs } from "#contract/service-configs";
import {
  attributeResponseSchema,
  logListSchema,
  resourceResponseSchema,
  servicePaths,
} from "#contract/services";
import { openTestApi } from "../testing/http-harness";

/*
 * An application's references resolved at its deployment in the simulated cloud (decision 074): its logs say which
 * it resolved, by name, never a value; a reference the environment no longer has fails the deployment in words.
 */

const api = await openTestApi();
afterAll(() => api.close());

const SECRET = "s3cret-0c41d7-never-in-logs";

async function setup() {
  const member = await api.createMember();
  const t = member.organization.tenantId;
  const w = (await api.createEnvironment(t)).id;
  const call = (method: string, path: string, json?: unknown) =>
    api.call(method, path, { token: member.user.token, json });
  const serviceOf = async (id: string) =>
    resourceResponseSchema.parse(await (await call("GET", servicePaths.one(t, w, id))).json()).resource;
  const create = async (body: Record<string, unknown>) => {
    const response = await call("POST", servicePaths.list(t, w), { launch: true, ...body });
    expect(response.status, await response.clone().text()).toBe(201);
    await api.engine.runner.runUntilIdle();
    return serviceOf(resourceResponseSchema.parse(await response.json()).resource.id);
  };
  const logsOf = async (id: string) =>
    logListSchema
      .parse(await (await call("GET", servicePaths.logs(t, w, id, { limit: 1000 }))).json())
      .logs.map((line) => line.message);
  const redeploy = async (id: string) => {
    const response = await call("POST", servicePaths.launchDraft(t, w, id), {});
    expect(response.status, await response.clone().text()).toBe(200);
    await api.engine.runner.runUntilIdle();
    return serviceOf(id);
  };
  return { t, w, call, create, logsOf, redeploy };
}

it("logs each reference a deployment resolved, by name, never its value; a deleted variable or service, or one never deployed, fails the deployment naming it", async () => {
  const { t, w, call, create, logsOf, redeploy } = await setup();
  const saved = await call("POST", environmentPaths.variables(t, w), {
    envVariables: [
      { name: "GREETING_TEXT", value: "hello from the environment", secret: false },
      { name: "API_KEY", value: SECRET, secret: true },
    ],
  });
  expect(saved.status, await saved.clone().text()).toBe(201);
  const variables = environmentVariableListSchema.parse(await saved.json()).envVariables;
  const database = await create({
    serviceType: "database",
    name: "orders-db",
    config: defaultServiceConfigs.database,
  });
  expect(database.stage).toBe("STAGE_COMPLETED");

  const web = await create({
    serviceType: "application",
    name: "web",
    config: {
      ...defaultApplicationConfig,
      source: { kind: "image", image: "nginx:1.27" },
      envvars: [
        { kind: "variable", name: "GREETING", variable: "GREETING_TEXT" },
        { kind: "variable", name: "API_KEY", variable: "API_KEY" },
        { kind: "attribute", name: "DATABASE_URL", service: "orders-db", attribute: "connectionString" },
        { kind: "value", name: "MODE", value: "plain" },
      ],
    },
  });
  expect(web, web.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  const logs = await logsOf(web.id);
  expect(logs).toEqual(
    expect.arrayContaining([
      "Resolved GREETING from the environment variable GREETING_TEXT",
      "Resolved API_KEY from the environment variable API_KEY (secret)",
      "Resolved DATABASE_URL from orders-db's connectionString (secret)",
    ]),
  );
  const connectionString = attributeResponseSchema.parse(
    await (await call("GET", servicePaths.attribute(t, w, database.id, "connectionString"))).json(),
  ).value;
  expect(connectionString).not.toBe("");
  for (const secret of [SECRET, connectionString]) expect(logs.join("\n")).not.toContain(secret);

  const deleted = await call("DELETE", environmentPaths.variables(t, w), {
    envVariableIds: variables
      .filter((variable) => variable.name === "API_KEY")
      .map((variable) => variable.id),
  });
  expect(deleted.status, await deleted.clone().text()).toBe(204);
  expect(await redeploy(web.id)).toMatchObject({
    stage: "STAGE_FAILED",
    message:
      "API_KEY references the environment variable API_KEY, which this environment no longer has: add it again or change API_KEY.",
  });

  const again = await call("POST", environmentPaths.variables(t, w), {
    envVariables: [{ name: "API_KEY", value: SECRET, secret: true }],
  });
  expect(again.status, await again.clone().text()).toBe(201);
  const removed = await call("DELETE", servicePaths.one(t, w, database.id));
  expect([202, 204], await removed.clone().text()).toContain(removed.status);
  await api.engine.runner.runUntilIdle();
  expect(await redeploy(web.id)).toMatchObject({
    stage: "STAGE_FAILED",
    message:
      "DATABASE_URL references orders-db.connectionString, but this environment has no service named orders-db.",
  });

  // A service saved but never deployed answers nothing, and nothing is deploying it: no waiting for ever.
  const draft = await create({
    serviceType: "database",
    name: "reports-db",
    config: defaultServiceConfigs.database,
    launch: false,
  });
  const reporter = await create({
    serviceType: "application",
    name: "reporter",
    config: {
      ...defaultApplicationConfig,
      source: { kind: "image", image: "nginx:1.27" },
      envvars: [
        { kind: "attribute", name: "REPORTS_URL", service: draft.name, attribute: "connectionString" },
      ],
    },
  });
  expect(reporter).toMatchObject({
    stage: "STAGE_FAILED",
    message:
      "REPORTS_URL references reports-db.connectionString, which reports-db has not answered: deploy reports-db first.",
  });
});
