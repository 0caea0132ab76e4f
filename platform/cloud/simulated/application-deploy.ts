import { createHash } from "node:crypto";
import type { ApplicationConfig } from "#contract/application-config";
import { applicationConfigFieldsSchema } from "#contract/application-config";
import type {
  ApplicationSources,
  CloudDriver,
  DeployContext,
  DeployDriver,
  DeployStep,
  NewLogLine,
} from "../driver";
import { CloudStepError, RolloutFailedError } from "../driver";
import { oneOffProgress, oneOffsOf, oneOffWords, type OneOff } from "../one-off-commands";
import { randomFrom } from "./random";
import { referenceLines } from "../variables";

/**
 * The simulated cloud's deployment of an application (issue 15, docs/decisions/033), in the formats real tools
 * write. Its steps, each outside any transaction under the job's lease:
 *
 * 1. the image: a GitHub source's Dockerfile is fetched through the connection's GitHub client (`context.sources`,
 *    which platform/applications/sources.ts reads) and built with
 *    BuildKit-style logs; a registry image's manifest is read with the connection's credentials (registry v2 API,
 *    ECR's DescribeImages), whose refusal fails the deployment in the registry's words; a public image is pulled by
 *    the simulated cluster itself (nothing leaves this machine); a chart is installed as `helm upgrade --install`
 *    prints it. A rollback (state `pinnedImage`/`pinnedDigest`) pulls the version's digest and builds nothing;
 * 2. the pre-deploy command, then a preview's seed command (decision 073), each in a Job of the new version, when
 *    there is one. Nothing runs here, so the one outcome the simulated cloud can know is the shell's own: a command
 *    whose last words are `exit N` (N not 0) fails the deployment with that code, as on a container host;
 * 3. a rolling update replacing the pods one at a time (maxSurge 1, maxUnavailable 0), as `kubectl rollout status`
 *    and the pods' events show it. A new pod becomes ready only when its health check passes: the simulated
 *    application answers every path with 200 but a path containing "unhealthy" (503), and nothing listens on a port
 *    the application does not expose (connection refused). Pods that never become ready exceed the progress deadline
 *    and the deployment is rolled back on its own (RolloutFailedError).
 */

/** Seconds (at ENGINE_TIME_SCALE 1) each part takes. */
const seconds = { pull: 4, build: 12, helm: 5, preDeploy: 4, pod: 3 } as const;
/** How long a deployment waits before asking again for a referenced service's attribute (as on a container host). */
const REFERENCE_WAIT_SECONDS = 5;

/** The code a command ending in `exit N` exits with (the only outcome known without running it), or 0. */
const exitCodeOf = (command: string) =>
  Number(/(?:^|[;&|\n]\s*)exit\s+(\d{1,3})\s*;?\s*$/.exec(command)?.[1] ?? 0);

const digestOf = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/** Why the simulated application's pods fail their health check, or null when they pass it. */
export function unhealthyReason(config: ApplicationConfig, podIp: string): string | null {
  const { path, port } = config.healthCheck;
  if (config.ports.length && !config.ports.some((exposed) => exposed.port === port)) {
    return `Readiness probe failed: Get "http://${podIp}:${port}${path}": dial tcp ${podIp}:${port}: connect: connection refused`;
  }
  if (path.includes("unhealthy")) return "Readiness probe failed: HTTP probe failed with statuscode: 503";
  return null;
}

type Stage =
  | { kind: "source" }
  | { kind: "one-off"; oneOff: OneOff }
  | { kind: "pod"; index: number }
  | { kind: "done" };

function stagesOf(context: DeployContext, pods: number): Stage[] {
  return [
    { kind: "source" },
    ...oneOffsOf(context).map((oneOff) => ({ kind: "one-off" as const, oneOff })),
    ...Array.from({ length: pods }, (_, index) => ({ kind: "pod" as const, index })),
    { kind: "done" },
  ];
}

/** The image an application's source resolves to, with the lines that resolving wrote. */
type Resolved = { image: string; digest: string; commit?: string; lines: string[]; seconds: number };

