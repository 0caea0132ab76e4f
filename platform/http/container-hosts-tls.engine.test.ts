import { asc, eq } from "drizzle-orm";
import pg from "pg";
import { expect, it } from "vitest";
import { connectionPaths } from "#contract/connections";
import { defaultServiceConfigs } from "#contract/service-configs";
import { attributeResponseSchema, resourceResponseSchema, servicePaths } from "#contract/services";
import { resourceLogs } from "../db/schema";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";
import { setUpTlsDockerHost } from "../testing/tls-docker-host";

/*
 * A Docker host over TLS (issue 26: "so the same code drives Docker on a user's server"): `dockerd --tlsverify`
 * answers only clients with a certificate its CA signed. A real Caddy stands for it in front of the test engine
 * (platform/testing/tls-docker-host.ts). The connection's "URL with TLS certificates" method is checked on save
 * with the certificates, and an application deploys through it.
 */

const engine = setUpContainerEngine({ officialImages: ["postgres"] });
const tlsHost = setUpTlsDockerHost(engine);
const platform = setUpContainerApi(engine);

const tlsFields = (overrides: Record<string, string> = {}) => ({
  DOCKER_HOST: tlsHost.dockerHost,
  TLS_CA_CERT: tlsHost.ca,
  TLS_CLIENT_CERT: tlsHost.cert,
  TLS_CLIENT_KEY: tlsHost.key,
  ...overrides,
});

const save = (fields: Record<string, string>) =>
  platform.call("POST", connectionPaths.list(platform.tenantId), {
    kind: "CONTAINER_HOST",
    name: "A Docker host",
    method: "docker-tls",
    fields,
  });

it("refuses, in words, a host whose certificate no known CA signed, and a client certificate it does not know", async () => {
  const unknownCa = await save(tlsFields({ TLS_CA_CERT: "" }));
  expect(unknownCa.status).toBe(422);
  expect(JSON.stringify(await unknownCa.json())).toContain(
    `Could not reach ${new URL(tlsHost.dockerHost).host}: its TLS certificate could not be verified.`,
  );

  const stranger = await save(
    tlsFields({ TLS_CLIENT_CERT: tlsHost.strangerCert, TLS_CLIENT_KEY: tlsHost.strangerKey }),
  );
  expect(stranger.status).toBe(422);
  expect(await stranger.json()).toMatchObject({
    fieldErrors: {
      "fields.TLS_CLIENT_CERT": [
        `${new URL(tlsHost.dockerHost).host} closed the connection without an answer: it refused the client certificate (one its CA did not sign?), or speaks no TLS on this port.`,
      ],
    },
  });
}, 60_000);

it("deploys an application through a Docker host that wants a client certificate, at the host's address; the key is never answered", async () => {
  const created = await platform.createEnvironment("on-a-tls-host", {
    method: "docker-tls",
    fields: tlsFields(),
  });
  expect(created.connection).toMatchObject({ status: "VERIFIED", method: "docker-tls" });
  expect(JSON.stringify(created.connection)).not.toContain("PRIVATE KEY");

  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, created.environmentId), {
    serviceType: "application",
    name: "web",
    config: testWebConfig({ kind: "image", image: engine.images.web }),
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;
  const service = await platform.settled(created.environmentId, id);
  // A host on a network: its URL names the host, as its users reach it, and so does the health check.
  expect(service, service.message ?? "").toMatchObject({
    stage: "STAGE_COMPLETED",
    endpoint: expect.stringMatching(/^http:\/\/localhost:\d+$/),
  });
  expect(await (await fetch(service.endpoint ?? "")).text()).toBe("hello world\n");
  const running = await engine.engine.listContainers({
    filters: labelFilter({ [LABEL_ENVIRONMENT]: created.environmentId }),
  });
  expect(running).toHaveLength(1);
  // Published on all of the host's interfaces, not its loopback (which only the host itself could reach).
  const inspected = await engine.engine.getContainer(running[0]?.Id ?? "").inspect();
  expect(inspected.HostConfig.PortBindings).toMatchObject({ "8080/tcp": [{ HostIp: "" }] });
}, 180_000);

it("deploys a PostgreSQL database through the TLS host, its readiness checked by the engine and its port kept on the host's loopback", async () => {
  const created = await platform.createEnvironment("data-on-a-tls-host", {
    method: "docker-tls",
    fields: tlsFields(),
  });
  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, created.environmentId), {
    serviceType: "database",
    name: "orders",
    config: { ...defaultServiceConfigs.database, engine: "postgres", version: "16", username: "shop" },
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;
  const service = await platform.settled(created.environmentId, id, { timeoutMs: 150_000 });
  expect(service, service.message ?? "").toMatchObject({
    stage: "STAGE_COMPLETED",
    endpoint: expect.stringMatching(/^127\.0\.0\.1:\d+ on the Docker host localhost$/),
  });

  const logs = (
    await platform.api.db
      .select({ message: resourceLogs.message })
      .from(resourceLogs)
      .where(eq(resourceLogs.resourceId, id))
      .orderBy(asc(resourceLogs.at))
  ).map((row) => row.message);
  // Asked through the engine (the server's own client in its container), not over TCP from the platform.
  expect(logs).toContainEqual(
    expect.stringMatching(
      /^orders accepts connections \(pg_isready: 127\.0\.0\.1:5432 - accepting connections\)$/,
    ),
  );
  // A database is never published on the host's network: its details say where they are valid.
  expect(logs).toContainEqual(
    expect.stringMatching(
      /^Published on 127\.0\.0\.1:\d+ of the Docker host localhost only, never on its network: the connection details are valid on that host$/,
    ),
  );
  const running = await engine.engine.listContainers({
    filters: labelFilter({ [LABEL_ENVIRONMENT]: created.environmentId }),
  });
  const inspected = await engine.engine.getContainer(running[0]?.Id ?? "").inspect();
  expect(inspected.HostConfig.PortBindings).toMatchObject({ "5432/tcp": [{ HostIp: "127.0.0.1" }] });

  // The host's loopback is this machine's here: the sealed host-side connection string logs in there (the
  // connection string names the database on the environment's network, for its applications).
  const revealed = await platform.call(
    "GET",
    servicePaths.attribute(platform.tenantId, created.environmentId, id, "hostConnectionString"),
  );
  const { value } = attributeResponseSchema.parse(await revealed.json());
  expect(value).toMatch(/^postgres:\/\/shop:[A-Za-z0-9]{32}@127\.0\.0\.1:\d+\/orders$/);
  const client = new pg.Client({ connectionString: value });
  await client.connect();
  try {
    expect((await client.query("SELECT current_user AS user")).rows).toEqual([{ user: "shop" }]);
  } finally {
    await client.end();
  }
}, 240_000);
