import { applicationConfigFieldsSchema } from "#contract/application-config";
import type { EnvironmentMap } from "#contract/infrastructure-map";
import type { ServiceType } from "#contract/service-catalogue";
import type { ServiceConfig } from "#contract/service-configs";
import type { Stage } from "#contract/stages";
import { certificateOf } from "./certificates";
import { clusterOf } from "../cost/kubernetes";
import type { EnvironmentRow } from "../environments/records";
import { configOf, type ResourceRow } from "./records";

/** Stages in which a cluster runs nothing: a draft never launched, a canceled first deployment. */
const notRunning: readonly Stage[] = ["STAGE_DRAFT", "STAGE_CANCELED"];

/**
 * How the environment fits together (decision 037), from what its services' configurations say: every service is a
 * node; an application runs on one of the environment's Kubernetes clusters (the cost allocation's placement,
 * platform/cost/kubernetes.ts), uses the services whose secret attributes its variables name, and serves its
 * custom domain with a TLS certificate of the environment.
 */
export function environmentMapOf(rows: readonly ResourceRow[], environment: EnvironmentRow): EnvironmentMap {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const clusters = rows
    .filter((row) => row.serviceType === "kubernetes" && !notRunning.includes(row.stage as Stage))
    .map((row) => ({ name: row.name, resourceId: row.id }));
  const certificates = rows
    .filter((row) => row.serviceType === "tls")
    .flatMap((row) => {
      const certificate = certificateOf(row, environment);
      return certificate ? [certificate] : [];
    });

  const nodes: EnvironmentMap["nodes"] = [];
  const links: EnvironmentMap["links"] = [];
  for (const row of rows) {
    const serviceType = row.serviceType as ServiceType;
    let domain: string | null = null;
    if (serviceType === "tls") domain = (row.config as Partial<ServiceConfig<"tls">>).domain ?? null;
    if (serviceType === "application") {
      const parsed = applicationConfigFieldsSchema.safeParse(configOf(row));
      if (parsed.success) {
        const config = parsed.data;
        domain = config.domain.host || null;
        const cluster = clusterOf(row.name, clusters);
        if (cluster) links.push({ from: row.id, to: cluster.resourceId, kind: "runs-on" });
        const used = new Set<string>();
        for (const entry of config.envvars) {
          if (entry.kind !== "attribute") continue;
          const service = byName.get(entry.service);
          if (service && service.id !== row.id && !used.has(service.id)) {
            used.add(service.id);
            links.push({ from: row.id, to: service.id, kind: "uses" });
          }
        }
        const certificate = config.domain.host
          ? certificates.find((candidate) => candidate.id === config.domain.certificateId)
          : undefined;
        if (certificate) links.push({ from: row.id, to: certificate.resourceId, kind: "certificate" });
      }
    }
    nodes.push({ id: row.id, name: row.name, serviceType, stage: row.stage as Stage, domain });
  }
  return { nodes, links };
}