export function applicationDeployDriver(cloud: CloudDriver, timeScale: number): DeployDriver {
  const scaled = (value: number) => Math.round(value * 1000 * timeScale);
  return {
    secretAttributeNames: (resource) => cloud.secretAttributeNames(resource.serviceType),
    async apply(context) {
      const { resource } = context;
      const config = applicationConfigFieldsSchema.parse(resource.config);
      const stages = stagesOf(context, context.podNames.length);
      // Steps spent waiting for a referenced service's attribute do not move the rollout on.
      const waits = context.step === 0 ? 0 : Number(context.state.referenceWaits ?? 0);
      const stage = stages[Math.min(context.step - waits, stages.length - 1)] ?? { kind: "done" };
      const firstPod = context.podNames[0] ?? resource.name;
      const stamp = (
        texts: string[],
        podName = firstPod,
        level: NewLogLine["level"] = "info",
      ): NewLogLine[] =>
        texts.map((message, index) => ({
          at: new Date(context.now.getTime() + index),
          podName,
          level,
          message,
        }));

      if (stage.kind === "source") {
        const resolved = await resolveImage(context, config);
        return {
          done: false,
          state: {
            ...context.state,
            referenceWaits: "0",
            image: resolved.image,
            imageDigest: resolved.digest,
            ...(resolved.commit ? { commit: resolved.commit } : {}),
            pinnedImage: "",
            pinnedDigest: "",
            runningImage: context.state.image ?? "",
            runningDigest: context.state.imageDigest ?? "",
            ...(config.source.kind === "helm"
              ? { helmRevision: String(Number(context.state.helmRevision ?? 0) + 1) }
              : {}),
          },
          waitMs: scaled(resolved.seconds),
          progress: config.source.kind === "github" ? "Building image" : "Pulling image",
          lines: stamp(resolved.lines),
        };
      }
      if (stage.kind === "one-off") {
        const { oneOff } = stage;
        const name = oneOff.kind === "seed" ? "seed" : "predeploy";
        const job = `${resource.name}-${name}-${randomFrom("job", resource.id, context.now.getTime()).chars(5, "bcdfghjklmnpqrstvwxz2456789")}`;
        const started = [
          `job.batch/${job} created`,
          `Normal  SuccessfulCreate  job/${job}  Created pod: ${job}-x7k2p`,
          `Normal  Started  pod/${job}-x7k2p  Started container ${oneOff.kind}: sh -c ${JSON.stringify(oneOff.command)}`,
        ];
        const code = exitCodeOf(oneOff.command);
        if (code) {
          const rolledBack = context.state.runningImage
            ? `the deployment was rolled back to ${context.state.runningImage}`
            : "the deployment was rolled back (nothing ran before it)";
          throw new RolloutFailedError(
            `${oneOffWords(oneOff)} exited with code ${code}. ${rolledBack.charAt(0).toUpperCase()}${rolledBack.slice(1)}.`,
            [
              ...stamp(started, job),
              ...stamp(
                [`Warning  BackoffLimitExceeded  job/${job}  Job has reached the specified backoff limit`],
                job,
                "error",
              ),
            ],
          );
        }
        return {
          done: false,
          state: { ...context.state },
          waitMs: scaled(seconds.preDeploy),
          progress: oneOffProgress(oneOff),
          lines: stamp([...started, `Normal  Completed  job/${job}  Job completed`], job),
        };
      }
      if (stage.kind === "pod") {
        // The variables are resolved as the first new pod is created, as Kubernetes reads a pod's environment
        // (decision 074); the logs name what was resolved, never a value. Without a resolver (the demo's seed),
        // nothing is.
        if (stage.index === 0 && context.variables) {
          const resolution = await context.variables();
          if ("waitingFor" in resolution) {
            return {
              done: false,
              state: { ...context.state, referenceWaits: String(waits + 1) },
              waitMs: scaled(REFERENCE_WAIT_SECONDS),
              progress: `Waiting for ${resolution.waitingFor}`,
              lines: [],
            };
          }
          const step = rolloutStep(context, config, stage.index, stamp, scaled);
          return {
            ...step,
            lines: [...referenceLines(resolution.variables, context.now, firstPod), ...step.lines],
          };
        }
        return rolloutStep(context, config, stage.index, stamp, scaled);
      }
      const endpoint = cloud.endpoint(resource);
      return {
        done: true,
        state: { ...context.state },
        endpoint,
        secrets: {},
        outputs: {},
        lines: stamp([`deployment "${resource.name}" successfully rolled out`]),
      };
    },
    timeoutMinutes: () => null,
  };
}

