import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CloudStepError,
  RolloutFailedError,
  type ApplicationSources,
  type DeployDriver,
  type DriverResource,
  type RegistryAuth,
} from "../driver";
import { setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
  testOrganizationId,
} from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine({ privateRegistry: true, officialImages: ["nginx"] });
/** The health check's 5 s interval becomes 250 ms. */
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

async function labelled(serviceId: string) {
  return engine.engine.listContainers({ all: true, filters: labelFilter({ [LABEL_SERVICE]: serviceId }) });
}

async function page(endpoint: string | null) {
  return (await fetch(`${endpoint ?? ""}/`)).text();
}

describe("an application on the container engine", () => {
  it("pulls its image, runs it with its variables and labels, and answers on its endpoint once healthy", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "GREETING", value: "from the engine" }],
    });
    const context = containerContext(resource);
    const deployed = await deployUntilDone(driver, context);

    expect(deployed.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await page(deployed.endpoint)).toBe("hello from the engine\n");
    expect(deployed.progress[0]).toBe("Pulling image");
    expect(deployed.progress).toContain("Waiting for the health check");
    const messages = deployed.lines.map((line) => line.message);
    expect(messages[0]).toBe(`Pulling image "${engine.images.web}"`);
    expect(messages).toContain("Health check passed: GET /healthz on port 8080 answered 200");

    const [container, ...others] = await labelled(resource.id);
    expect(others).toEqual([]);
    expect(container?.Labels).toMatchObject({
      "cloud-console.organization": testOrganizationId,
      "cloud-console.environment": "env-1",
      "cloud-console.service": resource.id,
      "cloud-console.deployment": expect.stringMatching(/^[0-9a-f]{8}$/),
    });
    const inspected = await engine.engine.getContainer(container?.Id ?? "").inspect();
    expect(inspected.HostConfig.Memory).toBe(1024 * 1024 * 1024);
    expect(inspected.HostConfig.NanoCpus).toBe(500_000_000);
    expect(deployed.state).toMatchObject({ container: container?.Id, image: engine.images.web });
    expect(await driver.units?.(containerContext(resource, deployed.state))).toEqual([
      { name: container?.Names[0]?.replace(/^\//, ""), status: "running" },
    ]);

    await destroyUntilDone(driver, containerContext(resource, deployed.state));
    expect(await labelled(resource.id)).toEqual([]);
  });

  it("rolls out a change beside the running container, then removes the old one", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "GREETING", value: "one" }],
    });
    const first = await deployUntilDone(driver, containerContext(resource));
    const [old] = await labelled(resource.id);

    const changed: DriverResource = {
      ...resource,
      settings: { ...resource.settings, envvars: [{ name: "GREETING", value: "two" }] },
    };
    const second = await deployUntilDone(driver, containerContext(changed, first.state));
    expect(await page(second.endpoint)).toBe("hello two\n");
    const containers = await labelled(resource.id);
    expect(containers.map((container) => container.Id)).toEqual([second.state.container]);
    expect(second.state.container).not.toBe(old?.Id);
    expect(second.lines.map((line) => line.message)).toContain(
      `Removed container ${old?.Names[0]?.replace(/^\//, "")}`,
    );
    await destroyUntilDone(driver, containerContext(resource, second.state));
  });

  it("rolls back on its own when the new container never passes its health check", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "GREETING", value: "stable" }],
    });
    const running = await deployUntilDone(driver, containerContext(resource));
    const broken: DriverResource = {
      ...resource,
      config: { ...resource.config, source: { kind: "image", image: engine.images.unhealthy } },
    };

    const failure = await failedDeployment(driver, broken, running.state);
    expect(failure).toBeInstanceOf(RolloutFailedError);
    expect(failure.message).toMatch(
      /^The new container web-[0-9a-f]{8}-[0-9a-f]{8} never became healthy \(GET \/healthz on port 8080 answered 404, 3 times in a row\): the deployment was rolled back to the container that ran before \(/,
    );
    expect(failure.message.endsWith(`(${engine.images.web}).`)).toBe(true);
    expect(failure.lines.map((line) => line.message)).toContain(
      "Health check failed: GET /healthz on port 8080 answered 404",
    );
    // The old container still serves, alone.
    expect(await page(running.endpoint)).toBe("hello stable\n");
    expect((await labelled(resource.id)).map((container) => container.Id)).toEqual([running.state.container]);
    await destroyUntilDone(driver, containerContext(resource, running.state));
  });

  it("rolls back to a version by the digest it ran, whatever its tag points at now", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "GREETING", value: "v1" }],
    });
    const first = await deployUntilDone(driver, containerContext(resource));
    expect(first.state.imageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The configuration now names an image that crashes; the version pinned by the rollback still runs.
    const pinnedBack: DriverResource = {
      ...resource,
      config: { ...resource.config, source: { kind: "image", image: engine.images.crashing } },
    };
    const rolledBack = await deployUntilDone(
      driver,
      containerContext(pinnedBack, {
        ...first.state,
        pinnedImage: first.state.image ?? "",
        pinnedDigest: first.state.imageDigest ?? "",
      }),
    );
    const repository = engine.images.web.split(":").slice(0, -1).join(":");
    expect(rolledBack.lines[0]?.message).toBe(
      `Rolling back: deploying ${repository}@${first.state.imageDigest} exactly as it ran before (no tag lookup)`,
    );
    expect(await page(rolledBack.endpoint)).toBe("hello v1\n");
    expect(rolledBack.state).toMatchObject({
      image: engine.images.web,
      imageDigest: first.state.imageDigest,
      pinnedImage: "",
      pinnedDigest: "",
    });
    await destroyUntilDone(driver, containerContext(resource, rolledBack.state));
  });

  it("fails a first deployment whose container crashes at start, with its exit code and last line", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.crashing);
    const failure = await failedDeployment(driver, resource, {});
    expect(failure).toBeInstanceOf(RolloutFailedError);
    expect(failure.message).toMatch(
      // Restarted by its restart policy, it may be caught running again: the engine then has no exit code.
      /^The new container web-[0-9a-f]{8}-[0-9a-f]{8} (exited with code 3|kept exiting \(restarted \d+ times?\)) before its health check passed \(fatal: cannot start\): the deployment was rolled back \(nothing ran before it\)\.$/,
    );
    expect(failure.lines).toContainEqual(
      expect.objectContaining({ level: "error", message: "fatal: cannot start" }),
    );
    expect(await labelled(resource.id)).toEqual([]);
  });

  it("creates no second container when a step is repeated after a crash", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web);
    const pulled = await driver.apply(containerContext(resource));
    const startStep = containerContext(resource, pulled.state, { step: 1 });
    const started = await driver.apply(startStep);
    // The platform died before it persisted the step's state: the engine calls the same step again.
    const again = await driver.apply(startStep);
    expect(again.state.newContainer).toBe(started.state.newContainer);
    expect(await labelled(resource.id)).toHaveLength(1);
    await destroyUntilDone(driver, containerContext(resource, again.state));
    expect(await labelled(resource.id)).toEqual([]);
  });

  it("sees a container stopped or removed outside the console", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource(engine.images.web);
    const { state } = await deployUntilDone(driver, containerContext(resource));
    const context = containerContext(resource, state);
    expect(await driver.observe?.(context)).toEqual({ state: "ok" });

    const container = engine.engine.getContainer(state.container ?? "");
    await container.stop({ t: 0 });
    expect(await driver.observe?.(context)).toEqual({
      state: "degraded",
      message: expect.stringMatching(
        /^Its container web-[0-9a-f]{8}-[0-9a-f]{8} stopped outside the console: it exited with code \d+ at /,
      ),
    });
    await container.remove({ force: true });
    expect(await driver.observe?.(context)).toEqual({
      state: "missing",
      message: `Its container (${state.container?.slice(0, 12)}) was removed outside the console.`,
    });
    await destroyUntilDone(driver, context);
  });

  it("pulls a registry's image with the credentials its connection gives, and says the registry's refusal", async () => {
    const driver = driverOf();
    const { host, username, password, image } = engine.privateRegistry;
    const connectionId = randomUUID();
    const resource = {
      ...containerApplicationResource(""),
      config: {
        ...containerApplicationResource("").config,
        source: {
          kind: "registry",
          connectionId,
          repository: "test/private-web",
          tag: "1",
        },
      },
    };
    const asked: string[] = [];
    const sourcesWith = (auth?: RegistryAuth): ApplicationSources => ({
      registryImage: async (connectionId, repository, tag) => {
        asked.push(`${connectionId} ${repository}:${tag}`);
        // The connection knows the registry's host; the source names the repository in it.
        return { image: `${host}/${repository}:${tag}`, digest: "sha256:unused", ...(auth ? { auth } : {}) };
      },
      githubSource: () => Promise.reject(new Error("no GitHub here")),
      githubArchive: () => Promise.reject(new Error("no GitHub here")),
      chartRepositoryUrl: async () => undefined,
    });

    const refused = await driver
      .apply(containerContext(resource, {}, { sources: sourcesWith() }))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ transient: false });
    expect(refused).toBeInstanceOf(CloudStepError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^Pulling ${image.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} failed: .*(unauthorized|authentication required)`,
        "i",
      ),
    );

    const deployed = await deployUntilDone(
      driver,
      containerContext(resource, {}, { sources: sourcesWith({ username, password, serveraddress: host }) }),
    );
    expect(await page(deployed.endpoint)).toBe("hello world\n");
    expect(deployed.lines[0]?.message).toBe(
      `Pulling image "${image}" with the credentials of the connection`,
    );
    expect(JSON.stringify(deployed.lines)).not.toContain(password);
    expect(asked).toEqual(Array(2).fill(`${connectionId} test/private-web:1`));
    await destroyUntilDone(driver, containerContext(resource, deployed.state));
  });

  it("pulls an official image by its Docker Hub name (nginx:1.27), as a Docker host with internet does", async () => {
    const driver = driverOf();
    const resource = containerApplicationResource("nginx:1.27", {
      envvars: [{ name: "GREETING", value: "from the official image" }],
      networking: { port: 80, public: true, customDomain: "" },
      healthCheck: { path: "/", port: 80, intervalSeconds: 5, timeoutSeconds: 2, healthyThreshold: 1 },
    });
    const deployed = await deployUntilDone(driver, containerContext(resource));

    expect(deployed.lines[0]?.message).toBe('Pulling image "nginx:1.27"');
    expect(deployed.state.imageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const page = await (await fetch(`${deployed.endpoint ?? ""}/`)).text();
    expect(page).toContain("Welcome to nginx!");
    expect(page).toContain("from the official image");
    const pulled = await engine.engine.getImage(deployed.state.imageId ?? "").inspect();
    expect(pulled.RepoTags).toContain("docker.io/library/nginx:1.27");
    await destroyUntilDone(driver, containerContext(resource, deployed.state));
  });

  it("says which types cannot run on a container engine yet", async () => {
    const driver = driverOf();
    const nosql = {
      ...containerApplicationResource(engine.images.web),
      serviceType: "nosql-database" as const,
    };
    await expect(driver.apply(containerContext(nosql))).rejects.toThrow(
      "NoSQL database services cannot be deployed to a container engine yet.",
    );
  });
});

/** The error a deployment of `resource` from `state` ends with (it must end with one). */
async function failedDeployment(
  driver: DeployDriver,
  resource: DriverResource,
  state: Record<string, string>,
) {
  const failure = await deployUntilDone(driver, containerContext(resource, state)).then(
    () => null,
    (error: unknown) => error,
  );
  if (!(failure instanceof RolloutFailedError))
    throw new Error(`Expected a failed rollout, got ${String(failure)}`);
  return failure;
}
