import * as z from "zod";

/** SPEC §4 cloning states, in the order a clone passes them (failures branch off). */
export const cloningStates = [
  "UNSPECIFIED",
  "CREATING_DRAFT_RESOURCES",
  "CREATING_DRAFT_RESOURCES_FAILED",
  "WAITING_FOR_LAUNCH_RESOURCES_EVENT",
  "QUEUE_RESOURCES_FOR_LAUNCH",
  "QUEUE_RESOURCES_FOR_LAUNCH_FAILED",
  "LAUNCH_RESOURCES",
  "LAUNCH_RESOURCES_SUCCEEDED",
  "LAUNCH_RESOURCES_FAILED",
  "CREATING_DRAFT_APPLICATIONS",
  "CREATING_DRAFT_APPLICATIONS_SUCCEEDED",
  "CREATING_DRAFT_APPLICATIONS_FAILED",
  "REVIEW_AND_DEPLOY_APPLICATIONS",
] as const;
export const cloningStateSchema = z.enum(cloningStates);
export type CloningState = z.infer<typeof cloningStateSchema>;

/** SPEC §4: an environment counts as cloning while its stage is in progress and it has not reached review-and-deploy. */
export function isCloning(stage: string, state: CloningState | null | undefined): boolean {
  return stage === "STAGE_IN_PROGRESS" && state !== "REVIEW_AND_DEPLOY_APPLICATIONS";
}

export function isCloningFailure(state: CloningState): boolean {
  return state.endsWith("_FAILED");
}