/** The `index`-th pod of the new ReplicaSet replaces one of the old: ready when its health check passes. */
function rolloutStep(
  context: DeployContext,
  config: ApplicationConfig,
  index: number,
  stamp: (texts: string[], podName?: string, level?: NewLogLine["level"]) => NewLogLine[],
  scaled: (value: number) => number,
): DeployStep {
  const { resource, podNames } = context;
  const pod = podNames[index] ?? resource.name;
  const random = randomFrom("rollout", resource.id, pod);
  const podIp = `10.0.${random.int(0, 95)}.${random.int(2, 254)}`;
  const node = `ip-10-0-${random.int(0, 95)}-${random.int(2, 254)}.ec2.internal`;
  const image = context.state.imageDigest
    ? `${context.state.image}@${context.state.imageDigest}`
    : (context.state.image ?? "");
  const total = podNames.length;
  const lines = [
    ...stamp([
      `Waiting for deployment "${resource.name}" rollout to finish: ${index} of ${total} updated replicas are available...`,
    ]),
    ...stamp(
      [
        `Normal  Scheduled  pod/${pod}  Successfully assigned ${resource.environmentName}/${pod} to ${node}`,
        `Normal  Pulled  pod/${pod}  Container image "${image}" already present on machine`,
        `Normal  Created  pod/${pod}  Created container ${resource.name}`,
        `Normal  Started  pod/${pod}  Started container ${resource.name}`,
        ...config.sidecars.map((sidecar) => `Normal  Started  pod/${pod}  Started container ${sidecar.name}`),
      ],
      pod,
    ),
  ];
  const reason = unhealthyReason(config, podIp);
  if (reason) {
    const failures = stamp(
      Array.from(
        { length: config.healthCheck.unhealthyThreshold },
        () => `Warning  Unhealthy  pod/${pod}  ${reason}`,
      ),
      pod,
      "warn",
    );
    const message =
      `The new pods never became healthy (${reason}): deployment "${resource.name}" exceeded its progress ` +
      `deadline and was rolled back${context.state.runningImage ? ` to ${context.state.runningImage}` : ""}.`;
    throw new RolloutFailedError(message, [
      ...lines,
      ...failures,
      ...stamp([`error: deployment "${resource.name}" exceeded its progress deadline`], pod, "error"),
      ...stamp([`deployment.apps/${resource.name} rolled back`]),
    ]);
  }
  const old = context.previousPodNames?.[index];
  return {
    done: false,
    state: { ...context.state },
    waitMs: scaled(seconds.pod + config.healthCheck.healthyThreshold),
    progress: `Replacing pods (${index + 1} of ${total})`,
    lines: [
      ...lines,
      ...stamp(
        [
          `Normal  Ready  pod/${pod}  Readiness probe succeeded: GET ${config.healthCheck.path} on port ${config.healthCheck.port} returned 200 (${config.healthCheck.healthyThreshold} in a row)`,
          ...(old ? [`Normal  Killing  pod/${old}  Stopping container ${resource.name}`] : []),
        ],
        pod,
      ),
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Sources

async function resolveImage(context: DeployContext, config: ApplicationConfig): Promise<Resolved> {
  const { source } = config;
  const pinned = context.state.pinnedDigest;
  if (pinned) {
    const image = context.state.pinnedImage ?? "";
    return {
      image,
      digest: pinned,
      seconds: seconds.pull,
      lines: [
        `Rolling back: deploying ${image}@${pinned} exactly as it ran before (no build, no tag lookup)`,
        `Pulling image "${image}@${pinned}"`,
        `Successfully pulled image "${image}@${pinned}"`,
      ],
    };
  }
  switch (source.kind) {
    case "image": {
      // This machine has no internet: the simulated cluster pulls public images itself (docs/decisions/033).
      const image = source.image.includes("@") ? (source.image.split("@")[0] ?? source.image) : source.image;
      const digest = source.image.includes("@sha256:")
        ? (source.image.split("@")[1] ?? digestOf(source.image))
        : digestOf(source.image);
      return {
        image,
        digest,
        seconds: seconds.pull,
        lines: [
          `Pulling image "${source.image}"`,
          `Successfully pulled image "${source.image}" (digest ${digest})`,
        ],
      };
    }
    case "registry":
      return pullFromRegistry(context, source);
    case "github":
      return buildFromGitHub(context, source);
    case "helm":
      return installChart(context, source);
  }
}

async function pullFromRegistry(
  context: DeployContext,
  source: Extract<ApplicationConfig["source"], { kind: "registry" }>,
): Promise<Resolved> {
  const pulled = await sourcesOf(context).registryImage(source.connectionId, source.repository, source.tag);
  return {
    image: pulled.image,
    digest: pulled.digest,
    seconds: seconds.pull,
    lines: [
      `Pulling image "${pulled.image}" with the credentials of the connection`,
      `${source.tag}: Pulling from ${source.repository}`,
      `Digest: ${pulled.digest}`,
      `Status: Downloaded newer image for ${pulled.image}`,
    ],
  };
}

async function buildFromGitHub(
  context: DeployContext,
  source: Extract<ApplicationConfig["source"], { kind: "github" }>,
): Promise<Resolved> {
  const dockerfilePath =
    source.buildContext === "." || source.dockerfilePath.includes("/")
      ? source.dockerfilePath
      : `${source.buildContext.replace(/\/+$/, "")}/${source.dockerfilePath}`;
  // A pushed commit (deploy on push) is built as pushed; otherwise the branch's head.
  const { owner, name, commit, message, dockerfile } = await sourcesOf(context).githubSource(
    source.connectionId,
    {
      repository: source.repository,
      branch: source.branch,
      dockerfilePath,
      ...(context.pushedCommit ? { pushedCommit: context.pushedCommit } : {}),
    },
  );
  const image = `registry.internal/${context.resource.environmentName}/${context.resource.name}:${commit.slice(0, 7)}`;
  const digest = digestOf(`${dockerfile}\n${commit}`);
  const subject = message.split("\n")[0] ?? "";
  return {
    image,
    digest,
    commit,
    seconds: seconds.build,
    lines: [
      `Cloning ${owner}/${name} at ${source.branch} (${commit.slice(0, 7)}${subject ? ` ${subject}` : ""})`,
      ...buildKitLines({ dockerfile, dockerfilePath, image, digest, context: source.buildContext }),
    ],
  };
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

/**
 * `docker buildx build --progress=plain` output for a Dockerfile: one numbered vertex per instruction that makes a
 * layer, stages named like BuildKit names them ([build 2/5], [3/4]), then the export.
 */
export function buildKitLines({
  dockerfile,
  dockerfilePath,
  image,
  digest,
  context,
}: {
  dockerfile: string;
  dockerfilePath: string;
  image: string;
  digest: string;
  context: string;
}): string[] {
  const instructions = dockerfile
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  type Stage = { name: string | null; steps: string[] };
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    const [keyword = ""] = instruction.split(/\s+/);
    if (keyword.toUpperCase() === "FROM") {
      const alias = /\sAS\s+(\S+)\s*$/i.exec(instruction)?.[1] ?? null;
      stages.push({ name: alias, steps: [instruction.replace(/\s+AS\s+\S+\s*$/i, "")] });
    } else if (["RUN", "COPY", "ADD", "WORKDIR"].includes(keyword.toUpperCase())) {
      stages.at(-1)?.steps.push(instruction);
    }
  }
  const lines = [
    `#0 building with "default" instance using docker driver`,
    "",
    `#1 [internal] load build definition from ${dockerfilePath.split("/").at(-1)}`,
    `#1 transferring dockerfile: ${Buffer.byteLength(dockerfile)}B done`,
    "#1 DONE 0.0s",
  ];
  let vertex = 2;
  for (const stage of stages) {
    const from = stage.steps[0]?.split(/\s+/)[1] ?? "scratch";
    lines.push(
      "",
      `#${vertex} [internal] load metadata for docker.io/${from.includes("/") ? from : `library/${from}`}`,
      `#${vertex} DONE 0.4s`,
    );
    vertex += 1;
  }
  lines.push(
    "",
    `#${vertex} [internal] load build context`,
    `#${vertex} transferring context: 48.21kB done`,
    `#${vertex} DONE 0.1s`,
  );
  vertex += 1;
  for (const stage of stages) {
    stage.steps.forEach((step, index) => {
      const label = `[${stage.name ? `${stage.name} ` : ""}${index + 1}/${stage.steps.length}]`;
      lines.push("", `#${vertex} ${label} ${step}`);
      if (step.toUpperCase().startsWith("RUN")) lines.push(`#${vertex} 0.512 ${step.slice(4, 64)}`);
      lines.push(`#${vertex} DONE ${(0.1 + (index % 3) * 0.7).toFixed(1)}s`);
      vertex += 1;
    });
  }
  lines.push(
    "",
    `#${vertex} exporting to image`,
    `#${vertex} exporting layers 0.6s done`,
    `#${vertex} writing image ${digest} done`,
    `#${vertex} naming to ${image} done`,
    `#${vertex} DONE 0.7s`,
    `Build context: ${context}`,
    `Pushed ${image}@${digest}`,
  );
  return lines;
}

async function installChart(
  context: DeployContext,
  source: Extract<ApplicationConfig["source"], { kind: "helm" }>,
): Promise<Resolved> {
  const repositoryUrl = (await context.sources?.chartRepositoryUrl(source.chartRepositoryId)) ?? "";
  const revision = Number(context.state.helmRevision ?? 0) + 1;
  const { name, environmentName } = context.resource;
  return {
    image: `${source.chart}:${source.version}`,
    digest: digestOf(`${repositoryUrl}/${source.chart}:${source.version}\n${source.values}`),
    seconds: seconds.helm,
    lines: [
      `$ helm upgrade --install ${name} ${source.chart} --repo ${repositoryUrl} --version ${source.version} --namespace ${environmentName} -f values.yaml`,
      revision === 1
        ? `Release "${name}" does not exist. Installing it now.`
        : `Release "${name}" has been upgraded. Happy Helming!`,
      `NAME: ${name}`,
      `LAST DEPLOYED: ${context.now.toUTCString()}`,
      `NAMESPACE: ${environmentName}`,
      "STATUS: deployed",
      `REVISION: ${revision}`,
    ],
  };
}
