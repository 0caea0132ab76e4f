import { randomBytes } from "node:crypto";
import type { ContainerInfo } from "dockerode";
import {
  applicationConfigFieldsSchema,
  applicationSourceLabels,
  type ApplicationConfig,
} from "#contract/application-config";
import type { ServiceUnit } from "#contract/services";
import { applicationImageOf } from "../images";
import {
  CloudStepError,
  RolloutFailedError,
  type ApplicationSources,
  type DeployContext,
  type DeployStep,
  type NewLogLine,
  type Observation,
  type RegistryAuth,
  type ResolvedVariable,
  type TeardownStep,
} from "../driver";
import { buildContextOf, buildImage, dockerfileInRepository, imagesLabelled } from "./build";
import { outboundFetch } from "../../lib/egress";
import { engineStepError, type Engine } from "./engine";
import { LABEL_DEPLOYMENT, LABEL_ROLE, LABEL_SERVICE, labelFilter, labelsOf } from "./labels";
import { endpointsOf, environmentNetwork, removeNetworkIfUnused } from "./network";
import { oneOffProgress, oneOffsOf, oneOffWords } from "../one-off-commands";
import { createOneOff, findOneOff, oneOffContainersOf, outputOf } from "./one-off";
import type { ContainerProxy } from "./proxy";
import { pulled } from "./pull";
import { lastLinesOf } from "./telemetry";
import { referenceWords, resolvedVariablesOf } from "../variables";

/**
 * An application on a container engine (issue 26): one container per deployment, its port published on
 * 127.0.0.1 at a port the engine picks, replaced by a rolling update. Each step is one short call (or a few)
 * outside any transaction; the engine persists `state` after it and calls again after `waitMs`:
 *
 * 1. pull the image (a new rollout id labels what this deployment creates);
 * 2. the deployment's one-off commands (the pre-deploy command, a preview's seed command: one-off.ts), each in a
 *    container of the new image, looked at every ONE_OFF_POLL_MS until it exits: 0 goes on, anything else (or the
 *    deployment's time-out) removes it and fails the deployment as a failed health check does, nothing replaced;
 *    then create and start the new container beside the running one, found again by its labels when a crash
 *    interrupted the step;
 * 3. check its health (HTTP GET on the published port) every interval: `healthyThreshold` passes in a row go on,
 *    UNHEALTHY_THRESHOLD failures in a row after its START_PERIOD_MS (or the container exiting) remove it and fail
 *    the deployment with RolloutFailedError, the running container untouched: the rollback is simply keeping it;
 * 4. remove the container that ran before (and any left by an interrupted rollout); the endpoint is the new one's.
 *    Behind a reverse proxy (`proxy`, docs/decisions/063), the service's stable address is first pointed at the
 *    new container: its port is allocated at the first switch and kept in state (`proxyPort`), and the endpoint
 *    is that address, the same after every redeploy. A failed rollout never reaches this step, so the address
 *    stays on the container that ran before; a teardown removes the route first.
 *
 * It reads the service's settings as the AWS driver does: variables, port, CPU and memory, health check.
 */

/** Failures in a row that fail the health check (the settings have no unhealthy threshold; ALB's default is 2). */
const UNHEALTHY_THRESHOLD = 3;
/** The engine is asked again at most this often while it starts a container. */
const MIN_WAIT_MS = 200;
/**
 * A new container's first moments, in real time (not scaled): a health check that got no answer does not count
 * yet, as Docker's `--health-start-period`. At the configured pace the first check comes later than this anyway;
 * at a fast test pace it keeps a busy machine's slow start from reading as an unhealthy version.
 */
const START_PERIOD_MS = 3000;
/** How many of a failed container's last lines its deployment's logs show. */
const FAILED_LOG_LINES = 20;
/** How long a deployment waits before asking again for a referenced service's attributes (scaled). */
const REFERENCE_WAIT_MS = 5000;
/** A build's output is written to the deployment's logs at most this often while it runs. */
const BUILD_FLUSH_MS = 1000;
/** The build's lines kept in the deployment's logs (a long build writes thousands). */
const MAX_BUILD_LINES = 2000;
/** How often a one-off command's container is looked at while it runs (scaled). */
const ONE_OFF_POLL_MS = 2000;
/** A one-off command's lines kept in the deployment's logs. */
const MAX_ONE_OFF_LINES = 2000;
/**
 * A one-off command still running this close to the deployment's time-out is stopped by the step itself: the
 * time-out, checked after a step, fails the deployment without another call to the driver.
 */
const DEADLINE_MARGIN_MS = 1000;

type State = Readonly<Record<string, string>>;
/** Writes a line to the deployment's logs, under the deployment's first pod or the container `podName`. */
type Log = (message: string, level?: NewLogLine["level"], podName?: string) => void;

