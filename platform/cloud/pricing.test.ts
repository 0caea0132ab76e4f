import { describe, expect, it } from "vitest";
import { cloudProviders, regionsByProvider } from "#contract/cloud-providers";
import { addonNames } from "#contract/environments";
import { estimateEnvironmentCost, marketOf } from "./pricing";

describe("the price catalogue", () => {
  it.each(cloudProviders)("places every %s region of the catalogue in a market", (provider) => {
    for (const region of regionsByProvider[provider]) {
      expect(marketOf(provider, region.code), `${provider} ${region.code}`).not.toBeNull();
    }
  });

  it("prices the baseline by market and the add-ons flat, in cents", () => {
    expect(
      estimateEnvironmentCost({ cloudProvider: "AWS", region: "us-east-1", addons: [] }).monthlyCost,
    ).toBe(105.85);
    expect(
      estimateEnvironmentCost({ cloudProvider: "GCP", region: "southamerica-east1", addons: [] }),
    ).toEqual({
      currency: "USD",
      monthlyCost: 141.91,
      breakdown: [
        { item: "Kubernetes control plane (GKE)", monthlyCost: 98.55 },
        { item: "Cloud NAT gateway", monthlyCost: 43.36 },
      ],
    });
    const everything = estimateEnvironmentCost({
      cloudProvider: "AZURE",
      region: "eastus",
      addons: [...addonNames],
    });
    expect(everything.monthlyCost).toBe(105.85 + 25 + 10 + 15 + 20 + 5);
  });

  it("is deterministic: the order and repetition of add-ons do not matter", () => {
    const one = estimateEnvironmentCost({
      cloudProvider: "AWS",
      region: "ap-south-1",
      addons: ["backups", "observability"],
    });
    const two = estimateEnvironmentCost({
      cloudProvider: "AWS",
      region: "ap-south-1",
      addons: ["observability", "backups", "backups"],
    });
    expect(two).toEqual(one);
    expect(one.breakdown.map((line) => line.item)).toEqual([
      "Kubernetes control plane (EKS)",
      "NAT gateway",
      "Add-on: observability",
      "Add-on: backups",
    ]);
  });
});
