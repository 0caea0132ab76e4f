import { describe, expect, it } from "vitest";
import { environmentStageOf } from "./stages";

describe("environmentStageOf", () => {
  it("follows the services: working, failed, deployed, drafts, or changes waiting", () => {
    expect(environmentStageOf("STAGE_UNSPECIFIED", ["STAGE_COMPLETED", "STAGE_QUEUED"])).toBe(
      "STAGE_IN_PROGRESS",
    );
    expect(environmentStageOf("STAGE_UNSPECIFIED", ["STAGE_FAILED", "STAGE_SYNCING"])).toBe(
      "STAGE_IN_PROGRESS",
    );
    expect(environmentStageOf("STAGE_UNSPECIFIED", ["STAGE_COMPLETED", "STAGE_FAILED"])).toBe("STAGE_FAILED");
    expect(environmentStageOf("STAGE_COMPLETED", ["STAGE_COMPLETED", "STAGE_COMPLETED"])).toBe(
      "STAGE_COMPLETED",
    );
    expect(environmentStageOf("STAGE_UNSPECIFIED", ["STAGE_DRAFT"])).toBe("STAGE_DRAFT");
    expect(environmentStageOf("STAGE_UNSPECIFIED", ["STAGE_COMPLETED", "STAGE_CANCELED"])).toBe(
      "STAGE_READY_TO_DEPLOY",
    );
  });

  it("keeps the clone's stage while it runs, after it failed, and without services; a new empty one is a draft", () => {
    expect(environmentStageOf("STAGE_IN_PROGRESS", ["STAGE_COMPLETED"])).toBe("STAGE_IN_PROGRESS");
    expect(environmentStageOf("STAGE_FAILED", ["STAGE_COMPLETED"])).toBe("STAGE_FAILED");
    expect(environmentStageOf("STAGE_UNSPECIFIED", [])).toBe("STAGE_DRAFT");
    expect(environmentStageOf("STAGE_COMPLETED", [])).toBe("STAGE_COMPLETED");
  });
});
