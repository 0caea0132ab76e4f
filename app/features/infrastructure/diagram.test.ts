import { describe, expect, it } from "vitest";
import type { EnvironmentMap } from "#contract/infrastructure-map";
import { environmentDiagramOf } from "./diagram";

const node = (id: string, serviceType: EnvironmentMap["nodes"][number]["serviceType"]) => ({
  id,
  name: id,
  serviceType,
  stage: "STAGE_COMPLETED" as const,
  domain: null,
});

describe("the environment diagram", () => {
  it("nests applications in their cluster and shows who uses what", () => {
    const diagram = environmentDiagramOf({
      nodes: [
        node("web", "application"),
        node("main-network", "network"),
        node("cluster-b", "kubernetes"),
        node("worker", "application"),
        node("cron", "application"),
        node("orders-db", "database"),
        node("sessions", "cache"),
        node("shop-cert", "tls"),
        node("control", "control-plane"),
      ],
      links: [
        { from: "web", to: "cluster-b", kind: "runs-on" },
        { from: "worker", to: "cluster-b", kind: "runs-on" },
        { from: "web", to: "orders-db", kind: "uses" },
        { from: "worker", to: "orders-db", kind: "uses" },
        { from: "web", to: "sessions", kind: "uses" },
        { from: "web", to: "shop-cert", kind: "certificate" },
      ],
    });
    expect(diagram.networks.map((network) => network.name)).toEqual(["main-network"]);
    expect(diagram.clusters).toHaveLength(1);
    expect(
      diagram.clusters[0]?.applications.map((application) => [application.name, application.uses]),
    ).toEqual([
      ["web", ["orders-db", "sessions", "shop-cert"]],
      ["worker", ["orders-db"]],
    ]);
    expect(diagram.unplacedApplications.map((application) => application.name)).toEqual(["cron"]);
    expect(diagram.data.map((service) => [service.name, service.usedBy])).toEqual([
      ["orders-db", ["web", "worker"]],
      ["sessions", ["web"]],
    ]);
    expect(diagram.other.map((service) => [service.name, service.usedBy])).toEqual([
      ["control", []],
      ["shop-cert", ["web"]],
    ]);
  });
});
