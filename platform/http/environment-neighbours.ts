import { and, asc, eq, ne } from "drizzle-orm";
import { Hono } from "hono";
import * as z from "zod";
import type { CloudProvider } from "#contract/cloud-providers";
import {
  addObservabilityProviderRequestSchema,
  certificateQuerySchema,
  certificateResponseSchema,
  loadBalancerListSchema,
  observabilityConnectionKindSchema,
  observabilityProviderResponseSchema,
  observabilitySchema,
  serviceErrorMessages,
  serviceSettingsSchema,
  type ObservabilityProvider,
} from "#contract/services";
import { applicationConfigFieldsSchema } from "#contract/application-config";
import { findConnection } from "../connections/records";
import type { Database } from "../db/index";
import { connections, observabilityProviders, resources } from "../db/schema";
import { loadBalancerDnsName, loadBalancerIdOf, loadBalancerNameOf } from "../cloud/simulated/endpoints";
import type { EnvironmentRow } from "../environments/records";
import { certificateOf, type Certificate } from "../services/certificates";
import { configOf } from "../services/records";
import { isObservabilityKind, metricIntakes } from "../observability/intakes";
import { conflictOn, invalidFields, notFound } from "../lib/errors";
import { findEnvironment } from "./environments";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { permit } from "./permissions";
import { documentRoutes } from "./documented";

type ServiceRow = typeof resources.$inferSelect;

const providerIdSchema = z.guid();

/**
 * An application's listener rules on a load balancer: on the internet-facing one each public port, HTTP ones on
 * 443 by its domain (with its certificate) or by path on the balancer's own name; on the internal one its other
 * ports, by path on port 80. TCP and UDP ports listen on their own number.
 */
function applicationRoutesOf(
  row: Pick<ServiceRow, "id" | "name" | "serviceType" | "config" | "settings">,
  scheme: "internet-facing" | "internal",
) {
  const parsed = applicationConfigFieldsSchema.safeParse(configOf(row));
  if (!parsed.success) return [];
  const { ports, domain } = parsed.data;
  return ports
    .filter((port) => port.public === (scheme === "internet-facing"))
    .map((port) => {
      const layer7 = port.protocol !== "TCP" && port.protocol !== "UDP";
      const host = scheme === "internet-facing" && layer7 && domain.host ? domain.host : null;
      return {
        resourceId: row.id,
        host,
        path: !layer7 ? "" : host ? "/" : `/${row.name}`,
        listenerPort: !layer7 ? port.port : scheme === "internet-facing" ? 443 : 80,
        protocol: port.protocol,
        targetPort: port.port,
        certificateId: host ? domain.certificateId : null,
      };
    });
}
const statusRank: Record<Certificate["status"], number> = { ISSUED: 0, PENDING_VALIDATION: 1, FAILED: 2 };

/** The best of the candidates: issued before pending before failed, then the more exact match, then the newest. */
function bestOf(
  candidates: { certificate: Certificate; exact: boolean; createdAt: Date }[],
): Certificate | null {
  const [best] = candidates.sort(
    (a, b) =>
      statusRank[a.certificate.status] - statusRank[b.certificate.status] ||
      Number(b.exact) - Number(a.exact) ||
      b.createdAt.getTime() - a.createdAt.getTime(),
  );
  return best?.certificate ?? null;
}

/**
 * Environment-level neighbours of services: load balancers, certificates and observability providers, under
 * /v2/organizations/:tenantId/environments/:environmentId (chart repositories: ./chart-repositories.ts).
 */
