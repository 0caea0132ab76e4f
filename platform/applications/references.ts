import { and, eq } from "drizzle-orm";
import type { ApplicationConfig } from "#contract/application-config";
import { applicationErrorMessages } from "#contract/applications";
import type { ConnectionKind } from "#contract/connections";
import { flagsOfTenant } from "../feature-flags/flags";
import { findConnection } from "../connections/records";
import type { Database } from "../db/index";
import { chartRepositories, environmentVariables, resources } from "../db/schema";
import { certificateOf } from "../services/certificates";
import type { EnvironmentRow } from "../environments/records";
import type { DeployDriver } from "../cloud/driver";
import { secretAttributeNamesByType } from "../cloud/simulated/attributes";
import type { ServiceType } from "#contract/service-catalogue";
import { driverResourceOf } from "../services/records";

/** The connection kinds an image can be pulled with (SPEC §3's container registries). */
export const registryConnectionKinds: readonly ConnectionKind[] = [
  "DOCKER",
  "GITHUB",
  "AWS_ECR",
  "GCP_ARTIFACT_REGISTRY",
];

/**
 * What an application's configuration names outside itself, checked where it lives: its connection in the
 * organization, its chart repository, variables, services and certificate in the environment, and the feature flags
 * its sidecars and Helm chart need. Another organization's or environment's id is never found, so it is refused
 * like an unknown one. A service's attributes are the ones `driverOf` (the environment's driver) gives it: a queue on a
 * container host has RabbitMQ's. Returns the field errors keyed like the request's (`config.source.connectionId`).
 */
export async function applicationReferenceErrors(
  tx: Database,
  {
    organizationId,
    environment,
    config,
    serviceName,
    driverOf,
  }: {
    organizationId: string;
    environment: EnvironmentRow;
    config: ApplicationConfig;
    serviceName?: string;
    driverOf: () => Promise<DeployDriver>;
  },
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => (errors[path] ??= []).push(message);
  const flags = await flagsOfTenant(tx, environment.tenantId);
  const { source } = config;

  if (config.sidecars.length && !flags["multi-container"])
    add("config.sidecars", applicationErrorMessages.sidecarsFlagOff);

  if (source.kind === "registry" || source.kind === "github") {
    const connection = await findConnection(tx, organizationId, source.connectionId);
    const kinds: readonly string[] =
      source.kind === "registry" ? registryConnectionKinds : ["VERSION_CONTROL_TYPE_GITHUB"];
    if (!connection) add("config.source.connectionId", applicationErrorMessages.connectionNotFound);
    else if (!kinds.includes(connection.kind)) {
      add(
        "config.source.connectionId",
        source.kind === "registry"
          ? applicationErrorMessages.registryConnection
          : applicationErrorMessages.githubConnection,
      );
    }
  }
  if (source.kind === "helm") {
    if (!flags["private-chart-apps"]) add("config.source", applicationErrorMessages.helmFlagOff);
    const [repository] = await tx
      .select({ id: chartRepositories.id })
      .from(chartRepositories)
      .where(
        and(
          eq(chartRepositories.id, source.chartRepositoryId),
          eq(chartRepositories.environmentId, environment.id),
        ),
      );
    if (!repository) add("config.source.chartRepositoryId", applicationErrorMessages.chartRepositoryNotFound);
  }

  const needsAttributes = config.envvars.some((entry) => entry.kind === "attribute");
  const driver = needsAttributes ? await driverOf() : null;
  const needsServices = needsAttributes || config.domain.host;
  const services = needsServices
    ? await tx.select().from(resources).where(eq(resources.environmentId, environment.id))
    : [];
  const needsVariables = config.envvars.some((entry) => entry.kind === "variable");
  const variableNames = needsVariables
    ? new Set(
        (
          await tx
            .select({ name: environmentVariables.name })
            .from(environmentVariables)
            .where(eq(environmentVariables.environmentId, environment.id))
        ).map((row) => row.name),
      )
    : new Set<string>();
  config.envvars.forEach((entry, index) => {
    if (entry.kind === "variable" && !variableNames.has(entry.variable)) {
      add(`config.envvars.${index}.variable`, applicationErrorMessages.variableNotFound);
    }
    if (entry.kind === "attribute") {
      const service = services.find((row) => row.name === entry.service && row.name !== serviceName);
      if (!service) add(`config.envvars.${index}.service`, applicationErrorMessages.serviceNotFound);
      else {
        const names =
          driver?.attributeNames?.(driverResourceOf(service, environment)) ??
          secretAttributeNamesByType[service.serviceType as ServiceType];
        if (!names.includes(entry.attribute)) {
          add(
            `config.envvars.${index}.attribute`,
            applicationErrorMessages.attributeNotFound(service.name, entry.attribute, names),
          );
        }
      }
    }
  });

  if (config.domain.host) {
    const certificate = services
      .filter((row) => row.serviceType === "tls")
      .map((row) => certificateOf(row, environment))
      .find((candidate) => candidate?.id === config.domain.certificateId);
    if (!certificate) add("config.domain.certificateId", applicationErrorMessages.certificateNotFound);
    else if (!covers([certificate.domain, ...certificate.subjectAlternativeNames], config.domain.host)) {
      add("config.domain.certificateId", applicationErrorMessages.certificateMismatch);
    }
  }
  return errors;
}

/** Whether a certificate's names cover `host`: by name, or by a wildcard one level up. */
function covers(names: string[], host: string): boolean {
  const parent = host.slice(host.indexOf(".") + 1);
  return names.includes(host) || (parent.includes(".") && names.includes(`*.${parent}`));
}
