import { expect, it } from "vitest";
import { environmentPaths, environmentVariableListSchema } from "#contract/environments";
import { logListSchema, resourceResponseSchema, servicePaths } from "#contract/services";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * An application's `${NAME}` variables name the environment's variables: the deployment on a container host
 * resolves them (decision 074), a secret one unsealed for the container alone. The test image's page says
 * `hello $GREETING`.
 */

const engine = setUpContainerEngine();
const platform = setUpContainerApi(engine);

const SECRET = "s3cret-7f2a9c-never-in-logs";

it("resolves ${NAME} from the environment's variables at deployment: the page shows the value, a secret reaches the container but never the logs, a change shows after a redeploy, a deleted one fails in words", async () => {
  const { environmentId } = await platform.createEnvironment("variables-on-this-machine");
  const variablesPath = environmentPaths.variables(platform.tenantId, environmentId);
  const saved = await platform.call("POST", variablesPath, {
    envVariables: [
      { name: "GREETING_TEXT", value: "from the environment", secret: false },
      { name: "API_KEY", value: SECRET, secret: true },
    ],
  });
  expect(saved.status, await saved.clone().text()).toBe(201);
  const variables = environmentVariableListSchema.parse(await saved.json()).envVariables;
  const idOf = (name: string) => variables.find((variable) => variable.name === name)?.id ?? "";

  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "application",
    name: "greeter",
    config: {
      ...testWebConfig({ kind: "image", image: engine.images.web }),
      envvars: [
        { kind: "variable", name: "GREETING", variable: "GREETING_TEXT" },
        { kind: "variable", name: "API_KEY", variable: "API_KEY" },
      ],
    },
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const deployed = await platform.settled(environmentId, id);
  expect(deployed, deployed.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(await (await fetch(deployed.endpoint ?? "")).text()).toBe("hello from the environment\n");
  const [container] = await engine.engine.listContainers({
    filters: { label: [`cloud-console.service=${id}`] },
  });
  const environment = (await engine.engine.getContainer(container?.Id ?? "").inspect()).Config.Env;
  expect(environment).toContain(`API_KEY=${SECRET}`);
  expect(environment).toContain("GREETING=from the environment");

  const logsPath = servicePaths.logs(platform.tenantId, environmentId, id, { limit: 500 });
  const logs = async () =>
    logListSchema
      .parse(await (await platform.call("GET", logsPath)).json())
      .logs.map((line) => line.message)
      .join("\n");
  const written = await logs();
  // Which references were resolved, by name; the secret's value nowhere.
  expect(written).toContain("Resolved GREETING from the environment variable GREETING_TEXT");
  expect(written).toContain("Resolved API_KEY from the environment variable API_KEY (secret)");
  expect(written).not.toContain(SECRET);

  // A changed variable reaches the application at its next deployment.
  const changed = await platform.call("PUT", variablesPath, {
    envVariables: [{ id: idOf("GREETING_TEXT"), value: "changed since" }],
  });
  expect(changed.status, await changed.clone().text()).toBe(200);
  const launchPath = servicePaths.launchDraft(platform.tenantId, environmentId, id);
  const redeploy = await platform.call("POST", launchPath, {});
  expect(redeploy.status, await redeploy.clone().text()).toBe(200);
  const redeployed = await platform.settled(environmentId, id);
  expect(redeployed, redeployed.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(await (await fetch(redeployed.endpoint ?? "")).text()).toBe("hello changed since\n");

  // Deleted since the application was saved: the deployment fails naming it, and the running container stays.
  const deleted = await platform.call("DELETE", variablesPath, { envVariableIds: [idOf("GREETING_TEXT")] });
  expect(deleted.status, await deleted.clone().text()).toBe(204);
  expect((await platform.call("POST", launchPath, {})).status).toBe(200);
  const failed = await platform.settled(environmentId, id);
  expect(failed).toMatchObject({
    stage: "STAGE_FAILED",
    message:
      "GREETING references the environment variable GREETING_TEXT, which this environment no longer has: add it again or change GREETING.",
  });
  expect(await (await fetch(redeployed.endpoint ?? "")).text()).toBe("hello changed since\n");
  expect(await logs()).not.toContain(SECRET);
}, 180_000);
