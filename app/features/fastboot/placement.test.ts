import { describe, expect, it } from "vitest";
import { placementOf, progressSummary } from "./placement";

const accounts = [
  { value: "aws-1", provider: "AWS" as const },
  { value: "gcp-1", provider: "GCP" as const },
];

describe("where a fastboot runs", () => {
  it("is the simulated AWS cloud in its first region without an account", () => {
    expect(placementOf(accounts, {})).toEqual({
      cloudProvider: "AWS",
      region: "us-east-1",
      cloudConnectionId: "",
    });
  });

  it("keeps a region of the account's provider", () => {
    expect(placementOf(accounts, { cloudConnectionId: "gcp-1", region: "europe-west1" })).toEqual({
      cloudProvider: "GCP",
      region: "europe-west1",
      cloudConnectionId: "gcp-1",
    });
  });

  it("falls back to the provider's first region for another provider's, and ignores an unknown account", () => {
    expect(placementOf(accounts, { cloudConnectionId: "gcp-1", region: "eu-west-1" }).region).toBe(
      "us-central1",
    );
    expect(placementOf(accounts, { cloudConnectionId: "other", region: "eu-west-1" })).toEqual({
      cloudProvider: "AWS",
      region: "eu-west-1",
      cloudConnectionId: "",
    });
  });
});

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
