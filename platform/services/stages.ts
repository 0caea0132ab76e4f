import { isBusyStage } from "#contract/services";
import type { Stage } from "#contract/stages";

/**
 * Which user action each stage allows (SPEC §4). Writes that change what runs (PUT, PUT draft, launch) wait for a
 * deployment to end, including one that waits for the environment's network.
 */

/** Stages in which a deployment runs, so PUT, PUT draft and draft/launch answer 409. */
export const editBlocked = (stage: Stage) => isBusyStage(stage);

/**
 * Stages POST cancel accepts: queued or in progress, and also waiting for the environment's network (a queued
 * deployment that cannot start yet).
 */
export const cancelableStages: readonly Stage[] = [
  "STAGE_QUEUED",
  "STAGE_IN_PROGRESS",
  "STAGE_INFRASTRUCTURE_NOT_READY",
];

/** Stages in which DELETE answers 409: the engine is working on the service. */
export const deleteBlockedStages: readonly Stage[] = [
  "STAGE_QUEUED",
  "STAGE_IN_PROGRESS",
  "STAGE_SYNCING",
  "STAGE_CANCELING",
];

/**
 * The stage after PUT draft: a service never launched stays a draft; any other (deployed, failed, canceled) is
 * ready to deploy its saved changes with POST draft/launch.
 */
export const stageAfterDraftSaved = (stage: Stage): Stage =>
  stage === "STAGE_DRAFT" ? "STAGE_DRAFT" : "STAGE_READY_TO_DEPLOY";

/**
 * How PUT applies a change: a service never launched just saves; a deployed, idle service whose configuration is
 * unchanged syncs its settings; anything else redeploys (Relaunch).
 */
export function applyModeOf({
  stage,
  deployed,
  configChanged,
}: {
  stage: Stage;
  deployed: boolean;
  configChanged: boolean;
}): "save" | "sync" | "deploy" {
  if (stage === "STAGE_DRAFT") return "save";
  if (!configChanged && deployed && stage === "STAGE_COMPLETED") return "sync";
  return "deploy";
}

/**
 * An environment's stage as its services make it: IN_PROGRESS while the engine works on any of them, else FAILED
 * when one failed, COMPLETED when every one is deployed, DRAFT when none was launched yet, and READY_TO_DEPLOY
 * for a mix with changes not deployed (drafts, saved changes, cancelled deployments). A clone decides while it
 * runs (IN_PROGRESS) and after it failed (FAILED: leaving a failed clone marks the environment failed); an
 * environment without services keeps its clone's stage (UNSPECIFIED when it was never cloned).
 */
export function environmentStageOf(cloningStage: Stage, serviceStages: Iterable<Stage>): Stage {
  if (cloningStage === "STAGE_IN_PROGRESS" || cloningStage === "STAGE_FAILED") return cloningStage;
  const present = new Set(serviceStages);
  if (present.size === 0) return cloningStage;
  if ([...present].some(isBusyStage)) return "STAGE_IN_PROGRESS";
  if (present.has("STAGE_FAILED")) return "STAGE_FAILED";
  if (present.size === 1 && present.has("STAGE_COMPLETED")) return "STAGE_COMPLETED";
  if (present.size === 1 && present.has("STAGE_DRAFT")) return "STAGE_DRAFT";
  return "STAGE_READY_TO_DEPLOY";
}
