import { setTimeout as sleep } from "node:timers/promises";
import { applicationPaths, applicationVersionListSchema } from "#contract/applications";
import { deployCommitResponseSchema, deployOnPushPaths } from "#contract/deploy-on-push";
import { isBusyStage } from "#contract/service-catalogue";
import { resourceResponseSchema, servicePaths, type HistoryEntry, type Resource } from "#contract/services";
import type { Stage } from "#contract/stages";
import { CliError, type PlatformCall } from "./client";
import type { Output } from "./output";
import { findEnvironment, findService } from "./resources";

/** How a deployment ended, as the process's exit code: CI fails the job on anything but 0. */
export const deployExitCodes = { deployed: 0, failed: 2, rolledBack: 3 } as const;

const finished: readonly Stage[] = ["STAGE_COMPLETED", "STAGE_FAILED", "STAGE_CANCELED"];

export type DeployOptions = {
  call: PlatformCall;
  output: Output;
  tenantId: string;
  environment: string | undefined;
  application: string;
  /** What to deploy: an image (an image or registry source), or a commit, branch or tag (a GitHub source). */
  target: { image: string } | { ref: string };
  json: boolean;
  /** Between two looks at the deployment; tests shorten it. */
  pollMs: number;
  timeoutMs: number;
};

/** A deployment asked for: what it deploys, in words and for --json, and its outcome once it has one. */
type Started = {
  label: string;
  fields: Record<string, string>;
  outcomeOf: (seen: Resource) => Stage | null;
};

/**
 * Deploys an image to the application (its image, or its registry source's tag), or a commit of its GitHub source,
 * and waits for the deployment's end: 0 when it runs, 2 when it failed, 3 when it failed and the version before it
 * still runs (rolled back).
 */
export async function deploy(options: DeployOptions): Promise<number> {
  const { call, output, tenantId } = options;
  const environment = await findEnvironment(call, tenantId, options.environment);
  const summary = await findService(call, tenantId, environment, options.application);
  if (summary.serviceType !== "application") {
    throw new CliError(
      `${summary.name} is a ${summary.serviceType}, not an application: only applications deploy.`,
    );
  }
  const path = servicePaths.one(tenantId, environment.id, summary.id);
  const { resource } = await call("GET", path, resourceResponseSchema);
  const started =
    "ref" in options.target
      ? await deployCommit(options, resource, options.target.ref, environment.id)
      : await deployImage(options, resource, options.target.image, path, environment.id);
  const { label } = started;
  output.progress(`Deploying ${label} to ${resource.name} in ${environment.name}…`);

  const deadline = Date.now() + options.timeoutMs;
  let current: Resource;
  let stage: Stage | null;
  for (;;) {
    current = (await call("GET", path, resourceResponseSchema)).resource;
    stage = started.outcomeOf(current);
    if (stage) break;
    output.progress(
      `${resource.name}: ${wordsOf(current.stage)}${current.progress ? ` (${current.progress.step})` : ""}`,
    );
    if (Date.now() > deadline) {
      throw new CliError(
        `${resource.name} is still deploying after ${Math.round(options.timeoutMs / 1000)} s; follow it with ` +
          `\`cloud-console logs ${resource.name} --follow\` or raise --timeout.`,
      );
    }
    await sleep(options.pollMs);
  }
  output.endProgress();

  const named = { service: resource.name, environment: environment.name, ...started.fields };
  if (stage === "STAGE_COMPLETED") {
    report(options, { outcome: "deployed", ...named });
    if (!options.json) output.out(`Deployed ${label} to ${resource.name} in ${environment.name}.`);
    return deployExitCodes.deployed;
  }
  const { versions } = await call(
    "GET",
    applicationPaths.versions(tenantId, environment.id, summary.id),
    applicationVersionListSchema,
  );
  const running = versions.find((version) => version.running);
  const why = current.message ?? wordsOf(stage);
  if (running) {
    report(options, {
      outcome: "rolled-back",
      ...named,
      message: why,
      runningVersion: running.number,
      runningImage: running.image,
    });
    output.err(
      `Deployment of ${label} to ${resource.name} failed and was rolled back: ${why}\n` +
        `Version ${running.number}${running.image ? ` (${running.image})` : ""} still runs. ` +
        `See \`cloud-console logs ${resource.name}\`.`,
    );
    return deployExitCodes.rolledBack;
  }
  report(options, { outcome: "failed", ...named, message: why });
  output.err(
    `Deployment of ${label} to ${resource.name} failed: ${why}\nSee \`cloud-console logs ${resource.name}\`.`,
  );
  return deployExitCodes.failed;
}

