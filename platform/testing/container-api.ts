import { afterAll, beforeAll } from "vitest";
import { defaultApplicationConfig, type ApplicationConfig } from "#contract/application-config";
import { connectionPaths, connectionResponseSchema, type Connection } from "#contract/connections";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { isBusyStage } from "#contract/service-catalogue";
import { resourceResponseSchema, servicePaths, type Resource } from "#contract/services";
import { imagesLabelled } from "../cloud/container/build";
import { LABEL_ENVIRONMENT, labelFilter } from "../cloud/container/labels";
import type { PlatformConfig } from "../lib/config";
import type { ContainerEngine } from "./container-engine";
import { openTestApi, type TestApi, type TestMember } from "./http-harness";

export type ContainerApi = {
  readonly api: TestApi;
  readonly member: TestMember;
  readonly tenantId: string;
  /** A call of the platform API as the file's admin. */
  call(method: string, path: string, json?: unknown): Response | Promise<Response>;
  /**
   * Saves a container host connection to the file's engine (its socket, or `host`: another way to reach it), as an
   * admin does, and an environment on it.
   */
  createEnvironment(
    name: string,
    host?: { method: string; fields: Record<string, string> },
  ): Promise<{ environmentId: string; connection: Connection }>;
  /**
   * Runs due jobs until the service is no longer busy (the driver's steps wait a little between them), or until
   * `timeoutMs` has passed: then the test's assertion on the stage says what it was left at.
   */
  settled(
    environmentId: string,
    serviceId: string,
    options?: { timeoutMs?: number; runner?: TestApi["engine"]["runner"] },
  ): Promise<Resource>;
};

/**
 * The platform API over a test container engine (issue 26's HTTP tests): opens the harness and an admin in
 * beforeAll; in afterAll removes whatever a failed test left labelled with the environments it created
 * (containers, volumes, built images: the engine's own clean-up knows only its driver tests' organization) and
 * closes the API. `config` is read in beforeAll, after the hooks set up before it (a Caddy's address) have run.
 */
export function setUpContainerApi(
  engine: ContainerEngine,
  { config, now }: { config?: () => Partial<PlatformConfig>; now?: () => Date } = {},
): ContainerApi {
  let opened: { api: TestApi; member: TestMember } | undefined;
  const environmentIds: string[] = [];
  const the = () => {
    if (!opened) throw new Error("The container API opens in beforeAll: use it in hooks and tests");
    return opened;
  };

  beforeAll(async () => {
    const api = await openTestApi(config?.() ?? {}, { now });
    opened = { api, member: await api.createMember({ role: "admin" }) };
  });

  afterAll(async () => {
    for (const environmentId of environmentIds) {
      const filters = labelFilter({ [LABEL_ENVIRONMENT]: environmentId });
      for (const container of await engine.engine.listContainers({ all: true, filters })) {
        await engine.engine.getContainer(container.Id).remove({ force: true });
      }
      for (const volume of (await engine.engine.listVolumes({ filters })).Volumes ?? []) {
        await engine.engine.getVolume(volume.Name).remove({ force: true });
      }
      for (const image of await imagesLabelled(engine.engine, { [LABEL_ENVIRONMENT]: environmentId })) {
        await engine.engine.getImage(image.Id).remove({ force: true });
      }
      // The environment's network (decision 066), once its containers are gone.
      for (const network of await engine.engine.listNetworks({ filters })) {
        await engine.engine.getNetwork(network.Id).remove();
      }
    }
    await opened?.api.close();
  });

  const handle: ContainerApi = {
    get api() {
      return the().api;
    },
    get member() {
      return the().member;
    },
    get tenantId() {
      return the().member.organization.tenantId;
    },
    call: (method, path, json) => the().api.call(method, path, { token: the().member.user.token, json }),
    async createEnvironment(
      name,
      host = { method: "docker-host", fields: { DOCKER_HOST: engine.dockerHost } },
    ) {
      const saved = await handle.call("POST", connectionPaths.list(handle.tenantId), {
        kind: "CONTAINER_HOST",
        // One connection per environment (a tenant's connection names are unique).
        name: `Container host of ${name}`,
        ...host,
      });
      if (saved.status !== 201) throw new Error(`Saving the container host: ${await saved.text()}`);
      const { connection } = connectionResponseSchema.parse(await saved.json());
      const created = await handle.call("POST", environmentPaths.list(handle.tenantId), {
        name,
        cloudProvider: "CONTAINERS",
        region: "local",
        cloudConnectionId: connection.id,
      });
      if (created.status !== 201) throw new Error(`Creating the environment: ${await created.text()}`);
      const environmentId = environmentResponseSchema.parse(await created.json()).environment.id;
      environmentIds.push(environmentId);
      return { environmentId, connection };
    },
    async settled(environmentId, serviceId, { timeoutMs = 60_000, runner } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await (runner ?? the().api.engine.runner).runUntilIdle();
        const response = await handle.call(
          "GET",
          servicePaths.one(handle.tenantId, environmentId, serviceId),
        );
        const { resource } = resourceResponseSchema.parse(await response.json());
        if (!isBusyStage(resource.stage) || Date.now() > deadline) return resource;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
  return handle;
}

/** An application of the test web image's server (or one built like it): port 8080 public, its health at /healthz. */
export const testWebConfig = (source: ApplicationConfig["source"]): ApplicationConfig => ({
  ...defaultApplicationConfig,
  source,
  // The form's defaults are nginx's: port 80 and "/".
  ports: [{ port: 8080, protocol: "HTTP", public: true }],
  healthCheck: { ...defaultApplicationConfig.healthCheck, port: 8080, path: "/healthz" },
});
