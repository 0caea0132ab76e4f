import { createContainerDriver } from "../cloud/container/driver";
import { connectEngine } from "../cloud/container/engine";
import { containerHostTlsOf } from "../connections/container-hosts";
import type { ConnectionRow } from "../connections/records";
import type { SecretCipher } from "../lib/cipher";
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
  /** The driver of the host `connection` (a CONTAINER_HOST connection) names. */
  driverFor: (connection: ConnectionRow) => DeployDriver;
  telemetryFor: (connection: ConnectionRow, options: { db: Database; now: () => Date }) => TelemetrySource;
};

export function containerHosts({
  timeScale,
  proxy,
  secrets,
}: {
  timeScale: number;
  proxy?: ContainerProxyConfig;
  /** Opens a TLS host's client key. */
  secrets: SecretCipher;
}): ContainerHosts {
  const addressOf = (connection: ConnectionRow) => ({
    dockerHost: (connection.fields as Record<string, string | undefined>).DOCKER_HOST ?? "",
    tls: containerHostTlsOf(secrets, connection),
  });
  /** One driver per connection as it was saved: an edited connection gets a new one. */
  const drivers = new Map<string, DeployDriver>();
  return {
    driverFor(connection) {
      const key = `${connection.id} ${connection.updatedAt.toISOString()}`;
      let driver = drivers.get(key);
      if (!driver) {
        const { dockerHost, tls } = addressOf(connection);
        driver = createContainerDriver({
          dockerHost,
          ...(tls ? { tls } : {}),
          timeScale,
          ...(proxy ? { proxy } : {}),
        });
        drivers.set(key, driver);
      }
      return driver;
    },
    telemetryFor(connection, { db, now }) {
      const { dockerHost, tls } = addressOf(connection);
      return containerTelemetry({ db, engine: () => connectEngine(dockerHost, { tls }), now });
    },
  };
}