/** Not there yet: the lines are the step's, added by `apply`. */
export const pending = (state: State, waitMs: number, progress: string): DeployStep => ({
  done: false,
  state: { ...state },
  waitMs,
  progress,
  lines: [],
});

const LOOPBACK = "127.0.0.1";

export type ContainerStepOptions = {
  /**
   * A client of the environment's engine, connected for one step; `streaming`: for a build or a pull, which may
   * say nothing for minutes, never given up for silence.
   */
  engine: (options?: { streaming?: boolean }) => Promise<Engine>;
  /** ENGINE_TIME_SCALE: multiplies the health check's interval (tests run it fast). */
  timeScale: number;
  /** The reverse proxy giving each application a stable address; without it, the published port is the URL. */
  proxy?: ContainerProxy;
  /**
   * Where the engine's published ports are reached from the platform (`hostAddressOf`): 127.0.0.1 for this
   * machine's socket, the host's name for a Docker host on a network (data services stay on its loopback).
   */
  host?: string;
  /**
   * How long a build is waited for (the deployment's time-out, 30 minutes, checked between steps, cannot end a
   * step that never returns). Applications only.
   */
  buildTimeoutMs?: number;
};

export function containerApplication({
  engine: connect,
  timeScale,
  proxy,
  host = LOOPBACK,
  buildTimeoutMs = 30 * 60_000,
}: ContainerStepOptions) {
  // On this machine a published port stays on loopback; a Docker host's must be reachable from the platform (the
  // health check) and from its users (the URL), so it is published on all of the host's interfaces.
  const publishedOn = host === LOOPBACK ? LOOPBACK : "";
  /** How the platform (and the service's URL) reaches a port the engine published. */
  const reach = (hostPort: string) => `${host.includes(":") ? `[${host}]` : host}:${hostPort}`;
  const scaled = (ms: number) => Math.max(MIN_WAIT_MS, Math.round(ms * timeScale));

  /**
   * Runs one step with a client of the engine, collecting its log lines (`flush` writes those so far to the
   * deployment's logs at once, where the engine allows it); refusals read in the engine's words.
   */
  async function run<Result>(
    context: DeployContext,
    work: (engine: Engine, log: Log, flush: () => Promise<void>) => Promise<Result>,
  ): Promise<{ result: Result; lines: NewLogLine[] }> {
    const lines: NewLogLine[] = [];
    let written = 0;
    const podName = context.podNames[0] ?? context.resource.name;
    const log: Log = (message, level = "info", from = podName) => {
      // A millisecond apart, so the lines of one step keep their order in time.
      lines.push({ at: new Date(context.now.getTime() + lines.length), podName: from, level, message });
    };
    let streaming = Boolean(context.writeLines);
    const flush = async () => {
      const from = written;
      const batch = lines.slice(from);
      if (!streaming || !batch.length) return;
      written = lines.length;
      try {
        await context.writeLines?.(batch);
      } catch {
        // The logs could not be written now: the step answers these lines, and the rest, at its end.
        streaming = false;
        written = from;
      }
    };
    try {
      const result = await work(await connect(), log, flush);
      return { result, lines: lines.slice(written) };
    } catch (error) {
      const unwritten = lines.slice(written);
      if (error instanceof CloudStepError) {
        throw error instanceof RolloutFailedError
          ? new RolloutFailedError(error.message, [...unwritten, ...error.lines])
          : new CloudStepError(error.message, { transient: error.transient, lines: unwritten });
      }
      const failed = engineStepError("The step", error);
      throw new CloudStepError(failed.message, { transient: failed.transient, lines: unwritten });
    }
  }

  return {
    async apply(context: DeployContext): Promise<DeployStep> {
      const { result, lines } = await run(context, async (engine, log, flush) => {
        if (context.step === 0) {
          const { source } = applicationConfigFieldsSchema.parse(context.resource.config);
          return source.kind === "github"
            ? build(engine, context, source, log, flush)
            : pull(engine, context, log);
        }
        switch (context.state.phase) {
          case "one-off":
            return runOneOff(engine, context, log);
          case "start":
            return start(engine, context, log);
          case "health":
            return checkHealth(engine, context, log);
          case "switch":
            return switchOver(engine, context, log);
          default:
            throw new CloudStepError(
              `The deployment is at an unknown step (${context.state.phase ?? "none"}).`,
              {
                transient: false,
              },
            );
        }
      });
      return { ...result, lines };
    },

    async destroy(context: DeployContext): Promise<TeardownStep> {
      const { lines } = await run(context, async (engine, log) => {
        if (proxy && context.state.proxyPort) {
          await proxy.unroute(context.resource.id);
          log(`Removed the route of ${proxy.addressOf(Number(context.state.proxyPort))}`);
        }
        const all = [
          ...(await containersOf(engine, context.resource.id)),
          ...(await oneOffContainersOf(engine, context.resource.id)),
        ];
        for (const container of all) {
          await removeContainer(engine, container.Id);
          log(`Removed container ${nameOf(container)}`);
        }
        // Always looked for: a build stopped by its time-out may still land its image after the step failed.
        await removeBuiltImages(engine, context.resource.id, [], log);
        await removeNetworkIfUnused(engine, context, log);
      });
      return { done: true, lines };
    },

    async observe(context: DeployContext): Promise<Observation> {
      const { result } = await run(context, async (engine) => {
        const container = await observe(engine, context);
        return container.state === "ok" ? observeRoute(context) : container;
      });
      return result;
    },

    async units(context: DeployContext): Promise<ServiceUnit[]> {
      const { result } = await run(context, (engine) => unitsOf(engine, context.resource.id));
      return result;
    },
  };

  /** Step 1: a new rollout, and its image pulled (an image already there is not downloaded again). */
  async function pull(engine: Engine, context: DeployContext, log: (message: string) => void) {
    const { state } = context;
    // A rollback to a version pulls the digest it ran, whatever its tag points at now.
    const pinned = state.pinnedDigest ? `${repositoryOf(state.pinnedImage ?? "")}@${state.pinnedDigest}` : "";
    const { image, auth } = await imageOf(context);
    const reference = pinned || image;
    if (pinned) log(`Rolling back: deploying ${pinned} exactly as it ran before (no tag lookup)`);
    log(`Pulling image "${reference}"${auth ? " with the credentials of the connection" : ""}`);
    const repository = repositoryOf(pinned ? (state.pinnedImage ?? "") : image);
    const known = await digestsOf(engine, reference, repository);
    for (const line of await pulled(await connect({ streaming: true }), reference, auth)) log(line);
    const inspected = await engine.getImage(reference).inspect();
    // The registry's digest of what was pulled: podman answers no digest in the pull's events and serves no
    // /distribution, and an image also pushed from here carries its local manifest's digest too. The one the
    // pull added is the registry's; with none added (pulled before), the latest recorded.
    const digests = await digestsOf(engine, reference, repository);
    const digest =
      state.pinnedDigest || (digests.find((one) => !known.includes(one)) ?? digests.at(-1) ?? inspected.Id);
    log(`Successfully pulled image "${reference}" (digest ${digest})`);
    return pending(
      {
        ...withoutRollout(state),
        ...afterImage(context),
        rollout: randomBytes(4).toString("hex"),
        image: pinned ? (state.pinnedImage ?? image) : image,
        imageDigest: digest,
        // The container is created from exactly what was pulled, even if the tag moves meanwhile.
        imageId: inspected.Id,
        pinnedImage: "",
        pinnedDigest: "",
        // What the running container runs, for the rollback's words.
        runningImage: state.container ? (state.image ?? "") : "",
      },
      0,
      "Pulling image",
    );
  }

  /**
   * Step 1 of a GitHub application: a new rollout, and its image built from the repository at the deployment's
   * commit (the pushed one, or the branch's head), labelled with the service so the teardown removes it.
   */
  async function build(
    engine: Engine,
    context: DeployContext,
    source: Extract<ApplicationConfig["source"], { kind: "github" }>,
    log: (message: string) => void,
    flush: () => Promise<void>,
  ) {
    const { state, resource } = context;
    if (state.pinnedDigest) return rebuiltNothing(engine, context, log);
    const sources = sourcesOf(context);
    const { owner, name, commit, message } = await sources.githubSource(source.connectionId, {
      repository: source.repository,
      branch: source.branch,
      dockerfilePath: dockerfileInRepository(source),
      ...(context.pushedCommit ? { pushedCommit: context.pushedCommit } : {}),
    });
    const subject = message.split("\n")[0] ?? "";
    log(
      `Cloning ${owner}/${name} at ${source.branch} (${commit.slice(0, 7)}${subject ? ` ${subject}` : ""})`,
    );
    const archive = await sources.githubArchive(source.connectionId, { owner, name, commit });
    const { tar, dockerfile } = await buildContextOf(archive, source);
    const rollout = randomBytes(4).toString("hex");
    // A name of this engine's own (localhost/…): never a registry's, never pushed.
    const tag = `localhost/cloud-console/${resource.name}-${resource.id.slice(0, 8)}:${commit.slice(0, 12)}`;
    log(
      `Building ${tag} from ${dockerfile} in ${source.buildContext === "." ? "the repository's root" : source.buildContext}`,
    );
    // The build's output goes to the logs as it comes, every BUILD_FLUSH_MS, up to MAX_BUILD_LINES (a long
    // build writes thousands).
    let count = 0;
    let flushing = flush();
    const timer = setInterval(() => {
      flushing = flushing.then(flush);
    }, BUILD_FLUSH_MS);
    const imageId = await buildImage(await connect({ streaming: true }), {
      tar,
      dockerfile,
      tag,
      labels: labelsOf(context, rollout),
      timeoutMs: buildTimeoutMs,
      onLines: (lines) => {
        for (const line of lines) if (count++ < MAX_BUILD_LINES) log(line);
      },
    }).finally(async () => {
      clearInterval(timer);
      await flushing;
      if (count > MAX_BUILD_LINES) log(`(${count - MAX_BUILD_LINES} more lines of the build left out)`);
    });
    log(`Successfully built ${tag} (${imageId})`);
    return pending(
      {
        ...withoutRollout(state),
        ...afterImage(context),
        rollout,
        image: tag,
        imageDigest: imageId,
        imageId,
        commit,
        // The service has images of its own on the engine, for the switch-over and the teardown to remove.
        built: "1",
        pinnedImage: "",
        pinnedDigest: "",
        runningImage: state.container ? (state.image ?? "") : "",
      },
      0,
      "Building image",
    );
  }

  /**
   * Step 1 of a rollback of a GitHub application: the version's image as it was built (state `pinnedDigest` is
   * its id), still on the engine when it is the one that ran before (the switch-over keeps it); an older one
   * was removed, and the rollback says so rather than build something else.
   */
  async function rebuiltNothing(engine: Engine, context: DeployContext, log: (message: string) => void) {
    const { state } = context;
    const image = state.pinnedImage ?? "";
    const digest = state.pinnedDigest ?? "";
    const found = await engine
      .getImage(digest)
      .inspect()
      .catch(() => undefined);
    if (!found) {
      throw new CloudStepError(
        `The image this version ran (${image}, ${digest.slice(0, 19)}) is no longer on the container host: only ` +
          "the version that ran before the current one can be rolled back to. Deploy its commit instead.",
        { transient: false },
      );
    }
    log(`Rolling back: deploying ${image} (${digest}) exactly as it was built before (no build)`);
    return pending(
      {
        ...withoutRollout(state),
        ...afterImage(context),
        rollout: randomBytes(4).toString("hex"),
        image,
        imageDigest: digest,
        imageId: found.Id,
        // The commit it was built from is the version's, not recorded here.
        commit: "",
        pinnedImage: "",
        pinnedDigest: "",
        runningImage: state.container ? (state.image ?? "") : "",
      },
      0,
      "Rolling back",
    );
  }

  /**
   * Step 2, when the deployment has one-off commands (the pre-deploy command, then a preview's seed command): the
   * current one's container created (or found again by its labels: never a second run) and started, then looked
   * at once per ONE_OFF_POLL_MS until it exits, its output written to the deployment's logs as it comes.
   */
  async function runOneOff(engine: Engine, context: DeployContext, log: Log): Promise<DeployStep> {
    const { state, resource } = context;
    const commands = oneOffsOf(context);
    const index = commands.findIndex((one) => one.kind === state.oneOff);
    const oneOff = commands[index];
    if (!oneOff) {
      throw new CloudStepError(`The deployment's ${state.oneOff ?? ""} command is no longer configured.`, {
        transient: false,
      });
    }
    const rollout = state.rollout ?? "";
    const words = oneOffWords(oneOff);
    const progress = oneOffProgress(oneOff);
    const id = state.oneOffContainer;
    if (!id) {
      // What an earlier command (or a deployment its time-out ended) left goes first.
      await removeOneOffs(
        engine,
        resource.id,
        log,
        (container) =>
          container.Labels[LABEL_DEPLOYMENT] === rollout && container.Labels[LABEL_ROLE] === oneOff.kind,
      );
      let found = (await findOneOff(engine, resource.id, rollout, oneOff.kind))?.Id;
      if (!found) {
        // The command runs with the application's variables, resolved as for its container (decision 074).
        const resolution = await resolvedVariablesOf(context);
        if ("waitingFor" in resolution) {
          return pending(state, scaled(REFERENCE_WAIT_MS), `Waiting for ${resolution.waitingFor}`);
        }
        const network = await environmentNetwork(engine, context, log);
        const created = await createOneOff(engine, context, {
          oneOff,
          rollout,
          image: state.imageId ?? state.image ?? "",
          env: envOf(resolution.variables),
          network,
        });
        found = created.id;
        log(`Created container ${created.name} from ${state.image} on network ${network.name}`);
      }
      const container = engine.getContainer(found);
      const inspected = await container.inspect();
      if (["created", "configured"].includes(inspected.State.Status)) {
        await container.start().catch((error: unknown) => {
          throw engineStepError("Starting the command's container", error);
        });
        log(`${progress}: sh -c ${JSON.stringify(oneOff.command)}`);
      }
      return pending(
        { ...state, oneOffContainer: found, oneOffLines: "0" },
        scaled(ONE_OFF_POLL_MS),
        progress,
      );
    }

    const inspected = await engine
      .getContainer(id)
      .inspect()
      .catch((error: unknown) => {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw engineStepError("Reading the command's container", error);
      });
    if (!inspected) {
      throw new RolloutFailedError(
        `${words} cannot say how it ended: its container was removed meanwhile. ${capitalised(rolledBack(context))}.`,
        [],
      );
    }
    const name = inspected.Name.replace(/^\//, "");
    const written = Number(state.oneOffLines ?? 0);
    const running = inspected.State.Running;
    const output = written < MAX_ONE_OFF_LINES || !running ? await outputOf(engine, id) : [];
    for (const line of output.slice(written, MAX_ONE_OFF_LINES)) log(line, "info", name);
    const lines = String(Math.max(written, Math.min(output.length, MAX_ONE_OFF_LINES)));
    if (running) {
      const left = context.deadline
        ? context.deadline.getTime() - DEADLINE_MARGIN_MS - context.now.getTime()
        : Infinity;
      if (left <= 0) {
        await removeContainer(engine, id);
        log(`Stopped and removed container ${name}: the deployment's time-out came`, "error");
        throw new RolloutFailedError(
          `${words} was still running at the deployment's time-out: it was stopped. ` +
            `${capitalised(rolledBack(context))}.`,
          [],
        );
      }
      return pending({ ...state, oneOffLines: lines }, Math.min(scaled(ONE_OFF_POLL_MS), left), progress);
    }
    if (output.length > MAX_ONE_OFF_LINES) {
      log(`(${output.length - MAX_ONE_OFF_LINES} more lines of its output left out)`, "info", name);
    }
    const code = inspected.State.ExitCode;
    if (code !== 0) {
      await removeContainer(engine, id);
      log(`Removed container ${name}`);
      const said = output.slice(-3).join(" / ");
      throw new RolloutFailedError(
        `${words} exited with code ${code}${said ? `: ${said}` : ""}. ${capitalised(rolledBack(context))}.`,
        [],
      );
    }
    log(`${words} exited with code 0`);
    const next = commands[index + 1];
    return pending(
      {
        ...state,
        phase: next ? "one-off" : "start",
        oneOff: next?.kind ?? "",
        oneOffContainer: "",
        oneOffLines: "0",
      },
      0,
      next ? oneOffProgress(next) : "Starting the new container",
    );
  }

  /** Removes the service's one-off containers but those `kept` (a finished command's, or one a time-out left). */
  async function removeOneOffs(
    engine: Engine,
    serviceId: string,
    log: Log,
    kept: (container: ContainerInfo) => boolean = () => false,
  ) {
    for (const container of await oneOffContainersOf(engine, serviceId)) {
      if (kept(container)) continue;
      await removeContainer(engine, container.Id);
      log(`Removed container ${nameOf(container)}`);
    }
  }

  /** The new container, created (or found again by its labels) and started beside the running one. */
  async function start(engine: Engine, context: DeployContext, log: Log): Promise<DeployStep> {
    const { resource, state } = context;
    const rollout = state.rollout ?? "";
    const { hardware, networking, healthCheck } = resource.settings;
    const ports = [...new Set([networking.port, healthCheck.port])].map((port) => `${port}/tcp`);
    // The one-off commands' containers have done their work.
    await removeOneOffs(engine, resource.id, log);
    const [found] = (
      await engine.listContainers({
        all: true,
        filters: labelFilter({ [LABEL_SERVICE]: resource.id, [LABEL_DEPLOYMENT]: rollout }),
      })
    ).filter((container) => !container.Labels[LABEL_ROLE]);
    let id = found?.Id;
    if (!id) {
      // Resolved now, just before the container is made (decision 074): a secret goes into its environment only.
      const resolution = await resolvedVariablesOf(context);
      if ("waitingFor" in resolution) {
        return pending(state, scaled(REFERENCE_WAIT_MS), `Waiting for ${resolution.waitingFor}`);
      }
      for (const variable of resolution.variables) {
        const words = referenceWords(variable);
        if (words) log(words);
      }
      const network = await environmentNetwork(engine, context, log);
      const name = `${resource.name}-${resource.id.slice(0, 8)}-${rollout}`;
      const created = await engine
        .createContainer({
          name,
          Image: state.imageId ?? state.image,
          Env: envOf(resolution.variables),
          Labels: labelsOf(context, rollout),
          ExposedPorts: Object.fromEntries(ports.map((port) => [port, {}])),
          NetworkingConfig: endpointsOf(network, resource.name),
          HostConfig: {
            ...network.hostConfig,
            // At a port the engine picks; on this machine's loopback only, nothing reachable from outside.
            PortBindings: Object.fromEntries(
              ports.map((port) => [port, [{ HostIp: publishedOn, HostPort: "" }]]),
            ),
            NanoCpus: Math.round(Number(hardware.cpu) * 1e9),
            Memory: hardware.memoryMb * 1024 * 1024,
            // A container that crashes (or is killed out of memory) is started again by the engine, as ECS
            // replaces a task; one stopped on purpose stays stopped, for the drift check to report.
            RestartPolicy: { Name: "unless-stopped" },
          },
        })
        .catch((error: unknown) => {
          throw engineStepError("Creating the container", error);
        });
      id = created.id;
      log(`Created container ${name} from ${state.image} on network ${network} as ${resource.name}`);
    }
    const container = engine.getContainer(id);
    const inspected = await container.inspect();
    // Only a container never started is started: one that started and exited is the health step's to report.
    if (["created", "configured"].includes(inspected.State.Status)) {
      await container.start().catch((error: unknown) => {
        throw engineStepError("Starting the container", error);
      });
      log(`Started container ${inspected.Name.replace(/^\//, "")}`);
    }
    return pending(
      {
        ...state,
        phase: "health",
        newContainer: id,
        passes: "0",
        failures: "0",
        startedAt: String(Date.now()),
      },
      scaled(healthCheck.intervalSeconds * 1000),
      "Waiting for the health check",
    );
  }

  /** Step 3, once per interval: the new container's health check, until it passes or fails enough times. */
  async function checkHealth(
    engine: Engine,
    context: DeployContext,
    log: (message: string, level?: NewLogLine["level"]) => void,
  ) {
    const { state, resource } = context;
    const check = resource.settings.healthCheck;
    const container = engine.getContainer(state.newContainer ?? "");
    const inspected = await container.inspect();
    const name = inspected.Name.replace(/^\//, "");
    // Restarted by its restart policy: it exited (crashed) at least once before its health check passed.
    if (!inspected.State.Running || inspected.RestartCount > 0) {
      const output = await lastLinesOf(engine, inspected.Id, FAILED_LOG_LINES);
      for (const line of output) log(line, "error");
      await rollBack(engine, context, log);
      const said = output.at(-1);
      // Caught running again after a restart, the engine no longer says how it exited.
      const ended = inspected.State.Running
        ? `kept exiting (restarted ${inspected.RestartCount} ${inspected.RestartCount === 1 ? "time" : "times"})`
        : `exited with code ${inspected.State.ExitCode}`;
      throw new RolloutFailedError(
        `The new container ${name} ${ended} before its health check passed${said ? ` (${said})` : ""}: ` +
          `${rolledBack(context)}.`,
        [],
      );
    }
    const hostPort = publishedPort(inspected, check.port);
    const outcome = await probe(`http://${reach(hostPort)}${check.path}`, check.timeoutSeconds * 1000, {
      checked: host !== LOOPBACK,
    });
    // Nothing answering yet in its first moments is a container still starting; an answer is its application's.
    const starting = !outcome.answered && Date.now() - Number(state.startedAt ?? 0) < START_PERIOD_MS;
    const passes = outcome.healthy ? Number(state.passes ?? 0) + 1 : 0;
    const failures = outcome.healthy || starting ? 0 : Number(state.failures ?? 0) + 1;
    if (outcome.healthy) {
      log(`Health check passed: GET ${check.path} on port ${check.port} answered ${outcome.said}`);
    } else {
      const during = starting ? " (still starting: not counted)" : "";
      log(`Health check failed: GET ${check.path} on port ${check.port} ${outcome.said}${during}`, "warn");
    }
    if (failures >= UNHEALTHY_THRESHOLD) {
      await rollBack(engine, context, log);
      throw new RolloutFailedError(
        `The new container ${name} never became healthy (GET ${check.path} on port ${check.port} ${outcome.said}, ` +
          `${failures} times in a row): ${rolledBack(context)}.`,
        [],
      );
    }
    if (passes >= check.healthyThreshold) {
      return pending(
        { ...state, phase: "switch", passes: String(passes), failures: "0" },
        0,
        "Switching over",
      );
    }
    return pending(
      { ...state, passes: String(passes), failures: String(failures) },
      scaled(check.intervalSeconds * 1000),
      "Waiting for the health check",
    );
  }

  /** Step 4: the old container goes (and any an interrupted rollout left); the new one is the service's. */
  async function switchOver(engine: Engine, context: DeployContext, log: (message: string) => void) {
    const { state, resource } = context;
    const current = state.newContainer ?? "";
    const inspected = await engine.getContainer(current).inspect();
    const hostPort = publishedPort(inspected, resource.settings.networking.port);
    let endpoint = `http://${reach(hostPort)}`;
    let proxyPort = state.proxyPort ?? "";
    if (proxy) {
      // Allocated once; a step repeated after a crash before its state was kept allocates again, harmlessly.
      proxyPort ||= String(await proxy.allocatePort());
      // Before the old container goes: requests move to the new one in one config load, none to nothing.
      await proxy.route(resource.id, Number(proxyPort), reach(hostPort));
      endpoint = proxy.addressOf(Number(proxyPort));
      log(`Routed ${endpoint} to container ${inspected.Name.replace(/^\//, "")} (${reach(hostPort)})`);
    }
    const replaced: string[] = [];
    for (const container of await containersOf(engine, resource.id)) {
      if (container.Id === current) continue;
      replaced.push(container.ImageID);
      await removeContainer(engine, container.Id);
      log(`Removed container ${nameOf(container)}`);
    }
    // The images built for earlier deployments go, but the one that ran until now: a rollback to it needs no build.
    if (state.built) await removeBuiltImages(engine, resource.id, [inspected.Image, ...replaced], log);
    log(`${resource.name} answers at ${endpoint}`);
    const kept = withoutRollout(state);
    return {
      done: true as const,
      state: { ...kept, container: current, hostPort, ...(proxyPort ? { proxyPort } : {}) },
      endpoint,
      secrets: {},
      outputs: {},
    };
  }

  /**
   * The service's address still leads to its container: a Caddy restarted without `--resume` (or changed by hand)
   * loses or moves the route, and a relaunch's switch-over posts it again.
   */
  async function observeRoute(context: DeployContext): Promise<Observation> {
    const { state, resource } = context;
    if (!proxy || !state.proxyPort || !state.hostPort) return { state: "ok" };
    const address = proxy.addressOf(Number(state.proxyPort));
    const upstream = await proxy.upstreamOf(resource.id);
    const expected = reach(state.hostPort);
    if (upstream === expected) return { state: "ok" };
    return {
      state: "degraded",
      message: upstream
        ? `Its address ${address} leads to ${upstream}, not to its container (${expected}), in the reverse proxy.`
        : `Its address ${address} leads nowhere: the reverse proxy has no route for it (was Caddy restarted without --resume?).`,
    };
  }

  /** The new container goes; the one that ran before was never touched. */
  async function rollBack(
    engine: Engine,
    context: DeployContext,
    log: (message: string, level?: NewLogLine["level"]) => void,
  ) {
    await removeContainer(engine, context.state.newContainer ?? "");
    log(`Removed the new container: ${rolledBack(context)}`, "warn");
  }
}

/**
 * What the deployment pulls: a public image as named; a registry's through the application's connection
 * (`context.sources`, read by the domain), with the credentials it gives. (GitHub sources are built instead.)
 */
async function imageOf(context: DeployContext): Promise<{ image: string; auth?: RegistryAuth }> {
  const { source } = applicationConfigFieldsSchema.parse(context.resource.config);
  switch (source.kind) {
    case "image":
      return { image: withTag(applicationImageOf(context.resource.config)) };
    case "registry": {
      const { image, auth } = await sourcesOf(context).registryImage(
        source.connectionId,
        source.repository,
        source.tag,
      );
      return { image, ...(auth ? { auth } : {}) };
    }
    default:
      throw new CloudStepError(
        `${applicationSourceLabels[source.kind]} sources cannot be deployed to a container engine yet.`,
        { transient: false },
      );
  }
}

/** What the application's source reaches outside; without it, no connection the source names can be read. */
function sourcesOf(context: DeployContext): ApplicationSources {
  if (!context.sources) {
    throw new CloudStepError("The connection this application's source names was deleted: choose another.", {
      transient: false,
    });
  }
  return context.sources;
}

/** A container's environment (`NAME=value`) of the resolved variables. */
const envOf = (variables: ResolvedVariable[]) =>
  variables.map((variable) => `${variable.name}=${variable.value}`);

const rolledBack = (context: DeployContext) =>
  context.state.container
    ? `the deployment was rolled back to the container that ran before (${context.state.runningImage || "its image"})`
    : "the deployment was rolled back (nothing ran before it)";

/** The registry digests the engine records for `reference` in `repository`, in the order it recorded them. */
async function digestsOf(engine: Engine, reference: string, repository: string): Promise<string[]> {
  const image = await engine
    .getImage(reference)
    .inspect()
    .catch(() => undefined);
  return (image?.RepoDigests ?? [])
    .filter((name) => name.startsWith(`${repository}@`))
    .map((name) => name.split("@")[1] ?? "");
}

/** `host:5000/team/web:1.4` → `host:5000/team/web` (a port's colon is not a tag's). */
function repositoryOf(image: string): string {
  const [name = image] = image.split("@");
  const slash = name.lastIndexOf("/");
  const colon = name.lastIndexOf(":");
  return colon > slash ? name.slice(0, colon) : name;
}

/** The state without the fields of one rollout (what a new deployment starts from). */
function withoutRollout(state: State): Record<string, string> {
  const {
    phase: _phase,
    newContainer: _new,
    passes: _passes,
    failures: _failures,
    oneOff: _oneOff,
    oneOffContainer: _oneOffContainer,
    oneOffLines: _oneOffLines,
    ...kept
  } = state;
  return kept;
}

/** Where a deployment goes once its image is there: its first one-off command, or the new container. */
function afterImage(context: DeployContext): Record<string, string> {
  const [first] = oneOffsOf(context);
  return first ? { phase: "one-off", oneOff: first.kind } : { phase: "start" };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export async function observe(engine: Engine, context: DeployContext): Promise<Observation> {
  const id = context.state.container;
  if (!id) return { state: "ok" };
  const inspected = await engine
    .getContainer(id)
    .inspect()
    .catch((error: unknown) => {
      if ((error as { statusCode?: number }).statusCode === 404) return null;
      throw engineStepError("Reading the container", error);
    });
  if (!inspected) {
    return {
      state: "missing",
      message: `Its container (${id.slice(0, 12)}) was removed outside the console.`,
    };
  }
  if (!inspected.State.Running) {
    const name = inspected.Name.replace(/^\//, "");
    return {
      state: "degraded",
      message:
        `Its container ${name} stopped outside the console: it exited with code ${inspected.State.ExitCode} ` +
        `at ${inspected.State.FinishedAt}.`,
    };
  }
  return { state: "ok" };
}

/** Every container of the service, running or not (not a one-off command's: see one-off.ts). */
export const containersOf = async (engine: Engine, serviceId: string): Promise<ContainerInfo[]> =>
  (await engine.listContainers({ all: true, filters: labelFilter({ [LABEL_SERVICE]: serviceId }) })).filter(
    (container) => !container.Labels[LABEL_ROLE],
  );

export const nameOf = (container: ContainerInfo) =>
  container.Names[0]?.replace(/^\//, "") ?? container.Id.slice(0, 12);

/** The service's containers as its overview lists them: name and the engine's state. */
export const unitsOf = async (engine: Engine, serviceId: string): Promise<ServiceUnit[]> =>
  (await containersOf(engine, serviceId)).map((container) => ({
    name: nameOf(container),
    status: container.State,
  }));

/** Removes the images built for the service (labelled with it) but those `kept`, tolerating one already gone. */
async function removeBuiltImages(
  engine: Engine,
  serviceId: string,
  kept: string[],
  log: (message: string) => void,
) {
  const images = await imagesLabelled(engine, { [LABEL_SERVICE]: serviceId });
  for (const image of images.filter((one) => !kept.includes(one.Id))) {
    await engine
      .getImage(image.Id)
      .remove({ force: true })
      .catch((error: unknown) => {
        if ((error as { statusCode?: number }).statusCode !== 404)
          throw engineStepError("Removing a built image", error);
      });
    log(`Removed image ${image.RepoTags?.[0] ?? image.Id}`);
  }
}

/** Removes a container with its anonymous volumes, tolerating one already gone. */
export async function removeContainer(engine: Engine, id: string) {
  if (!id) return;
  await engine
    .getContainer(id)
    .remove({ force: true, v: true })
    .catch((error: unknown) => {
      if ((error as { statusCode?: number }).statusCode !== 404)
        throw engineStepError("Removing a container", error);
    });
}

/** The host port the engine published `port` at. */
export function publishedPort(
  inspected: { NetworkSettings: { Ports: Record<string, unknown> } },
  port: number,
): string {
  const bindings = inspected.NetworkSettings.Ports[`${port}/tcp`] as
    | { HostPort?: string }[]
    | null
    | undefined;
  const hostPort = bindings?.[0]?.HostPort;
  if (!hostPort) {
    throw new CloudStepError(`The container engine published no host port for port ${port}.`, {
      transient: false,
    });
  }
  return hostPort;
}

/**
 * One HTTP GET of the health check, on the port the driver itself published on loopback (not an address a tenant
 * typed, so not through the egress policy). 2xx and 3xx pass, as a load balancer's default matcher.
 */
async function probe(
  url: string,
  timeoutMs: number,
  /** A Docker host on a network is an address a tenant typed: called under the egress policy. */
  { checked }: { checked: boolean },
): Promise<{ healthy: boolean; answered: boolean; said: string }> {
  try {
    const call = checked ? outboundFetch : fetch;
    const response = await call(url, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return {
      healthy: response.status >= 200 && response.status < 400,
      answered: true,
      said:
        response.status >= 200 && response.status < 400
          ? String(response.status)
          : `answered ${response.status}`,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      healthy: false,
      answered: false,
      said: cause ? `got no answer (${cause})` : `got no answer within ${timeoutMs} ms`,
    };
  }
}

/** The image as pulled: a reference without a tag or digest is its `latest`, as `docker pull` reads it. */
function withTag(image: string): string {
  const name = image.split("/").at(-1) ?? image;
  return image.includes("@") || name.includes(":") ? image : `${image}:latest`;
}
