import { describe, expect, it } from "vitest";
import type { ResourceSummary } from "#contract/services";
import { ageOf, groupByType, infrastructureFiltersOf, infrastructureRowOf, sizeOf } from "./inventory";

const now = new Date("2026-03-10T12:00:00Z");

const summary = (overrides: Partial<ResourceSummary>): ResourceSummary => ({
  id: "r1",
  environmentId: "w1",
  name: "orders-db",
  serviceType: "database",
  stage: "STAGE_COMPLETED",
  version: 1,
  retries: 0,
  message: null,
  monthlyCost: 12.5,
  region: "eu-west-1",
  size: "db.t4g.micro",
  replicas: 1,
  failedSince: null,
  endpoint: "orders-db.example",
  driftedAt: null,
  hasDraft: false,
  createdAt: "2026-03-07T09:00:00Z",
  updatedAt: "2026-03-07T09:00:00Z",
  ...overrides,
});

describe("the infrastructure list", () => {
  it("tells a resource's age in its largest whole unit", () => {
    expect(ageOf("2026-03-10T11:59:30Z", now)).toBe("just now");
    expect(ageOf("2026-03-10T11:59:00Z", now)).toBe("1 minute");
    expect(ageOf("2026-03-10T09:30:00Z", now)).toBe("2 hours");
    expect(ageOf("2026-03-09T12:00:00Z", now)).toBe("1 day");
    expect(ageOf("2025-03-10T12:00:00Z", now)).toBe("365 days");
    expect(ageOf("not a date", now)).toBe("—");
  });

  it("shows how many of a size run when more than one", () => {
    expect(sizeOf({ size: "cache.t4g.small", replicas: 3 })).toBe("cache.t4g.small × 3");
    expect(sizeOf({ size: "standard", replicas: 1 })).toBe("standard");
  });

  it("sends a row only what it shows", () => {
    expect(infrastructureRowOf(summary({ replicas: 2 }), now)).toEqual({
      id: "r1",
      name: "orders-db",
      serviceType: "database",
      stage: "STAGE_COMPLETED",
      region: "eu-west-1",
      monthlyCost: 12.5,
      message: null,
      failedSince: null,
      size: "db.t4g.micro × 2",
      age: "3 days",
    });
  });

  it("groups rows by type in the create menu's order, each by name", () => {
    const groups = groupByType([
      { name: "zeta", serviceType: "cache" as const },
      { name: "main", serviceType: "network" as const },
      { name: "alpha", serviceType: "cache" as const },
      { name: "orders", serviceType: "database" as const },
    ]);
    expect(groups.map((group) => [group.serviceType, group.rows.map((row) => row.name)])).toEqual([
      ["database", ["orders"]],
      ["cache", ["alpha", "zeta"]],
      ["network", ["main"]],
    ]);
  });

  it("drops an application type filter: applications have their own pages", () => {
    expect(infrastructureFiltersOf({ serviceType: "application", page: 2 })).toEqual({
      serviceType: undefined,
      page: 2,
    });
    expect(infrastructureFiltersOf({ serviceType: "cache", page: 1 })).toEqual({
      serviceType: "cache",
      page: 1,
    });
  });
});
