import { describe, expect, it } from "vitest";
import { awsRegions } from "#contract/aws-regions";
import { availableCloudProviders, defaultRegion, regionLabel, regionOptions } from "./cloud-regions";

describe("cloud providers and regions", () => {
  it("offers Azure only while its flag is on", () => {
    expect(availableCloudProviders({ azureEnabled: false })).toEqual(["AWS", "GCP", "CONTAINERS"]);
    expect(availableCloudProviders({ azureEnabled: true })).toEqual(["AWS", "GCP", "AZURE", "CONTAINERS"]);
  });

  it("shows every region of the provider's catalogue with its label and code", () => {
    const options = regionOptions("AWS");
    expect(options).toHaveLength(awsRegions.length);
    expect(options[0]).toEqual({ value: "us-east-1", label: "US East (N. Virginia) · us-east-1" });
    expect(regionOptions("GCP").map((option) => option.value)).toContain("europe-west1");
  });

  it("labels a known code and falls back to the code itself", () => {
    expect(regionLabel("GCP", "europe-west1")).toBe("Belgium");
    expect(regionLabel("AWS", "mars-north-1")).toBe("mars-north-1");
  });

  it("starts each provider at the first region of its catalogue", () => {
    expect(defaultRegion("AWS")).toBe("us-east-1");
    expect(defaultRegion("GCP")).toBe("us-central1");
    expect(defaultRegion("AZURE")).toBe("eastus");
  });
});
