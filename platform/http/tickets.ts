import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { createTicketSchema, ticketResponseSchema } from "#contract/connections";
import { serviceTypeLabels, type ServiceType } from "#contract/service-catalogue";
import { serviceErrorMessages } from "#contract/services";
import type { PlatformConfig } from "../lib/config";
import { ProviderUnreachableError } from "../connections/http";
import { createJiraIssue } from "../connections/providers/jira";
import { ProviderRequestError } from "../connections/providers";
import { credentialsOf, findConnection } from "../connections/records";
import type { Database } from "../db/index";
import { resourceHistory, resources } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";
import { findEnvironment } from "./environments";
import { HttpError } from "./errors";
import { conflict, invalidFields, notFound } from "../lib/errors";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { documentRoutes } from "./documented";

type Dependencies = { db: Database; config: Pick<PlatformConfig, "appUrl">; secrets: SecretCipher };

const formatValue = (value: unknown) => (value === undefined ? "(unset)" : JSON.stringify(value));

/**
 * POST .../environments/:environmentId/infrastructure/:resourceId/tickets (issue 13): a Jira issue for a service
 * whose deployment failed, with the failure, the link to its logs and the configuration diff of that deployment.
 */
export function ticketRoutes({ db, config, secrets }: Dependencies) {
  const routes = new Hono<OrganizationEnv>();

  routes.post(
    "/environments/:environmentId/infrastructure/:resourceId/tickets",
    permit("services.deploy"),
    async (c) => {
      const { organizationId, tenantId, displayName } = currentOrganization(c);
      const environment = await findEnvironment(db, tenantId, c.req.param("environmentId"));
      const resourceId = c.req.param("resourceId");
      const { connectionId } = await readJsonBody(c, createTicketSchema);
      const [service] = /^[0-9a-f-]{36}$/i.test(resourceId)
        ? await db
            .select()
            .from(resources)
            .where(and(eq(resources.id, resourceId), eq(resources.environmentId, environment.id)))
        : [];
      if (!service) throw notFound(serviceErrorMessages.notFound);
      const connection = await findConnection(db, organizationId, connectionId);
      if (connection?.kind !== "TICKET_MANAGER_TYPE_JIRA") {
        throw invalidFields({ connectionId: ["Choose a Jira connection of this organization."] });
      }
      if (service.stage !== "STAGE_FAILED") {
        throw conflict(
          `Tickets are opened for failed deployments, and ${service.name}'s last one did not fail.`,
        );
      }
      const [deployment] = await db
        .select()
        .from(resourceHistory)
        .where(eq(resourceHistory.resourceId, service.id))
        .orderBy(desc(resourceHistory.at))
        .limit(1);

      const page = `${config.appUrl.replace(/\/+$/, "")}/env/${encodeURIComponent(environment.name)}/services/${service.id}`;
      const logs = new URLSearchParams({ tab: "logs", logType: "SEARCH" });
      if (deployment?.podNames.length) logs.set("podNames", deployment.podNames.join(","));
      const type = serviceTypeLabels[service.serviceType as ServiceType] ?? service.serviceType;
      const diff = deployment?.diff.length
        ? deployment.diff.map(
            (change) => `- ${change.path}: ${formatValue(change.before)} → ${formatValue(change.after)}`,
          )
        : ["- (no configuration change)"];
      const description = [
        `The deployment of ${type.toLowerCase()} ${service.name} in ${displayName} / ${environment.name} failed.`,
        "",
        `Failure: ${service.message ?? "the deployment failed without a message"}`,
        deployment
          ? `Deployment: ${deployment.action} by ${deployment.actor} at ${deployment.at.toISOString()}`
          : "Deployment: unknown",
        "",
        "Configuration changes in this deployment:",
        ...diff,
        "",
        `Logs: ${page}?${logs}`,
        `Service: ${page}`,
      ].join("\n");

      try {
        const ticket = await createJiraIssue(credentialsOf(secrets, connection), {
          summary: `Deployment of ${service.name} failed in ${environment.name}`,
          description,
          labels: ["cloud-console", environment.name, service.serviceType],
        });
        return sendJson(c, ticketResponseSchema, { ticket }, 201);
      } catch (error) {
        if (error instanceof ProviderRequestError || error instanceof ProviderUnreachableError) {
          throw new HttpError(502, { message: error.message });
        }
        throw error;
      }
    },
  );

  documentRoutes(routes, {
    "POST /environments/:environmentId/infrastructure/:resourceId/tickets": {
      body: createTicketSchema,
      responses: { 201: ticketResponseSchema },
    },
  });
  return routes;
}