export function environmentNeighbourRoutes({ db }: { db: Database }) {
  const routes = new Hono<OrganizationEnv>();

  async function environmentOf(
    c: { req: { param: (name: string) => string | undefined } },
    tenantId: string,
  ) {
    return findEnvironment(db, tenantId, c.req.param("environmentId") ?? "");
  }

  /**
   * One internet-facing load balancer for the services made public (settings.networking.public), one internal one
   * for the other applications; drafts never deployed have none. Names and DNS names follow the provider's formats.
   */
  routes.get("/applications/loadbalancers", permit("organization.view"), async (c) => {
    const environment = await environmentOf(c, currentOrganization(c).tenantId);
    const rows = await db
      .select({
        id: resources.id,
        name: resources.name,
        serviceType: resources.serviceType,
        config: resources.config,
        settings: resources.settings,
      })
      .from(resources)
      .where(and(eq(resources.environmentId, environment.id), ne(resources.stage, "STAGE_DRAFT")))
      .orderBy(asc(resources.createdAt), asc(resources.id));
    const isPublic = (settings: unknown) =>
      serviceSettingsSchema.shape.networking.safeParse((settings as { networking?: unknown }).networking).data
        ?.public === true;
    const groups = {
      "internet-facing": rows.filter((row) => isPublic(row.settings)),
      internal: rows.filter((row) => row.serviceType === "application" && !isPublic(row.settings)),
    } as const;
    const placement = {
      cloudProvider: environment.cloudProvider as CloudProvider,
      region: environment.region,
      environmentName: environment.name,
    };
    const loadBalancers = (["internet-facing", "internal"] as const)
      .filter((scheme) => groups[scheme].length > 0)
      .map((scheme) => {
        const id = loadBalancerIdOf({ ...placement, scheme });
        return {
          id,
          name: loadBalancerNameOf(environment.name, scheme),
          dnsName: loadBalancerDnsName({ environmentName: environment.name, scheme }),
          scheme,
          resourceIds: groups[scheme].map((row) => row.id),
          routes: groups[scheme].flatMap((row) =>
            row.serviceType === "application" ? applicationRoutesOf(row, scheme) : [],
          ),
        };
      });
    return sendJson(c, loadBalancerListSchema, { loadBalancers });
  });

  async function certificatesOf(environment: EnvironmentRow) {
    const rows = await db
      .select()
      .from(resources)
      .where(and(eq(resources.environmentId, environment.id), eq(resources.serviceType, "tls")));
    return rows.flatMap((row) => {
      const certificate = certificateOf(row, environment);
      return certificate ? [{ certificate, createdAt: row.createdAt }] : [];
    });
  }

  /** GET wildcardcertificate?domain=example.com: the certificate for `*.example.com` (as its domain or a SAN). */
  routes.get("/wildcardcertificate", permit("organization.view"), async (c) => {
    const environment = await environmentOf(c, currentOrganization(c).tenantId);
    const { domain } = readQuery(c, certificateQuerySchema);
    const wildcard = `*.${domain}`;
    const candidates = (await certificatesOf(environment))
      .filter(
        ({ certificate }) =>
          certificate.domain === wildcard || certificate.subjectAlternativeNames.includes(wildcard),
      )
      .map((candidate) => ({ ...candidate, exact: candidate.certificate.domain === wildcard }));
    return sendJson(c, certificateResponseSchema, { certificate: bestOf(candidates) });
  });

  /** GET certificates/match?domain=api.example.com: a certificate naming it, or `*.example.com`. */
  routes.get("/certificates/match", permit("organization.view"), async (c) => {
    const environment = await environmentOf(c, currentOrganization(c).tenantId);
    const { domain } = readQuery(c, certificateQuerySchema);
    const parent = domain.slice(domain.indexOf(".") + 1);
    const wildcard = parent.includes(".") ? `*.${parent}` : null;
    const candidates = (await certificatesOf(environment)).flatMap((candidate) => {
      const names = [candidate.certificate.domain, ...candidate.certificate.subjectAlternativeNames];
      if (names.includes(domain)) return [{ ...candidate, exact: true }];
      if (wildcard && names.includes(wildcard)) return [{ ...candidate, exact: false }];
      return [];
    });
    return sendJson(c, certificateResponseSchema, { certificate: bestOf(candidates) });
  });

  /** The environment's observability links with their connections, or the one named `providerId`. */
  async function providersOf(
    environment: EnvironmentRow,
    providerId?: string,
  ): Promise<ObservabilityProvider[]> {
    const rows = await db
      .select({
        link: observabilityProviders,
        connection: { name: connections.name, kind: connections.kind, fields: connections.fields },
      })
      .from(observabilityProviders)
      .innerJoin(connections, eq(connections.id, observabilityProviders.connectionId))
      .where(
        and(
          eq(observabilityProviders.environmentId, environment.id),
          providerId ? eq(observabilityProviders.id, providerId) : undefined,
        ),
      )
      .orderBy(asc(observabilityProviders.createdAt), asc(observabilityProviders.id));
    return rows.map(({ link, connection }) => {
      const kind = observabilityConnectionKindSchema.parse(connection.kind);
      return {
        id: link.id,
        connectionId: link.connectionId,
        createdAt: link.createdAt.toISOString(),
        connectionName: connection.name,
        connectionKind: kind,
        lastForwardedAt: link.lastForwardedAt?.toISOString() ?? null,
        lastForwardError: link.lastForwardError,
        dashboardUrl: metricIntakes[kind].dashboardUrl(connection.fields, environment.name),
      };
    });
  }

  routes.get("/observability", permit("organization.view"), async (c) => {
    const environment = await environmentOf(c, currentOrganization(c).tenantId);
    return sendJson(c, observabilitySchema, {
      providers: await providersOf(environment),
      builtIn: environment.enabledAddons.includes("observability"),
    });
  });

  /** Links a Datadog or Middleware connection of the organization; the forwarder posts its first minute at once. */
  routes.post("/observability/providers", permit("environments.configure"), async (c) => {
    const { organizationId, tenantId } = currentOrganization(c);
    const environment = await environmentOf(c, tenantId);
    const body = await readJsonBody(c, addObservabilityProviderRequestSchema);
    const connection = await findConnection(db, organizationId, body["connection-id"]);
    if (!connection || !isObservabilityKind(connection.kind)) {
      throw invalidFields({ "connection-id": [serviceErrorMessages.providerConnectionNotFound] });
    }
    const [created] = await db.transaction((tx) =>
      tx
        .insert(observabilityProviders)
        .values({ environmentId: environment.id, connectionId: connection.id })
        .onConflictDoNothing({
          target: [observabilityProviders.environmentId, observabilityProviders.connectionId],
        })
        .returning(),
    );
    if (!created) throw conflictOn("connection-id", serviceErrorMessages.providerAdded);
    const [provider] = await providersOf(environment, created.id);
    if (!provider) throw new Error("the observability provider was not stored");
    return sendJson(c, observabilityProviderResponseSchema, { provider }, 201);
  });

  routes.delete("/observability/providers/:providerId", permit("environments.configure"), async (c) => {
    const environment = await environmentOf(c, currentOrganization(c).tenantId);
    const providerId = c.req.param("providerId");
    if (!providerIdSchema.safeParse(providerId).success)
      throw notFound(serviceErrorMessages.providerNotFound);
    const [deleted] = await db.transaction((tx) =>
      tx
        .delete(observabilityProviders)
        .where(
          and(
            eq(observabilityProviders.id, providerId),
            eq(observabilityProviders.environmentId, environment.id),
          ),
        )
        .returning({ id: observabilityProviders.id }),
    );
    if (!deleted) throw notFound(serviceErrorMessages.providerNotFound);
    return c.body(null, 204);
  });

  documentRoutes(routes, {
    "GET /applications/loadbalancers": { responses: { 200: loadBalancerListSchema } },
    "GET /wildcardcertificate": {
      query: certificateQuerySchema,
      responses: { 200: certificateResponseSchema },
    },
    "GET /certificates/match": {
      query: certificateQuerySchema,
      responses: { 200: certificateResponseSchema },
    },
    "GET /observability": { responses: { 200: observabilitySchema } },
    "POST /observability/providers": {
      body: addObservabilityProviderRequestSchema,
      responses: { 201: observabilityProviderResponseSchema },
    },
    "DELETE /observability/providers/:providerId": { responses: { 204: null } },
  });
  return routes;
}
