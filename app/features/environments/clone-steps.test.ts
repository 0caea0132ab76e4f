import { describe, expect, it } from "vitest";
import { cloningStates } from "#contract/cloning";
import type { Stage } from "#contract/stages";
import {
  areCloneResourcesDeploying,
  cloneExitMessage,
  cloneSteps,
  cloneStepViews,
  isCloneStepRunning,
  reviewStepMessage,
} from "./clone-steps";
import { aCloneState } from "./test-factories";

const statuses = (infraState: (typeof cloningStates)[number]) =>
  cloneStepViews(aCloneState({ infraState })).map((view) => view.status);

describe("cloneStepViews", () => {
  it("lists the six steps in the platform's order", () => {
    expect(cloneStepViews(aCloneState()).map((view) => view.step)).toEqual([...cloneSteps]);
  });

  it("has every step pending before the clone begins", () => {
    expect(statuses("UNSPECIFIED")).toEqual(Array(6).fill("pending"));
  });

  it("marks the running step and those before it done", () => {
    expect(statuses("CREATING_DRAFT_RESOURCES")).toEqual([
      "running",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
    ]);
    expect(statuses("LAUNCH_RESOURCES")).toEqual(["done", "done", "done", "running", "pending", "pending"]);
  });

  it("waits for the user at the launch go-ahead and at review-and-deploy", () => {
    expect(statuses("WAITING_FOR_LAUNCH_RESOURCES_EVENT")).toEqual([
      "done",
      "waiting",
      "pending",
      "pending",
      "pending",
      "pending",
    ]);
    expect(statuses("REVIEW_AND_DEPLOY_APPLICATIONS")).toEqual([
      "done",
      "done",
      "done",
      "done",
      "done",
      "waiting",
    ]);
  });

  it("shows a succeeded step as done and the next as pending", () => {
    expect(statuses("LAUNCH_RESOURCES_SUCCEEDED")).toEqual([
      "done",
      "done",
      "done",
      "done",
      "pending",
      "pending",
    ]);
    expect(statuses("CREATING_DRAFT_APPLICATIONS_SUCCEEDED")).toEqual([
      "done",
      "done",
      "done",
      "done",
      "done",
      "pending",
    ]);
  });

  it("puts each failure on its own step", () => {
    expect(statuses("CREATING_DRAFT_RESOURCES_FAILED")[0]).toBe("failed");
    expect(statuses("QUEUE_RESOURCES_FOR_LAUNCH_FAILED")).toEqual([
      "done",
      "done",
      "failed",
      "pending",
      "pending",
      "pending",
    ]);
    expect(statuses("LAUNCH_RESOURCES_FAILED")[3]).toBe("failed");
    expect(statuses("CREATING_DRAFT_APPLICATIONS_FAILED")[4]).toBe("failed");
  });

  it("dates each step from the first state of it in the history", () => {
    const views = cloneStepViews(
      aCloneState({
        infraState: "LAUNCH_RESOURCES_SUCCEEDED",
        history: [
          { state: "CREATING_DRAFT_RESOURCES", at: "2026-01-01T10:00:00.000Z" },
          { state: "WAITING_FOR_LAUNCH_RESOURCES_EVENT", at: "2026-01-01T10:01:00.000Z" },
          { state: "QUEUE_RESOURCES_FOR_LAUNCH", at: "2026-01-01T10:05:00.000Z" },
          { state: "LAUNCH_RESOURCES", at: "2026-01-01T10:06:00.000Z" },
          { state: "LAUNCH_RESOURCES_SUCCEEDED", at: "2026-01-01T10:09:00.000Z" },
        ],
      }),
    );
    expect(views.map((view) => view.startedAt)).toEqual([
      "2026-01-01T10:00:00.000Z",
      "2026-01-01T10:01:00.000Z",
      "2026-01-01T10:05:00.000Z",
      "2026-01-01T10:06:00.000Z",
      null,
      null,
    ]);
  });

  it("knows every cloning state of the contract", () => {
    for (const state of cloningStates)
      expect(() => cloneStepViews(aCloneState({ infraState: state }))).not.toThrow();
  });
});

describe("isCloneStepRunning", () => {
  it("is true while the platform moves on by itself", () => {
    for (const state of [
      "UNSPECIFIED",
      "CREATING_DRAFT_RESOURCES",
      "QUEUE_RESOURCES_FOR_LAUNCH",
      "LAUNCH_RESOURCES",
      "LAUNCH_RESOURCES_SUCCEEDED",
      "CREATING_DRAFT_APPLICATIONS",
      "CREATING_DRAFT_APPLICATIONS_SUCCEEDED",
    ] as const) {
      expect(isCloneStepRunning(state), state).toBe(true);
    }
  });

  it("is false while the user is expected or after a failure", () => {
    for (const state of [
      "WAITING_FOR_LAUNCH_RESOURCES_EVENT",
      "REVIEW_AND_DEPLOY_APPLICATIONS",
      "CREATING_DRAFT_RESOURCES_FAILED",
      "QUEUE_RESOURCES_FOR_LAUNCH_FAILED",
      "LAUNCH_RESOURCES_FAILED",
      "CREATING_DRAFT_APPLICATIONS_FAILED",
    ] as const) {
      expect(isCloneStepRunning(state), state).toBe(false);
    }
  });
});

describe("cloneExitMessage", () => {
  it("says how leaving the clone ended, by the environment's stage", () => {
    expect(cloneExitMessage("STAGE_COMPLETED")).toBe("Cloning finished");
    expect(cloneExitMessage("STAGE_FAILED")).toBe("Left the failed clone; the environment is marked failed");
    expect(cloneExitMessage("STAGE_CANCELED")).toBe("Cloning cancelled");
  });
});

describe("reviewStepMessage", () => {
  const resources = (total: number, running: number, stage: Stage) => ({ total, running, stage });

  it("says the resources run only when every one does", () => {
    expect(reviewStepMessage(resources(2, 2, "STAGE_COMPLETED"))).toBe(
      "The resources are running and the applications were created as drafts.",
    );
    const deploying = reviewStepMessage(resources(2, 1, "STAGE_IN_PROGRESS"));
    expect(deploying).toContain("still being deployed (1 of 2 resources running)");
    expect(deploying).not.toContain("are running");
  });

  it("points at a failed resource, and says when there was none to launch", () => {
    expect(reviewStepMessage(resources(3, 2, "STAGE_FAILED"))).toContain(
      "Some resources failed to deploy (2 of 3 resources running)",
    );
    expect(reviewStepMessage(resources(0, 0, "STAGE_UNSPECIFIED"))).toBe(
      "There were no resources to launch, and the applications were created as drafts.",
    );
  });

  it("keeps the page refreshing at the last step while resources deploy", () => {
    const atReview = (stage: Stage) =>
      aCloneState({ infraState: "REVIEW_AND_DEPLOY_APPLICATIONS", resources: resources(1, 0, stage) });
    expect(areCloneResourcesDeploying(atReview("STAGE_IN_PROGRESS"))).toBe(true);
    expect(areCloneResourcesDeploying(atReview("STAGE_COMPLETED"))).toBe(false);
    expect(areCloneResourcesDeploying(atReview("STAGE_FAILED"))).toBe(false);
  });
});
