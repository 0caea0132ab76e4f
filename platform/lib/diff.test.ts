import { describe, expect, it } from "vitest";
import { defaultServiceSettings } from "#contract/services";
import { diffOf, serviceDiff } from "./diff";
import { applyModeOf, stageAfterDraftSaved } from "../services/stages";

describe("diffOf", () => {
  it("lists changed, added and removed leaves with dotted paths", () => {
    expect(
      diffOf(
        { a: 1, nested: { b: true, c: "x" }, gone: 1 },
        { a: 2, nested: { b: true, c: "y" }, added: [1] },
      ),
    ).toEqual([
      { path: "a", before: 1, after: 2 },
      { path: "added", after: [1] },
      { path: "gone", before: 1 },
      { path: "nested.c", before: "x", after: "y" },
    ]);
  });

  it("compares arrays as whole values and finds nothing in equal values", () => {
    expect(diffOf({ list: [1, 2] }, { list: [2, 1] })).toEqual([
      { path: "list", before: [1, 2], after: [2, 1] },
    ]);
    expect(diffOf({ list: [1, 2] }, { list: [1, 2] })).toEqual([]);
  });

  it("finds nothing in a list of objects whose keys come in another order", () => {
    expect(
      diffOf(
        { ports: [{ port: 80, public: true, protocol: "HTTP" }] },
        { ports: [{ protocol: "HTTP", port: 80, public: true }] },
      ),
    ).toEqual([]);
  });

  it("lists an application's changes once, under its configuration", () => {
    expect(
      serviceDiff(
        { config: { cpu: "0.5" }, settings: { hardware: { cpu: "0.5" } } },
        { config: { cpu: "1" }, settings: { hardware: { cpu: "1" } } },
        { serviceType: "application" },
      ),
    ).toEqual([{ path: "config.cpu", before: "0.5", after: "1" }]);
  });

  it("prefixes a service's configuration and settings", () => {
    const settings = {
      ...defaultServiceSettings,
      scaling: { ...defaultServiceSettings.scaling, maxInstances: 9 },
    };
    expect(
      serviceDiff(
        { config: { storageGb: 20 }, settings: defaultServiceSettings },
        { config: { storageGb: 40 }, settings },
      ),
    ).toEqual([
      { path: "config.storageGb", before: 20, after: 40 },
      { path: "settings.scaling.maxInstances", before: 3, after: 9 },
    ]);
  });
});

it("finds no change in a list whose objects only list their keys in another order", () => {
  // A stored application's ports, read back from JSON, and the same ports as the form sends them.
  const stored = { ports: [{ port: 8080, public: true, protocol: "HTTP" }] };
  const submitted = { ports: [{ port: 8080, protocol: "HTTP", public: true }] };
  expect(diffOf(stored, submitted)).toEqual([]);
  expect(diffOf(stored, { ports: [{ port: 8080, protocol: "HTTP", public: false }] })).toHaveLength(1);
});

describe("stage rules", () => {
  it("saves drafts, syncs settings of deployed services and redeploys the rest", () => {
    expect(applyModeOf({ stage: "STAGE_DRAFT", deployed: false, configChanged: true })).toBe("save");
    expect(applyModeOf({ stage: "STAGE_COMPLETED", deployed: true, configChanged: false })).toBe("sync");
    expect(applyModeOf({ stage: "STAGE_COMPLETED", deployed: true, configChanged: true })).toBe("deploy");
    expect(applyModeOf({ stage: "STAGE_FAILED", deployed: true, configChanged: false })).toBe("deploy");
    expect(stageAfterDraftSaved("STAGE_DRAFT")).toBe("STAGE_DRAFT");
    expect(stageAfterDraftSaved("STAGE_COMPLETED")).toBe("STAGE_READY_TO_DEPLOY");
  });
});
