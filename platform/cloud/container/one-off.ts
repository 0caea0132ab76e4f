import type { ContainerInfo } from "dockerode";
import type { DeployContext } from "../driver";
import { oneOffName, type OneOff, type OneOffKind } from "../one-off-commands";
import { engineStepError, type Engine } from "./engine";
import { LABEL_DEPLOYMENT, LABEL_ROLE, LABEL_SERVICE, labelFilter, labelsOf } from "./labels";
import type { EnvironmentNetwork } from "./network";
import { framedLines } from "./telemetry";

/**
 * A deployment's one-off commands on a container engine (docs/decisions/073): the application's pre-deploy command
 * (its migrations) and a preview's seed command, each `sh -c <command>` in a container of exactly the new image
 * with the application's variables, on the environment's network (it reaches the database by name), before the
 * new version starts. No published port, no restart policy: it runs once and exits. Labelled like the
 * deployment's containers plus LABEL_ROLE, so a restarted platform finds it again (never a second run), the
 * teardown removes it, and nothing that reads the service's own containers mistakes it for one.
 */

/** The one-off command's container of the deployment `rollout`, running or not. */
export async function findOneOff(
  engine: Engine,
  serviceId: string,
  rollout: string,
  kind: OneOffKind,
): Promise<ContainerInfo | undefined> {
  const [found] = await engine.listContainers({
    all: true,
    filters: labelFilter({ [LABEL_SERVICE]: serviceId, [LABEL_DEPLOYMENT]: rollout, [LABEL_ROLE]: kind }),
  });
  return found;
}

/** The service's one-off containers (finished, or left by a deployment that ended meanwhile). */
export async function oneOffContainersOf(engine: Engine, serviceId: string): Promise<ContainerInfo[]> {
  return (
    await engine.listContainers({ all: true, filters: labelFilter({ [LABEL_SERVICE]: serviceId }) })
  ).filter((container) => container.Labels[LABEL_ROLE]);
}

/** Creates the one-off command's container (not started). */
export async function createOneOff(
  engine: Engine,
  context: DeployContext,
  {
    oneOff,
    rollout,
    image,
    env,
    network,
  }: {
    oneOff: OneOff;
    rollout: string;
    image: string;
    env: string[];
    network: EnvironmentNetwork;
  },
): Promise<{ id: string; name: string }> {
  const { resource } = context;
  const name = `${resource.name}-${resource.id.slice(0, 8)}-${rollout}-${oneOff.kind}`;
  const created = await engine
    .createContainer({
      name,
      Image: image,
      // Both set, so neither the image's entrypoint nor its command is merged in: exactly `sh -c <command>`.
      Entrypoint: ["sh", "-c"],
      Cmd: [oneOff.command],
      Env: env,
      Labels: { ...labelsOf(context, rollout), [LABEL_ROLE]: oneOff.kind },
      // On the network without the service's alias: its name stays the running version's.
      NetworkingConfig: { EndpointsConfig: { [network.name]: {} } },
      HostConfig: {
        ...network.hostConfig,
        NanoCpus: Math.round(Number(resource.settings.hardware.cpu) * 1e9),
        Memory: resource.settings.hardware.memoryMb * 1024 * 1024,
        RestartPolicy: { Name: "no" },
      },
    })
    .catch((error: unknown) => {
      throw engineStepError(`Creating the ${oneOffName(oneOff)}'s container`, error);
    });
  return { id: created.id, name };
}

/** Everything the container wrote, stdout and stderr, in order. */
export async function outputOf(engine: Engine, id: string): Promise<string[]> {
  const output = await engine
    .getContainer(id)
    .logs({ stdout: true, stderr: true, follow: false })
    .catch((error: unknown) => {
      throw engineStepError("Reading the command's output", error);
    });
  return framedLines(output);
}
