import { describe, expect, it } from "vitest";
import type { Connection } from "#contract/connections";
import {
  cloudAccountChoices,
  dashboardLinks,
  defaultCloudAccountOf,
  observabilityChoices,
  observabilityLinks,
} from "./connection-links.server";

function connection(overrides: Partial<Connection> & Pick<Connection, "id" | "kind" | "category" | "name">) {
  return {
    method: "keys",
    fields: {},
    secrets: {},
    status: "VERIFIED" as const,
    lastCheck: null,
    usage: [],
    notifications: null,
    createdBy: null,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    ...overrides,
  };
}

const aws = connection({ id: "a1", kind: "AWS", category: "cloud-provider", name: "Production" });
const gcp = connection({
  id: "g1",
  kind: "GCP",
  category: "cloud-provider",
  name: "Analytics",
  status: "UNVERIFIED",
});
const datadog = connection({
  id: "d1",
  kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
  category: "observability",
  name: "Datadog EU",
});
const middleware = connection({
  id: "m1",
  kind: "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
  category: "observability",
  name: "Middleware",
});

describe("connections as the environment pages show them", () => {
  it("offers each cloud account under its provider, with its status", () => {
    expect(cloudAccountChoices([aws, gcp, datadog])).toEqual([
      { value: "a1", label: "Production (verified)", provider: "AWS" },
      { value: "g1", label: "Analytics (unverified)", provider: "GCP" },
    ]);
  });

  it("offers the observability connections not linked yet", () => {
    expect(observabilityChoices([aws, datadog, middleware], new Set(["d1"]))).toEqual([
      { value: "m1", label: "Middleware (Middleware)" },
    ]);
  });

  it("says when each link last forwarded, or why it failed, and where its dashboard is", () => {
    const provider = {
      id: "p1",
      connectionId: "d1",
      connectionName: "Datadog EU",
      connectionKind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG" as const,
      lastForwardedAt: "2026-01-01T11:57:00Z",
      lastForwardError: null,
      dashboardUrl: "https://app.datadoghq.eu/metric/explorer?tpl_var_env=staging",
    };
    const now = new Date("2026-01-01T12:00:00Z");
    expect(observabilityLinks([provider], now)).toEqual([
      {
        id: "p1",
        name: "Datadog EU",
        kind: "Datadog",
        href: "/settings/connections/view/datadog/d1",
        lastForwarded: "Last forwarded 3 minutes ago",
        lastForwardError: null,
      },
    ]);
    expect(
      observabilityLinks(
        [{ ...provider, lastForwardedAt: null, lastForwardError: "Datadog answered 403" }],
        now,
      )[0],
    ).toMatchObject({ lastForwarded: "Not forwarded yet", lastForwardError: "Datadog answered 403" });
    expect(dashboardLinks([provider])).toEqual([
      { label: "Open in Datadog (Datadog EU)", url: provider.dashboardUrl },
    ]);
  });
});

describe("the target offered first (issue 26)", () => {
  const host = (id: string, status: Connection["status"]) =>
    connection({ id, kind: "CONTAINER_HOST", category: "cloud-provider", name: `Host ${id}`, status });

  it("is a verified container host: this machine deploys for real", () => {
    expect(defaultCloudAccountOf([aws, host("h1", "FAILING"), host("h2", "VERIFIED")])).toBe("h2");
  });

  it("is none (the simulated cloud) without a verified container host, whatever else is connected", () => {
    expect(
      defaultCloudAccountOf([aws, gcp, host("h1", "FAILING"), host("h3", "UNVERIFIED")]),
    ).toBeUndefined();
  });
});
