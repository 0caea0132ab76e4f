import { expect, it } from "vitest";
import { type ApplicationConfig } from "#contract/application-config";
import { logListSchema, resourceResponseSchema, servicePaths, type Resource } from "#contract/services";
import { LABEL_SERVICE, labelFilter } from "../cloud/container/labels";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * An application's pre-deploy command on a container host through the API (decision 073): it runs for real before
 * the new version starts, its output in the deployment's logs; a failing one fails the deployment in words, and
 * the running version serves on, its configuration put back.
 */

const engine = setUpContainerEngine();
const platform = setUpContainerApi(engine);

const web = (greeting: string, preDeployCommand: string): ApplicationConfig => ({
  ...testWebConfig({ kind: "image", image: engine.images.web }),
  envvars: [{ kind: "value", name: "GREETING", value: greeting }],
  preDeployCommand,
});

it("runs the pre-deploy command before the new version starts; a failing one keeps the running version", async () => {
  const { environmentId } = await platform.createEnvironment("pre-deploy");
  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: web("first", 'echo "migrating for $GREETING"'),
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;
  const path = servicePaths.one(platform.tenantId, environmentId, id);
  const messages = async () => {
    const response = await platform.call(
      "GET",
      servicePaths.logs(platform.tenantId, environmentId, id, { limit: 1000 }),
    );
    return logListSchema.parse(await response.json()).logs.map((line) => line.message);
  };

  const first = await platform.settled(environmentId, id);
  expect(first.stage, first.message ?? "").toBe("STAGE_COMPLETED");
  expect(await messages()).toContain("migrating for first");
  expect(await (await fetch(first.endpoint ?? "")).text()).toBe("hello first\n");

  const changed = await platform.call("PUT", path, {
    version: first.version,
    config: web("second", 'echo "relation users does not exist" >&2; exit 3'),
  });
  expect(changed.status, await changed.clone().text()).toBe(200);
  const failed: Resource = await platform.settled(environmentId, id);
  expect(failed.stage).toBe("STAGE_FAILED");
  expect(failed.message).toBe(
    'The pre-deploy command (sh -c "echo \\"relation users does not exist\\" >&2; exit 3") exited with code 3: ' +
      `relation users does not exist. The deployment was rolled back to the container that ran before (${engine.images.web}).`,
  );
  // The running version serves on, its configuration put back; no command's container is left.
  expect(failed.endpoint).toBe(first.endpoint);
  expect(await (await fetch(failed.endpoint ?? "")).text()).toBe("hello first\n");
  expect((failed.config as ApplicationConfig).preDeployCommand).toBe('echo "migrating for $GREETING"');
  const containers = await engine.engine.listContainers({
    all: true,
    filters: labelFilter({ [LABEL_SERVICE]: id }),
  });
  expect(containers.map((container) => container.Labels["cloud-console.role"])).toEqual([undefined]);
}, 120_000);
