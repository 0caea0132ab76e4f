import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings } from "#contract/services";
import type { DeployContext, DriverResource } from "../driver";
import type { Engine } from "./engine";
import { setUpContainerEngine } from "../../testing/container-engine";
import {
  containerApplicationResource,
  containerContext,
  deployUntilDone,
  destroyUntilDone,
  testOrganizationId,
} from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_ENVIRONMENT, labelFilter } from "./labels";

const engine = setUpContainerEngine({ officialImages: ["postgres"] });
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

function databaseResource(): DriverResource {
  return {
    id: randomUUID(),
    name: "orders-db",
    serviceType: "database",
    config: { ...defaultServiceConfigs.database, engine: "postgres", version: "16", username: "shop" },
    settings: defaultServiceSettings,
    environmentName: "production",
    cloudProvider: "AWS",
    region: "local",
  };
}

const networksOf = async (environmentId: string) =>
  engine.engine.listNetworks({ filters: labelFilter({ [LABEL_ENVIRONMENT]: environmentId }) });

/** Runs `script` in the container with sh; its exit code and output. */
async function shellIn(engineClient: Engine, containerId: string, script: string) {
  const exec = await engineClient
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

/** Connects to the host and port its DATABASE_URL names, from inside the application's container. */
const CONNECT_TO_DATABASE_URL =
  'rest=${DATABASE_URL#*@}; address=${rest%%/*}; echo | nc -w 3 "${address%:*}" "${address#*:}" && echo connected';

describe("a network per environment on the container engine", () => {
  it("joins the environment's services under their names: an application reaches its database through DATABASE_URL, across a redeploy; the network goes with the environment's last service", async () => {
    const environmentId = `env-${randomUUID()}`;
    const database = databaseResource();
    const inEnvironment = (resource: DriverResource, state = {}, overrides: Partial<DeployContext> = {}) =>
      containerContext(resource, state, { environmentId, ...overrides });

    const db = await deployUntilDone(driverOf(), inEnvironment(database), 200);
    const password = db.secrets.password ?? "";
    const hostPort = db.endpoint?.split(":")[1];
    // What applications reference names the service on the environment's network; what a user on this machine
    // connects with keeps the loopback address and the published port (the endpoint the overview shows).
    expect(db.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(db.secrets.connectionString).toBe(`postgres://shop:${password}@orders-db:5432/orders_db`);
    expect(db.outputs).toMatchObject({ host: "orders-db", port: "5432" });
    expect(db.secrets.hostConnectionString).toBe(
      `postgres://shop:${password}@127.0.0.1:${hostPort}/orders_db`,
    );
    expect(createContainerDriver({ dockerHost: engine.dockerHost }).secretAttributeNames(database)).toEqual([
      "password",
      "connectionString",
      "hostConnectionString",
    ]);

    const [network, ...otherNetworks] = await networksOf(environmentId);
    expect(otherNetworks).toEqual([]);
    expect(network?.Labels).toMatchObject({
      "cloud-console.organization": expect.any(String),
      "cloud-console.environment": environmentId,
    });

    const application = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "DATABASE_URL", value: "${{orders-db.connectionString}}" }],
    });
    // As the platform resolves it (platform/applications/variables.ts): the database's sealed connection string.
    const variables: DeployContext["variables"] = async () => ({
      variables: [
        {
          name: "DATABASE_URL",
          value: db.secrets.connectionString ?? "",
          secret: true,
          reference: { kind: "attribute", service: database.name, attribute: "connectionString" },
        },
      ],
    });
    const web = await deployUntilDone(driverOf(), inEnvironment(application, {}, { variables }));
    const container = await engine.engine.getContainer(web.state.container ?? "").inspect();
    expect(container.Config.Env).toContain(`DATABASE_URL=${db.secrets.connectionString}`);
    // The variable's value is a secret: it is not written to the deployment's logs.
    expect(JSON.stringify(web.lines)).not.toContain(password);
    expect(web.lines.map((line) => line.message)).toContain(
      "Resolved DATABASE_URL from orders-db's connectionString (secret)",
    );
    expect(Object.keys(container.NetworkSettings.Networks)).toEqual([network?.Name]);
    // Podman's DNS for the network only, asked again every 2 s: a name it misses while aardvark-dns reloads
    // (decision 066) is a lookup that waits, never the host resolver's "no such host".
    const gateway = network?.IPAM?.Config?.[0]?.Gateway;
    expect(gateway).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const resolv = (await shellIn(engine.engine, container.Id, "cat /etc/resolv.conf")).output;
    // (Not anchored: the exec stream's frame header comes before the first line.)
    expect(resolv.match(/nameserver \S+/g)).toEqual([`nameserver ${gateway}`]);
    expect(resolv).toMatch(/options timeout:2 attempts:5\n/);
    expect(await shellUntilDone(engine.engine, container.Id, CONNECT_TO_DATABASE_URL)).toMatchObject({
      code: 0,
      output: expect.stringContaining("connected"),
    });

    // A redeploy (a platform restart creating the network again changes nothing) keeps the same network.
    const again = await deployUntilDone(driverOf(), inEnvironment(application, web.state, { variables }));
    expect((await networksOf(environmentId)).map((one) => one.Id)).toEqual([network?.Id]);
    expect(
      await shellUntilDone(engine.engine, again.state.container ?? "", CONNECT_TO_DATABASE_URL),
    ).toMatchObject({
      code: 0,
    });

    // The environment's teardown: the network stays while a service is on it, and goes with the last one.
    await destroyUntilDone(driverOf(), inEnvironment(application, again.state));
    expect(await networksOf(environmentId)).toHaveLength(1);
    await destroyUntilDone(driverOf(), inEnvironment(database, db.state));
    expect(await networksOf(environmentId)).toEqual([]);
  }, 240_000);

  it("removes what an environment's teardown left on its network once no container of the environment is on it", async () => {
    const environmentId = `env-${randomUUID()}`;
    const application = containerApplicationResource(engine.images.web);
    const web = await deployUntilDone(driverOf(), containerContext(application, {}, { environmentId }));
    const environment = { organizationId: testOrganizationId, environmentId };
    // Two services torn down at once can each see the other's container and both leave the network: the
    // environment's teardown ends with this call, which keeps a network a container is still on.
    await driverOf().teardownEnvironment?.(environment);
    expect(await networksOf(environmentId)).toHaveLength(1);
    await engine.engine.getContainer(web.state.container ?? "").remove({ force: true });
    expect(await networksOf(environmentId)).toHaveLength(1);
    await driverOf().teardownEnvironment?.(environment);
    expect(await networksOf(environmentId)).toEqual([]);
  }, 120_000);

  it("waits while a referenced service has not answered its attribute yet", async () => {
    const application = containerApplicationResource(engine.images.web, {
      envvars: [{ name: "DATABASE_URL", value: "${{orders-db.connectionString}}" }],
    });
    const variables: DeployContext["variables"] = async () => ({
      waitingFor: "orders-db's connectionString (DATABASE_URL)",
    });
    const pulled = await driverOf().apply(containerContext(application, {}, { variables }));
    const waiting = await driverOf().apply(
      containerContext(application, pulled.state, { step: 1, variables }),
    );
    expect(waiting).toMatchObject({
      done: false,
      progress: "Waiting for orders-db's connectionString (DATABASE_URL)",
    });
  });
});
