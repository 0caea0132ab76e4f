import { describe, expect, it } from "vitest";
import { RolloutFailedError, type DeployContext, type DeployDriver, type DriverResource } from "../driver";
import { setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
} from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine();
/** The health check's 5 s interval becomes 250 ms; the command's container is looked at every 100 ms or so. */
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

const labelled = (serviceId: string) =>
  engine.engine.listContainers({ all: true, filters: labelFilter({ [LABEL_SERVICE]: serviceId }) });

const oneOffsOf = async (serviceId: string) =>
  (await labelled(serviceId)).filter((container) => container.Labels["cloud-console.role"]);

const page = async (endpoint: string | null) => (await fetch(`${endpoint ?? ""}/`)).text();

/** The application's next version: its variable and its pre-deploy command changed. */
function withCommand(resource: DriverResource, greeting: string, preDeployCommand: string): DriverResource {
  return {
    ...resource,
    config: { ...resource.config, preDeployCommand },
    settings: { ...resource.settings, envvars: [{ name: "GREETING", value: greeting }] },
  };
}

async function failedDeployment(
  driver: DeployDriver,
  resource: DriverResource,
  state: Record<string, string>,
  overrides: Partial<DeployContext> = {},
) {
  const failure = await deployUntilDone(driver, containerContext(resource, state, overrides)).then(
    () => null,
    (error: unknown) => error,
  );
  if (!(failure instanceof RolloutFailedError))
    throw new Error(`Expected a failed rollout, got ${String(failure)}`);
  return failure;
}

