import type { DeployContext } from "../driver";
import { engineStepError, type Engine } from "./engine";
import { LABEL_ENVIRONMENT, LABEL_ORGANIZATION, labelFilter } from "./labels";

/**
 * A network per environment (docs/decisions/066): the environment's containers join it under their service's
 * name, so an application reaches its database at `orders-db:5432` as it would in a VPC, whatever port the
 * engine published on the host. Inside a container 127.0.0.1 is the container itself. The network is created by
 * the first deployment that needs it (found again by its name: a repeated step or a restarted platform creates
 * nothing twice) and removed by the teardown that leaves no container of the environment.
 */

const statusOf = (error: unknown) => (error as { statusCode?: number }).statusCode;

/** The environment's network's name: by its id, which a rename of the environment keeps (its labels say more). */
export const networkNameOf = (context: DeployContext) => `cloud-console-${context.environmentId}`;

/**
 * How the resolver of a container on Podman's network asks its DNS (aardvark-dns): every 2 s, 5 times. Before
 * aardvark-dns 1.11 (Debian 12 ships 1.4) every container joining or leaving any network of the machine makes it
 * stop answering every network for a few seconds while it reloads (seen here: 2 to 8 s, longer under load); a
 * lookup asked then waits it out instead of failing (decision 066).
 */
const PODMAN_DNS_OPTIONS = ["timeout:2", "attempts:5"];

/** The environment's network, and the HostConfig that joins a container to it. */
export type EnvironmentNetwork = {
  name: string;
  hostConfig: { NetworkMode: string; Dns?: string[]; DnsOptions?: string[] };
};

/** The environment's network, created if it is not there yet. */
export async function environmentNetwork(
  engine: Engine,
  context: DeployContext,
  log: (message: string) => void,
): Promise<EnvironmentNetwork> {
  const name = networkNameOf(context);
  const inspect = () =>
    engine
      .getNetwork(name)
      .inspect()
      .catch((error: unknown) => {
        if (statusOf(error) === 404) return null;
        throw engineStepError("Reading the environment's network", error);
      });
  let network = await inspect();
  if (!network) {
    await engine
      .createNetwork({
        Name: name,
        Driver: "bridge",
        CheckDuplicate: true,
        Labels: {
          [LABEL_ORGANIZATION]: context.organizationId,
          [LABEL_ENVIRONMENT]: context.environmentId,
        },
      })
      .catch((error: unknown) => {
        // Created meanwhile by another service's deployment of the environment.
        if (statusOf(error) !== 409) throw engineStepError("Creating the environment's network", error);
      });
    log(`Created network ${name}: the environment's services reach each other by name on it`);
    network = await inspect();
  }
  const gateway = network?.IPAM?.Config?.[0]?.Gateway;
  // Podman 4 lists the host's resolvers after the network's DNS: a lookup aardvark-dns misses while it reloads
  // goes on to them and ends in "no such host", which an application takes as final. The network's DNS alone
  // (it forwards other names to the host's resolvers) makes it a lookup that waits. Docker's embedded DNS
  // (127.0.0.11) has no such gap, and its gateway serves no DNS: there the engine's default stays.
  const dns = gateway && (await isPodman(engine)) ? { Dns: [gateway], DnsOptions: PODMAN_DNS_OPTIONS } : {};
  return { name, hostConfig: { NetworkMode: name, ...dns } };
}

/** Whether the engine is Podman's service (its version names the component "Podman Engine"). */
async function isPodman(engine: Engine): Promise<boolean> {
  const version = await engine.version().catch((error: unknown) => {
    throw engineStepError("Reading the engine's version", error);
  });
  return (version.Components ?? []).some((component) => component.Name === "Podman Engine");
}

/** How a container joins the environment's `network` (HostConfig's NetworkMode too): under its service's name. */
export const endpointsOf = (network: EnvironmentNetwork, serviceName: string) => ({
  EndpointsConfig: { [network.name]: { Aliases: [serviceName] } },
});

/** Removes the environment's network once no container of the environment is left (a teardown's last service). */
export async function removeNetworkIfUnused(
  engine: Engine,
  { environmentId }: { environmentId: string },
  log: (message: string) => void = () => {},
): Promise<void> {
  const left = await engine.listContainers({
    all: true,
    filters: labelFilter({ [LABEL_ENVIRONMENT]: environmentId }),
  });
  if (left.length) return;
  const networks = await engine.listNetworks({
    filters: labelFilter({ [LABEL_ENVIRONMENT]: environmentId }),
  });
  for (const network of networks) {
    await engine
      .getNetwork(network.Id)
      .remove()
      .catch((error: unknown) => {
        // 404: gone already; 409: a deployment of the environment started a container on it meanwhile.
        const status = statusOf(error);
        if (status !== 404 && status !== 409)
          throw engineStepError("Removing the environment's network", error);
      });
    log(`Removed network ${network.Name}: no service of the environment is left on it`);
  }
}
