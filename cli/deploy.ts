import { setTimeout as sleep } from "node:timers/promises";
import { applicationPaths, applicationVersionListSchema } from "#contract/applications";
import { resourceResponseSchema, servicePaths, type ResourceSummary } from "#contract/services";
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
  image: string;
  json: boolean;
  /** Between two looks at the deployment; tests shorten it. */
  pollMs: number;
  timeoutMs: number;
};

/**
 * Deploys `image` to the application (its image, or its registry source's tag) and waits for the deployment's end:
 * 0 when it runs, 2 when it failed, 3 when it failed and the version before it still runs (rolled back).
 */
export async function deploy(options: DeployOptions): Promise<number> {
  const { call, output, tenantId, image } = options;
  const environment = await findEnvironment(call, tenantId, options.environment);
  const summary = await findService(call, tenantId, environment, options.application);
  if (summary.serviceType !== "application") {
    throw new CliError(
      `${summary.name} is a ${summary.serviceType}, not an application: only applications deploy images.`,
    );
  }
  const path = servicePaths.one(tenantId, environment.id, summary.id);
  const { resource } = await call("GET", path, resourceResponseSchema);
  const config = { ...resource.config, source: sourceFor(resource.config.source, image, resource.name) };
  const changed = await call("PUT", path, resourceResponseSchema, { version: resource.version, config });
  // The same image again changes nothing: launching redeploys it, which pulls the tag anew.
  if (changed.resource.version === resource.version) {
    await call(
      "POST",
      servicePaths.launchDraft(tenantId, environment.id, summary.id),
      resourceResponseSchema,
    );
  }
  output.progress(`Deploying ${image} to ${resource.name} in ${environment.name}…`);

  const deadline = Date.now() + options.timeoutMs;
  let current: ResourceSummary = changed.resource;
  for (;;) {
    const { resource: seen } = await call("GET", path, resourceResponseSchema);
    current = seen;
    if (finished.includes(seen.stage)) break;
    output.progress(
      `${resource.name}: ${wordsOf(seen.stage)}${seen.progress ? ` (${seen.progress.step})` : ""}`,
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

  if (current.stage === "STAGE_COMPLETED") {
    report(options, { outcome: "deployed", service: resource.name, environment: environment.name, image });
    if (!options.json) output.out(`Deployed ${image} to ${resource.name} in ${environment.name}.`);
    return deployExitCodes.deployed;
  }
  const { versions } = await call(
    "GET",
    applicationPaths.versions(tenantId, environment.id, summary.id),
    applicationVersionListSchema,
  );
  const running = versions.find((version) => version.running);
  const why = current.message ?? wordsOf(current.stage);
  if (running) {
    report(options, {
      outcome: "rolled-back",
      service: resource.name,
      environment: environment.name,
      image,
      message: why,
      runningVersion: running.number,
      runningImage: running.image,
    });
    output.err(
      `Deployment of ${image} to ${resource.name} failed and was rolled back: ${why}\n` +
        `Version ${running.number}${running.image ? ` (${running.image})` : ""} still runs. ` +
        `See \`cloud-console logs ${resource.name}\`.`,
    );
    return deployExitCodes.rolledBack;
  }
  report(options, {
    outcome: "failed",
    service: resource.name,
    environment: environment.name,
    image,
    message: why,
  });
  output.err(
    `Deployment of ${image} to ${resource.name} failed: ${why}\nSee \`cloud-console logs ${resource.name}\`.`,
  );
  return deployExitCodes.failed;
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
    `${name} is built from ${String(current.kind)}, not from an image: push to its branch to deploy it, or ` +
      "change its source to an image in the console.",
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
