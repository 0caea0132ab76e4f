import { createContainerDriver } from "../cloud/container/driver";
import { connectEngine } from "../cloud/container/engine";
import type { ContainerProxyConfig } from "../cloud/container/proxy";
import type { DeployDriver } from "../cloud/driver";
import type { Database } from "../db/index";
import { containerTelemetry } from "./container-telemetry";
import type { TelemetrySource } from "./telemetry";

/**
 * The containers driver seen from the deployments (issue 26, docs/decisions/058): an environment on a container
 * host deploys to the engine its connection's DOCKER_HOST names, and its logs and metrics come from that engine.
 * Built once by the composition root with the engine's time scale; a client is made per call, through
 * `connectEngine` (CONTAINER_SOCKETS for a socket, the egress policy for a tcp host). With the operator's reverse
 * proxy (CONTAINER_PROXY_ADMIN_URL), applications get stable addresses through it (docs/decisions/063).
 */
export type ContainerHosts = {
  driverFor: (dockerHost: string) => DeployDriver;
  telemetryFor: (dockerHost: string, options: { db: Database; now: () => Date }) => TelemetrySource;
};

export function containerHosts({
  timeScale,
  proxy,
}: {
  timeScale: number;
  proxy?: ContainerProxyConfig;
}): ContainerHosts {
  const drivers = new Map<string, DeployDriver>();
  return {
    driverFor(dockerHost) {
      let driver = drivers.get(dockerHost);
      if (!driver) {
        driver = createContainerDriver({ dockerHost, timeScale, ...(proxy ? { proxy } : {}) });
        drivers.set(dockerHost, driver);
      }
      return driver;
    },
    telemetryFor: (dockerHost, { db, now }) =>
      containerTelemetry({ db, engine: () => connectEngine(dockerHost), now }),
  };
}