/** The image in the application's source, saved (which deploys it), or launched again when it is the same. */
async function deployImage(
  { call, tenantId }: DeployOptions,
  resource: Resource,
  image: string,
  path: string,
  environmentId: string,
): Promise<Started> {
  const config = { ...resource.config, source: sourceFor(resource.config.source, image, resource.name) };
  const changed = await call("PUT", path, resourceResponseSchema, { version: resource.version, config });
  // The same image again changes nothing: launching redeploys it, which pulls the tag anew.
  if (changed.resource.version === resource.version) {
    await call(
      "POST",
      servicePaths.launchDraft(tenantId, environmentId, resource.id),
      resourceResponseSchema,
    );
  }
  return {
    label: image,
    fields: { image },
    outcomeOf: (seen) => (finished.includes(seen.stage) ? seen.stage : null),
  };
}

/**
 * The commit a SHA, branch or tag names, deployed as a push would be: its deployment is the one the platform
 * answers (or, while another runs, the next one naming the commit). A newer push may replace a commit waiting for
 * the running deployment: that is reported rather than waited for.
 */
async function deployCommit(
  { call, tenantId }: DeployOptions,
  resource: Resource,
  ref: string,
  environmentId: string,
): Promise<Started> {
  const source = (resource.config.source ?? {}) as { kind?: string; repository?: string };
  if (source.kind !== "github") {
    throw new CliError(
      `${resource.name} runs an image, not a GitHub repository's build: deploy it with --image <ref>.`,
    );
  }
  const before = new Set(resource.history.map((entry) => entry.id));
  const answer = await call(
    "POST",
    deployOnPushPaths.deployCommit(tenantId, environmentId, resource.id),
    deployCommitResponseSchema,
    { ref },
  );
  const { sha } = answer.commit;
  const line = `Commit ${sha.slice(0, 7)}`;
  const isNew = (entry: HistoryEntry) => !before.has(entry.id) && entry.message?.startsWith("Commit ");
  return {
    label: `${source.repository ?? "the repository"} at ${sha.slice(0, 7)}`,
    fields: { commit: sha },
    outcomeOf: (seen) => {
      const ours = seen.history.find(
        (entry) => entry.id === answer.historyId || (isNew(entry) && entry.message?.startsWith(line)),
      );
      if (ours) return ours.outcome;
      const replacing = seen.history.find((entry) => isNew(entry) && entry.outcome);
      if (replacing && !isBusyStage(seen.stage)) {
        throw new CliError(
          `${sha.slice(0, 7)} was not deployed: a newer commit replaced it while it waited for the running ` +
            `deployment (${replacing.message?.split("\n")[0] ?? ""}).`,
        );
      }
      return null;
    },
  };
}

function report(options: DeployOptions, result: Record<string, unknown>) {
  if (options.json) options.output.out(JSON.stringify(result));
}

/** The application's source with `image` in it: a public image's reference, or a registry source's tag. */
function sourceFor(source: unknown, image: string, name: string): Record<string, unknown> {
  const current = (source ?? {}) as Record<string, unknown>;
  if (current.kind === "image") return { kind: "image", image };
  if (current.kind === "registry") {
    const repository = String(current.repository);
    const [, named, tag] = /^(?:(.*):)?([\w][\w.-]{0,127})$/.exec(image) ?? [];
    if (tag && (!named || named === repository || named.endsWith(`/${repository}`)))
      return { ...current, tag };
    throw new CliError(
      `${name} pulls ${repository} from a registry connection: give --image ${repository}:<tag> (or just the tag).`,
    );
  }
  throw new CliError(
    current.kind === "github"
      ? `${name} is built from a GitHub repository: deploy a commit of it with --ref <commit>.`
      : `${name} is built from ${String(current.kind)}, not from an image: change its source to an image in ` +
        "the console.",
  );
}

const stageWords: Partial<Record<Stage, string>> = {
  STAGE_QUEUED: "queued",
  STAGE_IN_PROGRESS: "deploying",
  STAGE_SYNCING: "syncing",
  STAGE_INFRASTRUCTURE_NOT_READY: "waiting for the environment's network",
  STAGE_CANCELING: "canceling",
  STAGE_CANCELED: "canceled",
  STAGE_FAILED: "failed",
};

function wordsOf(stage: Stage): string {
  return (
    stageWords[stage] ??
    stage
      .replace(/^STAGE_/, "")
      .toLowerCase()
      .replace(/_/g, " ")
  );
}
