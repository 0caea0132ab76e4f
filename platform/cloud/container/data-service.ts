import { randomBytes } from "node:crypto";
import type { ContainerInspectInfo } from "dockerode";
import type { ServiceUnit } from "#contract/services";
import {
  CloudStepError,
  type DeployContext,
  type DeployStep,
  type DriverResource,
  type NewLogLine,
  type Observation,
  type TeardownStep,
} from "../driver";
import {
  containersOf,
  nameOf,
  observe,
  pending,
  publishedPort,
  removeContainer,
  unitsOf,
  type ContainerStepOptions,
} from "./application";
import { engineStepError, type Engine } from "./engine";
import {
  LABEL_DEPLOYMENT,
  LABEL_ENVIRONMENT,
  LABEL_ORGANIZATION,
  LABEL_SERVICE,
  labelFilter,
  labelsOf,
} from "./labels";
import { endpointsOf, environmentNetwork, removeNetworkIfUnused } from "./network";
import { execIn, readinessOf, type ReadinessCheck } from "./probe";
import { pullImage } from "./pull";
import { lastLinesOf } from "./telemetry";

/**
 * A data service on a container engine (issue 26): its official image (`postgres:16`, `mysql:8.4`, `redis:7`,
 * `memcached:1.6`, …) in one container whose data lives on a named volume of the service's own, labelled like its
 * containers (Memcached keeps nothing but memory: no volume). The volume outlives
 * every container: a redeploy stops the running container (a database's files take one server at a time, so
 * there is no rolling update) and starts the new one on the same volume, at the same loopback port, so clients
 * keep their connection string. Only deleting the service removes the volume.
 *
 * The password is generated at the first deployment and handed to the container as its official image takes it
 * (POSTGRES_PASSWORD, MYSQL_ROOT_PASSWORD, `--requirepass`): the engine keeps it with the container, as for any container started
 * from an official image, and a redeploy reads it back from the running container (with none left, from the
 * attributes the platform sealed). It never goes in the deployment's state or logs; the connection attributes that
 * carry it are sealed by the platform (`secrets`).
 *
 * Steps: pull → replace the container on the volume (found again by its labels when a crash repeated the step)
 * → wait, one check per step, until the server's own client in its container (the engine's exec, so on a Docker host
 * on a network too) says it accepts connections. The port is published on the host's loopback only, on this
 * machine and on a Docker host on a network alike: a database is never exposed on a network, and its connection
 * details are valid on that host (decision 072).
 */

/**
 * What differs between one server and another (PostgreSQL, MySQL, Redis, Memcached, …): the official image's
 * interface and how its server answers. Each service type picks one by its configuration's engine.
 */
export type DataServiceKind = {
  /** The server's name in words (PostgreSQL, MySQL, …). */
  server: string;
  /** The official image of the service's engine and version. */
  image(resource: DriverResource): string;
  /** The port the server listens on in the container, and where its data lives (none: memory only). */
  port: number;
  dataPath?: string;
  /**
   * The container's variables and command with `password`, as its official image takes them; a hostname when the
   * server names its data after it (RabbitMQ's node), so every container on the volume finds it again.
   */
  container(
    resource: DriverResource,
    password: string,
  ): { Env?: string[]; Cmd?: string[]; Hostname?: string };
  /** The service's password; absent when its server takes none (Memcached). */
  password?: {
    /** The password a container was started with (read back at a redeploy), if it carries one. */
    of(inspected: ContainerInspectInfo): string | undefined;
    /** The sealed attribute that carries it (read back when no container is left to read it from). */
    attribute: string;
    /** Whether the server keeps it on its data once set (PostgreSQL, MySQL), not from each start's arguments. */
    keptOnData: boolean;
    /**
     * The command (run in the new container once it answers) that sets `password` on data the volume kept when no
     * container was left to read the old one from; absent when the server takes a new one only from a client
     * logged in with the old (MySQL).
     */
    setOnData?(resource: DriverResource, password: string): string[];
  };
  /** What the deployment's log warns of the server each time it starts one (Memcached: anyone on the host). */
  warning?: string;
  /** The connection attributes the platform seals (what GET attributes/{attribute} reveals). */
  secretAttributeNames: readonly string[];
  /** How the server says, through its own client in its container, that it accepts connections. */
  ready(resource: DriverResource): ReadinessCheck;
  /** The connection attributes: the sealed ones (with the password) and the plain outputs. */
  attributes(
    resource: DriverResource,
    address: ServerAddress,
  ): { secrets: Record<string, string>; outputs: Record<string, string> };
  /** The service's endpoint when it is more than `host:port` (a bucket's URL). */
  endpoint?(resource: DriverResource, address: ServerAddress): string;
  /**
   * What the service needs on its server once it answers, made idempotently at every deployment (a file storage's
   * bucket); answers the log lines saying what it did.
   */
  prepare?(resource: DriverResource, address: ServerAddress): Promise<string[]>;
};

