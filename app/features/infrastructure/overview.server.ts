import type { EnvironmentMap } from "#contract/infrastructure-map";
import { serviceTypeLabels } from "#contract/service-catalogue";
import { stages, type Stage } from "#contract/stages";
import { costPagePaths } from "~/features/cost/cost-search";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { getCostOverview } from "~/platform/cost.server";
import {
  getEnvironmentMap,
  getWildcardCertificate,
  listLoadBalancers,
  listServices,
  matchCertificate,
} from "~/platform/services.server";
import { environmentDiagramOf } from "./diagram";
import { INFRASTRUCTURE_PAGE_SIZE, ageOf } from "./inventory";

const DAY_MS = 86_400_000;

/** What the infrastructure overview shows, shaped for the page. */
export type InfrastructureOverview = Awaited<ReturnType<typeof loadInfrastructureOverview>>;

/**
 * The infrastructure overview of one environment (SPEC §2.2 Infrastructure): its services counted per stage, what
 * fails and since when, this month's spend (only for members with billing.view: the platform answers 403 to the
 * others, and the page says nothing of cost), the load balancers with their routes, the certificates with their
 * expiry, and the diagram of how it fits together.
 */
export async function loadInfrastructureOverview(
  api: PlatformClient,
  tenantId: string,
  environment: { id: string; name: string },
  now: Date,
) {
  const [map, failed, loadBalancers, spend] = await Promise.all([
    getEnvironmentMap(api, tenantId, environment.id),
    listServices(api, tenantId, environment.id, {
      stage: "STAGE_FAILED",
      pageSize: INFRASTRUCTURE_PAGE_SIZE,
    }),
    listLoadBalancers(api, tenantId, environment.id),
    spendOf(api, tenantId, environment.id),
  ]);
  const names = new Map(map.nodes.map((node) => [node.id, node.name]));
  const certificates = await certificatesOf(api, tenantId, environment.id, map, now);
  const certificateDomains = new Map(certificates.map((certificate) => [certificate.id, certificate.domain]));

  return {
    total: map.nodes.length,
    stageCounts: stageCountsOf(map),
    failing: failed.infrastructure
      .map((service) => ({
        id: service.id,
        name: service.name,
        type: serviceTypeLabels[service.serviceType],
        message: service.message,
        failedSince: service.failedSince,
        failingFor: service.failedSince ? ageOf(service.failedSince, now) : null,
        retries: service.retries,
      }))
      .sort((a, b) => (a.failedSince ?? "").localeCompare(b.failedSince ?? "")),
    spend,
    loadBalancers: loadBalancers.map((balancer) => ({
      id: balancer.id,
      name: balancer.name,
      dnsName: balancer.dnsName,
      scheme: balancer.scheme,
      routes: balancer.routes.map((route) => ({
        application: names.get(route.resourceId) ?? route.resourceId,
        applicationId: route.resourceId,
        listener: `${route.protocol} ${route.listenerPort}`,
        match: `${route.host ?? balancer.dnsName}${route.path}`,
        targetPort: route.targetPort,
        certificate: route.certificateId
          ? (certificateDomains.get(route.certificateId) ?? "a certificate of another environment")
          : null,
      })),
    })),
    certificates,
    diagram: environmentDiagramOf(map),
  };
}

/** Every stage a service of the environment is in, with how many are, in the stages' order. */
function stageCountsOf(map: EnvironmentMap): { stage: Stage; count: number }[] {
  return stages
    .map((stage) => ({ stage, count: map.nodes.filter((node) => node.stage === stage).length }))
    .filter((entry) => entry.count > 0);
}

type Spend =
  | { kind: "shown"; monthToDate: number; forecast: number; accruedUntil: string; costPage: string }
  | { kind: "hidden" };

/** This month's spend of the environment, or hidden when the member may not see costs (403). */
async function spendOf(api: PlatformClient, tenantId: string, environmentId: string): Promise<Spend> {
  try {
    const overview = await getCostOverview(api, tenantId, { window: "mtd", environmentId });
    return {
      kind: "shown",
      monthToDate: overview.monthToDate,
      forecast: overview.forecast,
      accruedUntil: overview.accruedUntil,
      costPage: `${costPagePaths.overview}?${new URLSearchParams({ window: "mtd", environmentId })}`,
    };
  } catch (error) {
    if (isPlatformError(error) && error.status === 403) return { kind: "hidden" };
    throw error;
  }
}

/**
 * The environment's certificates as GET certificates/match answers for each TLS service's domain (a wildcard
 * domain through GET wildcardcertificate), once each, with the days left until they expire.
 */
async function certificatesOf(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  map: EnvironmentMap,
  now: Date,
) {
  const domains = [
    ...new Set(map.nodes.flatMap((node) => (node.serviceType === "tls" && node.domain ? [node.domain] : []))),
  ];
  const answers = await Promise.all(
    domains.map((domain) =>
      domain.startsWith("*.")
        ? getWildcardCertificate(api, tenantId, environmentId, domain.slice(2))
        : matchCertificate(api, tenantId, environmentId, domain),
    ),
  );
  const names = new Map(map.nodes.map((node) => [node.id, node.name]));
  const seen = new Set<string>();
  return answers
    .flatMap((certificate) => {
      if (!certificate || seen.has(certificate.id)) return [];
      seen.add(certificate.id);
      const expiresInDays = certificate.expiresAt
        ? Math.floor((new Date(certificate.expiresAt).getTime() - now.getTime()) / DAY_MS)
        : null;
      return [
        {
          id: certificate.id,
          resourceId: certificate.resourceId,
          name: names.get(certificate.resourceId) ?? certificate.domain,
          domain: certificate.domain,
          subjectAlternativeNames: certificate.subjectAlternativeNames,
          status: certificate.status,
          expiresAt: certificate.expiresAt,
          expiresInDays,
        },
      ];
    })
    .sort((a, b) => a.domain.localeCompare(b.domain));
}
