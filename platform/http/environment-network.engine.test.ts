import { expect, it } from "vitest";
import { environmentPaths } from "#contract/environments";
import { defaultServiceConfigs } from "#contract/service-configs";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { LABEL_ENVIRONMENT, LABEL_SERVICE, labelFilter } from "../cloud/container/labels";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * Decision 066 through the API, on the run's podman: an application and its database launched together in an
 * environment on a container host; the application's DATABASE_URL (the database's connectionString) names the
 * database on the environment's network, so the application's container connects to it; deleting the
 * environment removes the network.
 */

const engine = setUpContainerEngine({ officialImages: ["postgres"] });
const platform = setUpContainerApi(engine);

async function launched(environmentId: string, body: Record<string, unknown>): Promise<string> {
  const response = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    ...body,
    launch: true,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return resourceResponseSchema.parse(await response.json()).resource.id;
}

/** Runs `script` with sh in the container; its exit code and output. */
async function shellIn(containerId: string, script: string) {
  const exec = await engine.engine
    .getContainer(containerId)
    .exec({ Cmd: ["sh", "-c", script], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
    stream.on("end", () => resolve());
    stream.on("error", reject);
  });
  return { code: (await exec.inspect()).ExitCode, output: output.replace(/[^\x20-\x7e\n]/g, "") };
}

/**
 * The shell check, asked again for up to 45 s while it fails: a container just started on the network sometimes
 * gets no answer to its first connections for several seconds (DNS answers; the TCP connection times out), seen
 * most after another test file's engine ran (decision 066, "Where it stands").
 */
async function shellUntilDone(...args: Parameters<typeof shellIn>) {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const result = await shellIn(...args);
    if (result.code === 0 || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

it("an application reaches its database through DATABASE_URL on the environment's network, which goes with the environment", async () => {
  const { environmentId } = await platform.createEnvironment("network-on-this-machine");
  const database = await launched(environmentId, {
    serviceType: "database",
    name: "orders-db",
    config: { ...defaultServiceConfigs.database, engine: "postgres", version: "16", username: "shop" },
  });
  // Launched at once: its deployment waits for the database's attributes.
  const web = await launched(environmentId, {
    serviceType: "application",
    name: "web",
    config: {
      ...testWebConfig({ kind: "image", image: engine.images.web }),
      envvars: [
        { kind: "attribute", name: "DATABASE_URL", service: "orders-db", attribute: "connectionString" },
      ],
    },
  });

  const application = await platform.settled(environmentId, web, { timeoutMs: 180_000 });
  expect(application.stage, application.message ?? "").toBe("STAGE_COMPLETED");
  const db = await platform.settled(environmentId, database, { timeoutMs: 60_000 });
  expect(db.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);

  const [container] = await engine.engine.listContainers({
    filters: labelFilter({ [LABEL_SERVICE]: web }),
  });
  const env = (await engine.engine.getContainer(container?.Id ?? "").inspect()).Config.Env;
  expect(env.find((variable) => variable.startsWith("DATABASE_URL="))).toMatch(
    /^DATABASE_URL=postgres:\/\/shop:[A-Za-z0-9]{32}@orders-db:5432\/orders_db$/,
  );
  expect(
    await shellUntilDone(
      container?.Id ?? "",
      'rest=${DATABASE_URL#*@}; address=${rest%%/*}; echo | nc -w 3 "${address%:*}" "${address#*:}" && echo connected',
    ),
  ).toMatchObject({ code: 0, output: expect.stringContaining("connected") });

  const filters = labelFilter({ [LABEL_ENVIRONMENT]: environmentId });
  expect(await engine.engine.listNetworks({ filters })).toHaveLength(1);
  const path = environmentPaths.one(platform.tenantId, environmentId);
  const deleted = await platform.call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await platform.api.engine.runner.runUntilIdle();
    if ((await platform.call("GET", path)).status === 404) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await platform.call("GET", path)).status).toBe(404);
  // Nothing labelled with the environment is left: containers, the database's volume, the network.
  expect({
    containers: await engine.engine.listContainers({ all: true, filters }),
    volumes: (await engine.engine.listVolumes({ filters })).Volumes ?? [],
    networks: await engine.engine.listNetworks({ filters }),
  }).toEqual({ containers: [], volumes: [], networks: [] });
}, 300_000);