describe("an application's pre-deploy command on the container engine", () => {
  it("runs once in a container of the new image on the environment's network, its output in the logs, then starts the new version", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "GREETING", value: "stable" }],
    });
    const running = await deployUntilDone(driver, containerContext(resource));
    // The new version's variables; the running version reached by its service's name on the network.
    const next = withCommand(resource, "two", 'echo "migrating to $GREETING"; wget -qO- http://web:8080/');

    const deployed = await deployUntilDone(driver, containerContext(next, running.state));

    expect(deployed.progress).toContain("Running the pre-deploy command");
    const messages = deployed.lines.map((line) => line.message);
    expect(messages).toContain("migrating to two");
    expect(messages).toContain("hello stable");
    expect(messages).toContain(
      'The pre-deploy command (sh -c "echo \\"migrating to $GREETING\\"; wget -qO- http://web:8080/") exited with code 0',
    );
    // Before the new container was created.
    expect(messages.indexOf("hello stable")).toBeLessThan(
      messages.findIndex((message) => /^Created container web-.* as web$/.test(message)),
    );
    expect(deployed.lines.find((line) => line.message === "migrating to two")?.podName).toMatch(
      /^web-[0-9a-f]{8}-[0-9a-f]{8}-pre-deploy$/,
    );
    expect(await page(deployed.endpoint)).toBe("hello two\n");
    expect(await oneOffsOf(resource.id)).toEqual([]);
    expect((await labelled(resource.id)).map((container) => container.Id)).toEqual([
      deployed.state.container,
    ]);
    expect(await driver.units?.(containerContext(next, deployed.state))).toHaveLength(1);
    await destroyUntilDone(driver, containerContext(next, deployed.state));
  });

  it("fails the deployment with the command's exit code and last lines, the running version untouched", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "GREETING", value: "stable" }],
    });
    const running = await deployUntilDone(driver, containerContext(resource));
    const next = withCommand(resource, "two", 'echo "relation \\"users\\" does not exist" >&2; exit 3');

    const failure = await failedDeployment(driver, next, running.state);

    expect(failure.message).toBe(
      'The pre-deploy command (sh -c "echo \\"relation \\\\\\"users\\\\\\" does not exist\\" >&2; exit 3") exited ' +
        'with code 3: relation "users" does not exist. The deployment was rolled back to the container that ran ' +
        `before (${engine.images.web}).`,
    );
    expect(failure.lines.map((line) => line.message)).toContain('relation "users" does not exist');
    expect(await page(running.endpoint)).toBe("hello stable\n");
    expect((await labelled(resource.id)).map((container) => container.Id)).toEqual([running.state.container]);
    await destroyUntilDone(driver, containerContext(resource, running.state));
  });

  it("finds its running command again after a restart (never a second run): no ports, no restart policy, the new image", async () => {
    const driver = driverOf();
    const resource = withCommand(containerApplicationResource(engine.images.web), "one", "echo ran; sleep 1");
    const pulled = await driver.apply(containerContext(resource));
    expect(pulled.done ? null : pulled.progress).toBe("Pulling image");
    const commandStep = containerContext(resource, pulled.state, { step: 1 });
    const started = await driver.apply(commandStep);
    // The platform died before it kept the step's state: the engine calls the same step again.
    const again = await driver.apply(commandStep);

    expect(again.state.oneOffContainer).toBe(started.state.oneOffContainer);
    const [oneOff, ...others] = await oneOffsOf(resource.id);
    expect(others).toEqual([]);
    const inspected = await engine.engine.getContainer(oneOff?.Id ?? "").inspect();
    expect(inspected.Image).toBe(pulled.state.imageId);
    expect([...(inspected.Config.Entrypoint ?? []), ...(inspected.Config.Cmd ?? [])]).toEqual([
      "sh",
      "-c",
      "echo ran; sleep 1",
    ]);
    expect(inspected.Config.Labels).toMatchObject({
      "cloud-console.role": "pre-deploy",
      "cloud-console.deployment": pulled.state.rollout,
    });
    // The image's EXPOSE shows as a port bound to nothing.
    expect(
      Object.values(inspected.HostConfig.PortBindings ?? {})
        .flat()
        .filter(Boolean),
    ).toEqual([]);
    expect(["", "no"]).toContain(inspected.HostConfig.RestartPolicy?.Name ?? "");
    // Not one of the service's units while it runs.
    expect(await driver.units?.(containerContext(resource, again.state))).toEqual([]);

    const deployed = await deployUntilDone(driver, containerContext(resource, again.state, { step: 2 }));
    expect(deployed.lines.filter((line) => line.message === "ran")).toHaveLength(1);
    expect(await page(deployed.endpoint)).toBe("hello one\n");
    expect(await oneOffsOf(resource.id)).toEqual([]);
    await destroyUntilDone(driver, containerContext(resource, deployed.state));
  });

  it("stops and removes a command still running at the deployment's time-out", async () => {
    const driver = driverOf();
    const resource = withCommand(containerApplicationResource(engine.images.web), "one", "sleep 60");
    const failure = await deployUntilDone(
      driver,
      containerContext(resource, {}, { deadline: new Date(Date.now() + 4000) }),
    ).then(
      () => null,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(RolloutFailedError);
    expect((failure as Error).message).toBe(
      'The pre-deploy command (sh -c "sleep 60") was still running at the deployment\'s time-out: it was ' +
        "stopped. The deployment was rolled back (nothing ran before it).",
    );
    expect(await labelled(resource.id)).toEqual([]);
  });

  it("runs a preview's seed command after the pre-deploy command, in the same way", async () => {
    const driver = driverOf();
    const resource = withCommand(containerApplicationResource(engine.images.web), "one", "echo migrated");
    const deployed = await deployUntilDone(
      driver,
      containerContext(resource, {}, { seedCommand: "echo seeded; echo with $GREETING" }),
    );
    const messages = deployed.lines.map((line) => line.message);
    expect(deployed.progress).toEqual(
      expect.arrayContaining(["Running the pre-deploy command", "Running the seed command"]),
    );
    expect(messages.indexOf("migrated")).toBeLessThan(messages.indexOf("seeded"));
    expect(messages).toContain("with one");
    expect(await page(deployed.endpoint)).toBe("hello one\n");
    expect(await oneOffsOf(resource.id)).toEqual([]);

    // A failing seed fails its deployment in its own words; what runs stays.
    const failure = await failedDeployment(driver, resource, deployed.state, {
      seedCommand: "echo 'no such table: users'; exit 4",
    });
    expect(failure.message).toBe(
      "The seed command (sh -c \"echo 'no such table: users'; exit 4\") exited with code 4: no such table: users. " +
        "The deployment was rolled back to the container that ran before (" +
        engine.images.web +
        ").",
    );
    expect(await page(deployed.endpoint)).toBe("hello one\n");
    expect(await oneOffsOf(resource.id)).toHaveLength(0);
    await destroyUntilDone(driver, containerContext(resource, deployed.state));
  });
});