/** Where the server answers on the engine's host, and its password. */
export type ServerAddress = { host: string; port: string; password: string };

/** The engine is asked again at most this often while the server starts. */
const PROBE_INTERVAL_MS = 1000;
const MIN_WAIT_MS = 200;
/** A server that has not answered after this long (real time: initdb does not go faster) fails the deployment. */
const START_LIMIT_MS = 5 * 60_000;
/** Seconds a server is given to shut down cleanly before the engine kills it. */
const STOP_SECONDS = 20;
const FAILED_LOG_LINES = 20;
/** The loopback address the engine publishes the port on: the engine's host's own, never its network. */
const HOST = "127.0.0.1";

type State = Readonly<Record<string, string>>;

export function containerDataService(
  kindOf: (resource: DriverResource) => DataServiceKind,
  { engine: connect, timeScale, host = HOST }: ContainerStepOptions,
) {
  const interval = () => Math.max(MIN_WAIT_MS, Math.round(PROBE_INTERVAL_MS * timeScale));

  async function run<Result>(
    context: DeployContext,
    work: (engine: Engine, log: (message: string, level?: NewLogLine["level"]) => void) => Promise<Result>,
  ): Promise<{ result: Result; lines: NewLogLine[] }> {
    const lines: NewLogLine[] = [];
    const podName = context.podNames[0] ?? context.resource.name;
    const log = (message: string, level: NewLogLine["level"] = "info") => {
      lines.push({ at: new Date(context.now.getTime() + lines.length), podName, level, message });
    };
    try {
      return { result: await work(await connect(), log), lines };
    } catch (error) {
      const failed = engineStepError("The step", error);
      throw new CloudStepError(failed.message, {
        transient: failed.transient,
        lines: [...lines, ...failed.lines],
      });
    }
  }

  return {
    async apply(context: DeployContext): Promise<DeployStep> {
      const { result, lines } = await run(context, async (engine, log) => {
        if (context.step === 0) {
          const image = kindOf(context.resource).image(context.resource);
          const imageId = await pullImage(engine, image, log);
          return pending(
            {
              ...withoutRollout(context.state),
              phase: "start",
              rollout: randomBytes(4).toString("hex"),
              image,
              imageId,
            },
            0,
            "Pulling image",
          );
        }
        if (context.state.phase === "start") return start(engine, context, log);
        if (context.state.phase === "health") return checkReady(engine, context, log);
        throw new CloudStepError(`The deployment is at an unknown step (${context.state.phase ?? "none"}).`, {
          transient: false,
        });
      });
      return { ...result, lines };
    },

    async destroy(context: DeployContext): Promise<TeardownStep> {
      const { lines } = await run(context, async (engine, log) => {
        for (const container of await containersOf(engine, context.resource.id)) {
          await stopAndRemove(engine, container.Id);
          log(`Removed container ${nameOf(container)}`);
        }
        const { Volumes: volumes } = await engine.listVolumes({
          filters: labelFilter({ [LABEL_SERVICE]: context.resource.id }),
        });
        for (const volume of volumes ?? []) {
          await engine
            .getVolume(volume.Name)
            .remove()
            .catch((error: unknown) => {
              if ((error as { statusCode?: number }).statusCode !== 404)
                throw engineStepError("Removing the volume", error);
            });
          log(`Removed volume ${volume.Name} and the data on it`);
        }
        await removeNetworkIfUnused(engine, context, log);
      });
      return { done: true, lines };
    },

    async observe(context: DeployContext): Promise<Observation> {
      const { result } = await run(context, (engine) => observe(engine, context));
      return result;
    },

    async units(context: DeployContext): Promise<ServiceUnit[]> {
      const { result } = await run(context, (engine) => unitsOf(engine, context.resource.id));
      return result;
    },

    // And the connection string through the published port, for a client on this machine (decision 066).
    secretAttributeNames: (resource: DriverResource) => [
      ...kindOf(resource).secretAttributeNames,
      "hostConnectionString",
    ],
  };

  /** The service's volume, created once (found again by its name), labelled with the service. */
  async function volumeOf(
    engine: Engine,
    context: DeployContext,
    dataPath: string,
    log: (message: string) => void,
  ): Promise<{ volume: string; existed: boolean }> {
    const name = `${context.resource.name}-${context.resource.id.slice(0, 8)}-data`;
    const found = await engine
      .getVolume(name)
      .inspect()
      .catch((error: unknown) => {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw engineStepError("Reading the volume", error);
      });
    if (!found) {
      await engine
        .createVolume({
          Name: name,
          Labels: {
            [LABEL_ORGANIZATION]: context.organizationId,
            [LABEL_ENVIRONMENT]: context.environmentId,
            [LABEL_SERVICE]: context.resource.id,
          },
        })
        .catch((error: unknown) => {
          throw engineStepError("Creating the volume", error);
        });
      log(`Created volume ${name} for ${dataPath}`);
    }
    return { volume: name, existed: Boolean(found) };
  }

  /**
   * The running container's password, else the sealed one (every container removed outside), else a new one (the
   * first deployment, or nothing sealed).
   */
  async function passwordFor(
    engine: Engine,
    context: DeployContext,
    kind: DataServiceKind,
  ): Promise<{ password: string; kept: boolean }> {
    if (!kind.password) return { password: "", kept: true };
    for (const container of await containersOf(engine, context.resource.id)) {
      const inspected = await engine.getContainer(container.Id).inspect();
      const password = kind.password.of(inspected);
      if (password) return { password, kept: true };
    }
    // Every container removed outside the console: the password the platform sealed is the one on the data.
    const sealed = context.sealedSecrets?.()[kind.password.attribute];
    return sealed ? { password: sealed, kept: true } : { password: generatedPassword(32), kept: false };
  }

  /** The container on the service's volume: the one before stopped and removed, the new one started. */
  async function start(
    engine: Engine,
    context: DeployContext,
    log: (message: string, level?: NewLogLine["level"]) => void,
  ) {
    const { resource, state } = context;
    const kind = kindOf(resource);
    const rollout = state.rollout ?? "";
    const { volume, existed } = kind.dataPath
      ? await volumeOf(engine, context, kind.dataPath, log)
      : { volume: null, existed: false };
    let resetPassword = state.resetPassword ?? "";
    const [found] = await engine.listContainers({
      all: true,
      filters: labelFilter({ [LABEL_SERVICE]: resource.id, [LABEL_DEPLOYMENT]: rollout }),
    });
    let id = found?.Id;
    if (!id) {
      const { password, kept } = await passwordFor(engine, context, kind);
      // Data without a container to read its password from (removed outside the console): a new one is set on it,
      // where the server lets a command inside its container do so.
      resetPassword = existed && !kept && kind.password?.keptOnData ? "yes" : "";
      if (resetPassword && !kind.password?.setOnData) {
        throw new CloudStepError(
          `The container of ${resource.name} was removed outside the console, and ${kind.server} keeps its ` +
            `password on the data of volume ${volume}: the driver cannot set a new one without the old. The data ` +
            "is kept; delete the service to start afresh.",
          { transient: false },
        );
      }
      for (const container of await containersOf(engine, resource.id)) {
        await stopAndRemove(engine, container.Id);
        log(
          `Stopped and removed container ${nameOf(container)}` +
            (volume ? `; its data stays on volume ${volume}` : ""),
        );
      }
      const network = await environmentNetwork(engine, context, log);
      const name = `${resource.name}-${resource.id.slice(0, 8)}-${rollout}`;
      const port = `${kind.port}/tcp`;
      const { hardware } = resource.settings;
      const create = (hostPort: string) =>
        engine.createContainer({
          name,
          Image: state.imageId ?? state.image,
          ...kind.container(resource, password),
          Labels: labelsOf(context, rollout),
          ExposedPorts: { [port]: {} },
          NetworkingConfig: endpointsOf(network, resource.name),
          HostConfig: {
            ...network.hostConfig,
            // The port clients were given, again (loopback only); the engine picks one the first time.
            PortBindings: { [port]: [{ HostIp: HOST, HostPort: hostPort }] },
            Binds: volume ? [`${volume}:${kind.dataPath}`] : [],
            // A server that exits is started again by the engine (not one stopped on purpose), as applications are.
            RestartPolicy: { Name: "unless-stopped" },
            NanoCpus: Math.round(Number(hardware.cpu) * 1e9),
            Memory: hardware.memoryMb * 1024 * 1024,
          },
        });
      const created = await create(state.hostPort ?? "").catch(async (error: unknown) => {
        if (!state.hostPort) throw error;
        // Taken meanwhile by something else: another port, and new connection attributes.
        log(`Port ${state.hostPort} is no longer free; the engine picks another`, "warn");
        return create("");
      });
      id = created.id;
      log(
        `Created container ${name} from ${state.image}${volume ? ` on volume ${volume}` : ""}, ` +
          `on network ${network.name} as ${resource.name}`,
      );
      const container = engine.getContainer(id);
      await container.start().catch((error: unknown) => {
        throw engineStepError("Starting the container", error);
      });
      log(`Started container ${name}`);
      if (kind.warning) log(kind.warning, "warn");
    }
    return pending(
      { ...state, phase: "health", newContainer: id, startedAt: context.now.toISOString(), resetPassword },
      interval(),
      "Waiting for the server to accept connections",
    );
  }

  /** One probe per step: done once the server answers in its protocol; a container that exited fails. */
  async function checkReady(
    engine: Engine,
    context: DeployContext,
    log: (message: string, level?: NewLogLine["level"]) => void,
  ): Promise<DeployStep> {
    const { state, resource } = context;
    const kind = kindOf(resource);
    const inspected = await engine.getContainer(state.newContainer ?? "").inspect();
    const name = inspected.Name.replace(/^\//, "");
    // Restarted before it ever answered: it exits at start, and would go on restarting.
    if (!inspected.State.Running || inspected.RestartCount > 0) {
      const output = await lastLinesOf(engine, inspected.Id, FAILED_LOG_LINES);
      for (const line of output) log(line, "error");
      const said = output.at(-1);
      await stopAndRemove(engine, inspected.Id);
      throw new CloudStepError(
        `The container ${name} exited with code ${inspected.State.ExitCode} before it accepted connections` +
          `${said ? ` (${said})` : ""}; it was removed${kind.dataPath ? ", and the data stays on its volume" : ""}.`,
        { transient: false },
      );
    }
    const hostPort = publishedPort(inspected, kind.port);
    const password = kind.password?.of(inspected) ?? "";
    const outcome = await readinessOf(
      engine,
      inspected.Id,
      state.image ?? "",
      kind.ready(resource),
      password,
    );
    if (!outcome.healthy) {
      if (context.now.getTime() - new Date(state.startedAt ?? context.now).getTime() > START_LIMIT_MS) {
        throw new CloudStepError(
          `The container ${name} did not accept connections on port ${kind.port} within ` +
            `${START_LIMIT_MS / 60_000} minutes (${outcome.said}).`,
          { transient: false },
        );
      }
      return pending(state, interval(), "Waiting for the server to accept connections");
    }
    log(`${resource.name} accepts connections (${outcome.said})`);
    if (host !== HOST) {
      log(
        `Published on ${HOST}:${hostPort} of the Docker host ${host} only, never on its network: the connection ` +
          "details are valid on that host",
      );
    }
    if (state.resetPassword && kind.password?.setOnData) {
      await runIn(engine, inspected.Id, kind.password.setOnData(resource, password));
      log("Set a new password on the data the volume kept: no container was left with the one before");
    }
    const address = { host: HOST, port: hostPort, password };
    for (const line of (await kind.prepare?.(resource, address)) ?? []) log(line);
    // The attributes are its address on the environment's network, which the environment's applications
    // reference; `hostConnectionString` is the published port's, for a client on the engine's host.
    const { secrets, outputs } = kind.attributes(resource, {
      host: resource.name,
      port: String(kind.port),
      password,
    });
    const onHost = kind.attributes(resource, address);
    const { newContainer: _new, startedAt: _started, ...kept } = withoutRollout(state);
    return {
      done: true,
      state: { ...kept, container: inspected.Id, hostPort },
      // What the console shows: the kind's own (a bucket's URL), else the port; on a Docker host on a network,
      // whose loopback it is.
      endpoint:
        (kind.endpoint?.(resource, address) ?? `${HOST}:${hostPort}`) +
        (host === HOST ? "" : ` on the Docker host ${host}`),
      secrets: {
        ...secrets,
        ...(onHost.secrets.connectionString ? { hostConnectionString: onHost.secrets.connectionString } : {}),
      },
      // A bucket's URL from the engine's host, as hostConnectionString is a server's.
      outputs: {
        ...outputs,
        ...(onHost.outputs.endpointUrl ? { hostEndpointUrl: onHost.outputs.endpointUrl } : {}),
      },
      lines: [],
    };
  }
}

/** Letters and digits only: no escaping in a URL, a shell or a command's arguments. */
function generatedPassword(length: number): string {
  let password = "";
  while (password.length < length) {
    password += randomBytes(length * 2)
      .toString("base64")
      .replace(/[^A-Za-z0-9]/g, "");
  }
  return password.slice(0, length);
}

function withoutRollout(state: State): Record<string, string> {
  const { phase: _phase, newContainer: _new, startedAt: _started, resetPassword: _reset, ...kept } = state;
  return kept;
}

/** Runs `command` in the container (the engine's exec) and fails the step unless it exits 0. */
async function runIn(engine: Engine, containerId: string, command: string[]) {
  const { exitCode, output } = await execIn(engine, containerId, command);
  if (exitCode !== 0) {
    // The command carries the password: only its output is said.
    throw new CloudStepError(
      `Setting the password in the container failed (exit code ${exitCode}): ${output.replace(/[^\x20-\x7e]/g, "")}`,
      { transient: false },
    );
  }
}

/** A server stopped with time to shut down cleanly (its files are on the volume), then removed. */
async function stopAndRemove(engine: Engine, id: string) {
  await engine
    .getContainer(id)
    .stop({ t: STOP_SECONDS })
    .catch((error: unknown) => {
      // 304: already stopped; 404: already gone.
      const status = (error as { statusCode?: number }).statusCode;
      if (status !== 304 && status !== 404) throw engineStepError("Stopping a container", error);
    });
  await removeContainer(engine, id);
}
