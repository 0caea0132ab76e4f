import { describe, expect, it } from "vitest";
import { environmentPagePaths, sectionOfPath } from "./paths";

describe("environment page paths", () => {
  it("builds the clone form's address with workspaceId and mode (SPEC §2.2)", () => {
    expect(environmentPagePaths.cloneFrom("env 1")).toBe("/environments/create?workspaceId=env+1&mode=clone");
  });

  it("puts the cloud, region and every add-on in the estimate's query", () => {
    expect(
      environmentPagePaths.estimateCost({
        cloudProvider: "GCP",
        region: "europe-west1",
        addons: ["backups", "observability"],
      }),
    ).toBe(
      "/environments/estimate-cost?cloudProvider=GCP&region=europe-west1&addons=backups&addons=observability",
    );
  });

  it("addresses the sections of an environment by its name", () => {
    expect(environmentPagePaths.section("staging")).toBe("/env/staging");
    expect(environmentPagePaths.section("staging", "variables")).toBe("/env/staging/variables");
    expect(environmentPagePaths.variableValue("staging", "v/1")).toBe("/env/staging/variables/v%2F1/value");
  });

  it("tells the tab from the pathname", () => {
    expect(sectionOfPath("/env/staging")).toBe("overview");
    expect(sectionOfPath("/env/staging/config")).toBe("config");
    expect(sectionOfPath("/env/staging/clone")).toBe("clone");
    expect(sectionOfPath("/env/staging/unknown")).toBe("overview");
  });
});
