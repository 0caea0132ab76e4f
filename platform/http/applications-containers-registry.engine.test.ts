import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { connectionPaths, connectionResponseSchema } from "#contract/connections";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { resourceLogs } from "../db/schema";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * Issue 26 through the API: an application from a private registry on a container host. The registry (the test
 * engine's docker-registry with htpasswd) refuses anonymous pulls; the Docker registry connection's username and
 * token, answered by its provider with the manifest, are what the engine pulls with.
 */

const engine = setUpContainerEngine({ privateRegistry: true });
const platform = setUpContainerApi(engine);
let environmentId: string;

it("pulls a private registry's image on a container host with the registry connection's credentials", async () => {
  const { host, username, password } = engine.privateRegistry;
  const registry = await platform.call("POST", connectionPaths.list(platform.tenantId), {
    kind: "DOCKER",
    name: "Private registry",
    method: "token",
    fields: { BASE_URL: `http://${host}`, USERNAME: username, TOKEN: password },
  });
  expect(registry.status, await registry.clone().text()).toBe(201);
  const registryConnection = connectionResponseSchema.parse(await registry.json()).connection;
  expect(registryConnection.status).toBe("VERIFIED");

  environmentId = (await platform.createEnvironment("private-images")).environmentId;

  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: testWebConfig({
      kind: "registry",
      connectionId: registryConnection.id,
      repository: "test/private-web",
      tag: "1",
    }),
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const service = await platform.settled(environmentId, id);
  expect(service, service.message ?? "").toMatchObject({
    stage: "STAGE_COMPLETED",
    endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
  });
  expect(await (await fetch(service.endpoint ?? "")).text()).toBe("hello world\n");
  const lines = (
    await platform.api.db
      .select({ message: resourceLogs.message })
      .from(resourceLogs)
      .where(eq(resourceLogs.resourceId, id))
  ).map((line) => line.message);
  expect(lines).toContain(
    `Pulling image "${host}/test/private-web:1" with the credentials of the connection`,
  );
  expect(lines.join("\n")).not.toContain(password);
}, 120_000);
