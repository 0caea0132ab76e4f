import { describe, expect, it } from "vitest";
import { defaultFeatureFlags } from "~/features/feature-flags/flag-values";
import { agoLabel, offeredCategories, offeredKinds, secretHint, usageLabel } from "./catalogue";

describe("the kinds a page offers", () => {
  it("leaves out the kinds whose flag is off, and the categories left with none", () => {
    const flags = { ...defaultFeatureFlags(), "notification-connections": false };
    expect(offeredKinds("cloud-provider", flags).map((kind) => kind.kind)).toEqual(["AWS", "GCP"]);
    expect(offeredCategories(flags)).toEqual([
      "cloud-provider",
      "container-registry",
      "observability",
      "ticket-manager",
    ]);
    // Slack and Teams are on by default (decision 055).
    expect(offeredCategories(defaultFeatureFlags())).toContain("communication-platform");
  });

  it("offers Azure, GitHub and Slack or Teams once their flags are on", () => {
    const flags = {
      ...defaultFeatureFlags(),
      "azure-connection": true,
      "version-control-connection": true,
      "notification-connections": true,
    };
    expect(offeredKinds("cloud-provider", flags).map((kind) => kind.kind)).toEqual(["AWS", "GCP", "AZURE"]);
    expect(offeredKinds("communication-platform", flags).map((kind) => kind.kind)).toEqual([
      "COMMUNICATION_PLATFORM_TYPE_SLACK",
      "COMMUNICATION_PLATFORM_TYPE_TEAMS",
    ]);
    expect(offeredCategories(flags)).toHaveLength(6);
  });
});

describe("the words for a connection", () => {
  it("hints a secret only with the last four characters the API gave", () => {
    expect(secretHint({ lastFour: "abcd" })).toBe("Set, ends with ····abcd");
    expect(secretHint({ lastFour: null })).toBe("Set");
  });

  it("names what uses it and when it was checked", () => {
    expect(usageLabel({ type: "observability", id: "p1", name: "Datadog", environmentName: "staging" })).toBe(
      "Observability of staging",
    );
    expect(usageLabel({ type: "environment", id: "w1", name: "production", environmentName: null })).toBe(
      "Environment production",
    );
    expect(
      usageLabel({
        type: "notifications",
        id: "c1",
        name: "Notifications of every environment",
        environmentName: null,
      }),
    ).toBe("Notifications of every environment");
    const now = new Date("2026-01-02T00:00:00Z");
    expect(agoLabel("2026-01-01T23:59:30Z", now)).toBe("Just now");
    expect(agoLabel("2026-01-01T23:55:00Z", now)).toBe("5 minutes ago");
    expect(agoLabel("2025-12-30T00:00:00Z", now)).toBe("3 days ago");
  });
});
