import { isBusyStage } from "#contract/service-catalogue";
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
