import { isBusyStage } from "#contract/service-catalogue";
import type { Stage } from "#contract/stages";

/**
 * An environment's stage as its services make it: IN_PROGRESS while the engine works on any of them, else FAILED
 * when one failed, COMPLETED when every one is deployed, DRAFT when none was launched yet, and READY_TO_DEPLOY
 * for a mix with changes not deployed (drafts, saved changes, cancelled deployments). A clone decides while it
 * runs (IN_PROGRESS) and after it failed (FAILED: leaving a failed clone marks the environment failed); an
 * environment without services keeps its clone's stage, and one never cloned is a DRAFT: nothing launched yet.
 */
export function environmentStageOf(cloningStage: Stage, serviceStages: Iterable<Stage>): Stage {
  if (cloningStage === "STAGE_IN_PROGRESS" || cloningStage === "STAGE_FAILED") return cloningStage;
  const present = new Set(serviceStages);
  if (present.size === 0) return cloningStage === "STAGE_UNSPECIFIED" ? "STAGE_DRAFT" : cloningStage;
  if ([...present].some(isBusyStage)) return "STAGE_IN_PROGRESS";
  if (present.has("STAGE_FAILED")) return "STAGE_FAILED";
  if (present.size === 1 && present.has("STAGE_COMPLETED")) return "STAGE_COMPLETED";
  if (present.size === 1 && present.has("STAGE_DRAFT")) return "STAGE_DRAFT";
  return "STAGE_READY_TO_DEPLOY";
}
