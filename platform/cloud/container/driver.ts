import { serviceTypeLabels, type ServiceType } from "#contract/service-catalogue";
import { CloudStepError, type DeployContext, type DeployDriver, type DriverResource } from "../driver";
import { containerApplication } from "./application";
import { containerCache } from "./cache";
import { containerDataService } from "./data-service";
import { containerDatabase } from "./database";
import { connectEngine, engineStepError, hostAddressOf, type EngineTls } from "./engine";
import { containerFileStorage } from "./file-storage";
import { removeNetworkIfUnused } from "./network";
import { containerProxy, type ContainerProxyConfig } from "./proxy";
import { containerQueue } from "./queue";

/**
 * The containers driver (issue 26): deploys an environment's services to the container engine its connection
 * names (DOCKER_HOST: this machine's Podman or Docker socket, or a Docker host on tcp:// or over TLS), through the
 * Docker Engine API. Applications, databases (PostgreSQL, MySQL, MariaDB), caches (Redis, Valkey, Memcached),
 * queues (RabbitMQ) and file storage (RustFS, S3-compatible) run for real; the other types say they cannot yet instead of pretending.
 */

/** How long a deployment or teardown may take before it fails saying what it waited for. */
const TIMEOUT_MINUTES = 30;

export type ContainerDriverOptions = {
  /** DOCKER_HOST of the engine. */
  dockerHost: string;
  /** The client certificate of a host served over TLS with --tlsverify. */
  tls?: EngineTls;
  /** ENGINE_TIME_SCALE: multiplies the health check's interval; 1 keeps the configured pace. */
  timeScale?: number;
  /** The reverse proxy in front of the applications (CONTAINER_PROXY_ADMIN_URL); unset: their published ports. */
  proxy?: ContainerProxyConfig;
  /** How long one engine call may stay silent before it is given up (builds and pulls are not bounded by it). */
  callTimeoutMs?: number;
  /** How long a deployment or teardown may take (30 minutes); a build running longer is stopped. */
  timeoutMinutes?: number;
};

export function createContainerDriver({
  dockerHost,
  tls,
  timeScale = 1,
  proxy,
  callTimeoutMs,
  timeoutMinutes = TIMEOUT_MINUTES,
}: ContainerDriverOptions): DeployDriver {
  const options = {
    // A build or a pull may say nothing for minutes (a long RUN, a large layer): its client waits.
    engine: ({ streaming = false }: { streaming?: boolean } = {}) =>
      connectEngine(dockerHost, { timeoutMs: streaming ? null : callTimeoutMs, tls }),
    timeScale,
    host: hostAddressOf(dockerHost),
  };
  const runners = {
    application: containerApplication({
      ...options,
      buildTimeoutMs: timeoutMinutes * 60_000,
      ...(proxy ? { proxy: containerProxy(proxy) } : {}),
    }),
    database: containerDataService(containerDatabase, options),
    cache: containerDataService(containerCache, options),
    queue: containerDataService(() => containerQueue, options),
    "file-storage": containerDataService(() => containerFileStorage, options),
  };
  type Runner = (typeof runners)[keyof typeof runners] & {
    secretAttributeNames?: (resource: DriverResource) => readonly string[];
    attributeNames?: (resource: DriverResource) => readonly string[];
  };
  const runnerOf = ({ resource }: { resource: DriverResource }): Runner | undefined =>
    (runners as Partial<Record<ServiceType, Runner>>)[resource.serviceType];

  function supported(context: DeployContext): Runner {
    const runner = runnerOf(context);
    if (!runner) {
      throw new CloudStepError(
        `${serviceTypeLabels[context.resource.serviceType]} services cannot be deployed to a container engine yet.`,
        { transient: false },
      );
    }
    return runner;
  }

  return {
    apply: async (context) => supported(context).apply(context),
    destroy: (context) => runnerOf(context)?.destroy(context) ?? Promise.resolve({ done: true, lines: [] }),
    observe: (context) => runnerOf(context)?.observe(context) ?? Promise.resolve({ state: "ok" }),
    units: (context) => runnerOf(context)?.units(context) ?? Promise.resolve([]),
    // Concurrent teardowns of the environment's last services can each leave the network to the other.
    teardownEnvironment: async (environment) => {
      try {
        await removeNetworkIfUnused(await options.engine(), environment);
      } catch (error) {
        throw engineStepError("Removing the environment's network", error);
      }
    },
    // The connection attributes each data service seals, as its AWS counterpart names them (by its engine).
    secretAttributeNames: (resource) => runnerOf({ resource })?.secretAttributeNames?.(resource) ?? [],
    // What an application may reference: a data service's connection attributes; the other types answer none.
    attributeNames: (resource) => runnerOf({ resource })?.attributeNames?.(resource) ?? [],
    timeoutMinutes: () => timeoutMinutes,
  };
}
