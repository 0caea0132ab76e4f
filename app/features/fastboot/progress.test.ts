import { describe, expect, it } from "vitest";
import { progressSummary } from "./progress";

describe("the progress summary", () => {
  const resources = [{ stage: "STAGE_COMPLETED" as const }, { stage: "STAGE_IN_PROGRESS" as const }];
  it("counts what is deployed while deploying, and says what to do after a failure", () => {
    expect(progressSummary({ status: "deploying", resources: resources as never })).toBe(
      "Deploying: 1 of 2 services deployed. This page follows along.",
    );
    expect(progressSummary({ status: "failed", resources: [] })).toBe(
      "Stopped: a service did not deploy. Read its logs, then retry it.",
    );
    expect(progressSummary({ status: "completed", resources: [] })).toBe("Everything is deployed.");
  });
});
