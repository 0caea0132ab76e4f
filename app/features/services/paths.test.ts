import { describe, expect, it } from "vitest";
import { servicePagePaths } from "./paths";

describe("servicePagePaths", () => {
  it("builds the list address with only the filters set", () => {
    expect(servicePagePaths.list("prod")).toBe("/env/prod/services");
    expect(servicePagePaths.list("prod", { serviceType: "cache", text: " redis ", page: 1 })).toBe(
      "/env/prod/services?serviceType=cache&text=redis",
    );
    expect(servicePagePaths.list("prod", { stage: "STAGE_FAILED", page: 2 })).toBe(
      "/env/prod/services?stage=STAGE_FAILED&page=2",
    );
  });

  it("builds the infrastructure list and overview addresses", () => {
    expect(servicePagePaths.infrastructure("prod")).toBe("/env/prod/infrastructure");
    expect(servicePagePaths.infrastructure("my env", { stage: "STAGE_FAILED", text: "db", page: 3 })).toBe(
      "/env/my%20env/infrastructure?stage=STAGE_FAILED&text=db&page=3",
    );
    expect(servicePagePaths.infrastructureOverview("prod")).toBe("/env/prod/infrastructure/overview");
  });

  it("builds addresses below an environment's services and applications from a path without it", () => {
    expect(servicePagePaths.underServices("prod", "r1")).toBe("/env/prod/services/r1");
    expect(servicePagePaths.underServices("my env", "database/create")).toBe(
      "/env/my%20env/services/database/create",
    );
    expect(servicePagePaths.underServices("prod", "a b/logs/")).toBe("/env/prod/services/a%20b/logs");
    expect(servicePagePaths.underApplications("prod", "list")).toBe("/env/prod/applications/list");
  });

  it("builds create, details and applications addresses", () => {
    expect(servicePagePaths.create("my env", "nosql-database")).toBe(
      "/env/my%20env/services/nosql-database/create",
    );
    expect(servicePagePaths.details("prod", "r1")).toBe("/env/prod/services/r1");
    expect(
      servicePagePaths.details("prod", "r1", {
        tab: "logs",
        logType: "SEARCH",
        podNames: ["a", "b"],
        timestamps: ["2025-01-01T00:00:00Z"],
      }),
    ).toBe(
      "/env/prod/services/r1?tab=logs&logType=SEARCH&podNames=a%2Cb&timestamps=2025-01-01T00%3A00%3A00Z",
    );
    expect(servicePagePaths.details("prod", "r1", { tab: "settings", subTab: "scaling" })).toBe(
      "/env/prod/services/r1?tab=settings&subTab=scaling",
    );
    expect(servicePagePaths.applications("prod")).toBe("/env/prod/applications");
    expect(servicePagePaths.applications("prod", "list")).toBe("/env/prod/applications/list");
  });
});
