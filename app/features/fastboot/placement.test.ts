import { describe, expect, it } from "vitest";
import { placementOf } from "./placement";

const accounts = [
  { value: "aws-1", provider: "AWS" as const },
  { value: "gcp-1", provider: "GCP" as const },
  { value: "host-1", provider: "CONTAINERS" as const },
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

  it("runs on a container host in its one region, the host itself (issue 26)", () => {
    expect(placementOf(accounts, { cloudConnectionId: "host-1", region: "us-east-1" })).toEqual({
      cloudProvider: "CONTAINERS",
      region: "local",
      cloudConnectionId: "host-1",
    });
  });

  it("runs on the account offered first when none was asked for, and on the simulated cloud when none was chosen", () => {
    const thisMachine = { cloudProvider: "CONTAINERS", region: "local", cloudConnectionId: "host-1" };
    expect(placementOf(accounts, {}, "host-1")).toEqual(thisMachine);
    expect(placementOf(accounts, { cloudConnectionId: null, region: null }, "host-1")).toEqual(thisMachine);
    expect(placementOf(accounts, { cloudConnectionId: "", region: "us-east-1" }, "host-1")).toEqual({
      cloudProvider: "AWS",
      region: "us-east-1",
      cloudConnectionId: "",
    });
  });
});
