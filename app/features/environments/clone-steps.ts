import type { CloneState } from "#contract/environments";
import type { CloningState } from "#contract/cloning";
import type { Stage } from "#contract/stages";

/** The steps of a clone in the order the platform runs them (contract/cloning.ts without its branches). */
export const cloneSteps = [
  "CREATING_DRAFT_RESOURCES",
  "WAITING_FOR_LAUNCH_RESOURCES_EVENT",
  "QUEUE_RESOURCES_FOR_LAUNCH",
  "LAUNCH_RESOURCES",
  "CREATING_DRAFT_APPLICATIONS",
  "REVIEW_AND_DEPLOY_APPLICATIONS",
] as const satisfies readonly CloningState[];
export type CloneStep = (typeof cloneSteps)[number];

export const cloneStepLabels: Record<CloneStep, string> = {
  CREATING_DRAFT_RESOURCES: "Create draft resources",
  WAITING_FOR_LAUNCH_RESOURCES_EVENT: "Launch resources",
  QUEUE_RESOURCES_FOR_LAUNCH: "Queue resources for launch",
  LAUNCH_RESOURCES: "Launch resources in the cloud",
  CREATING_DRAFT_APPLICATIONS: "Create draft applications",
  REVIEW_AND_DEPLOY_APPLICATIONS: "Review and deploy applications",
};

/**
 * - pending: not reached yet
 * - running: the platform is working on it
 * - waiting: it needs the user (the launch go-ahead, or the review-and-deploy hand-off)
 * - done / failed: finished
 */
export type CloneStepStatus = "pending" | "running" | "waiting" | "done" | "failed";

type Position = { step: CloneStep; status: Exclude<CloneStepStatus, "pending"> };

/** Where each cloning state stands: its step and that step's status. */
const positions: Record<Exclude<CloningState, "UNSPECIFIED">, Position> = {
  CREATING_DRAFT_RESOURCES: { step: "CREATING_DRAFT_RESOURCES", status: "running" },
  CREATING_DRAFT_RESOURCES_FAILED: { step: "CREATING_DRAFT_RESOURCES", status: "failed" },
  WAITING_FOR_LAUNCH_RESOURCES_EVENT: { step: "WAITING_FOR_LAUNCH_RESOURCES_EVENT", status: "waiting" },
  QUEUE_RESOURCES_FOR_LAUNCH: { step: "QUEUE_RESOURCES_FOR_LAUNCH", status: "running" },
  QUEUE_RESOURCES_FOR_LAUNCH_FAILED: { step: "QUEUE_RESOURCES_FOR_LAUNCH", status: "failed" },
  LAUNCH_RESOURCES: { step: "LAUNCH_RESOURCES", status: "running" },
  LAUNCH_RESOURCES_SUCCEEDED: { step: "LAUNCH_RESOURCES", status: "done" },
  LAUNCH_RESOURCES_FAILED: { step: "LAUNCH_RESOURCES", status: "failed" },
  CREATING_DRAFT_APPLICATIONS: { step: "CREATING_DRAFT_APPLICATIONS", status: "running" },
  CREATING_DRAFT_APPLICATIONS_SUCCEEDED: { step: "CREATING_DRAFT_APPLICATIONS", status: "done" },
  CREATING_DRAFT_APPLICATIONS_FAILED: { step: "CREATING_DRAFT_APPLICATIONS", status: "failed" },
  REVIEW_AND_DEPLOY_APPLICATIONS: { step: "REVIEW_AND_DEPLOY_APPLICATIONS", status: "waiting" },
};

export type CloneStepView = {
  step: CloneStep;
  label: string;
  status: CloneStepStatus;
  /** When the platform entered the step (its first state in the history), if it has. */
  startedAt: string | null;
};

/** Every step with its status for the clone's current state: those before it done, those after it pending. */
export function cloneStepViews(state: CloneState): CloneStepView[] {
  const position = state.infraState === "UNSPECIFIED" ? null : positions[state.infraState];
  const currentIndex = position ? cloneSteps.indexOf(position.step) : -1;
  return cloneSteps.map((step, index) => ({
    step,
    label: cloneStepLabels[step],
    status: index < currentIndex ? "done" : index > currentIndex || !position ? "pending" : position.status,
    startedAt: startOf(step, state.history),
  }));
}

function startOf(step: CloneStep, history: CloneState["history"]): string | null {
  const entered = history.find(
    (entry) => entry.state !== "UNSPECIFIED" && positions[entry.state].step === step,
  );
  return entered?.at ?? null;
}

/**
 * True while the platform moves the clone on by itself, so the page may look again soon: a running step, a step
 * that just succeeded (the next follows without the user) and a clone requested but not begun.
 */
export function isCloneStepRunning(state: CloningState): boolean {
  if (state === "UNSPECIFIED") return true;
  const { status } = positions[state];
  return status === "running" || status === "done";
}

/** What leaving the clone flow did, by the stage the environment ended in. */
export function cloneExitMessage(stage: Stage): string {
  if (stage === "STAGE_COMPLETED") return "Cloning finished";
  if (stage === "STAGE_FAILED") return "Left the failed clone; the environment is marked failed";
  return "Cloning cancelled";
}

/**
 * What the last step says about the resources: the launch queues their deployments, so they may still be
 * deploying, or have failed, when the applications are ready for review.
 */
export function reviewStepMessage(resources: CloneState["resources"]): string {
  const drafts = "the applications were created as drafts";
  const { total, running, stage } = resources;
  if (total === 0) return `There were no resources to launch, and ${drafts}.`;
  const count = `${running} of ${total} resource${total === 1 ? "" : "s"} running`;
  if (stage === "STAGE_COMPLETED") return `The resources are running and ${drafts}.`;
  if (stage === "STAGE_FAILED") {
    return `Some resources failed to deploy (${count}): open them in the services to see why and retry. Meanwhile ${drafts}.`;
  }
  if (stage === "STAGE_IN_PROGRESS") {
    return `The resources are still being deployed (${count}); ${drafts}. Deploy the applications once the resources run.`;
  }
  return `Some resources are not deployed (${count}); ${drafts}.`;
}

/** At the last step the page keeps looking while the resources are still being deployed. */
export function areCloneResourcesDeploying(state: CloneState): boolean {
  return (
    state.infraState === "REVIEW_AND_DEPLOY_APPLICATIONS" && state.resources.stage === "STAGE_IN_PROGRESS"
  );
}
