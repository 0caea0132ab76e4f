import * as z from "zod";
import {
  addonListSchema,
  cloneStateSchema,
  costEstimateSchema,
  environmentConfigResponseSchema,
  environmentListSchema,
  environmentPaths,
  environmentResponseSchema,
  environmentSummaryListSchema,
  environmentVariableListSchema,
  referencedServicesSchema,
  type Addon,
  type CreateEnvironmentRequest,
  type EnvironmentConfig,
} from "#contract/environments";
import type { CloudProvider } from "#contract/cloud-providers";
import type { PlatformClient } from "./client.server";

/** The answer of a deletion: no content. */
const noContentSchema = z.unknown();

export async function listEnvironments(api: PlatformClient, tenantId: string) {
  const { environments } = await api.get(environmentPaths.list(tenantId), environmentListSchema);
  return environments;
}

/** The environments without their totals: cheaper for the platform, and all that finding one by name needs. */
export async function listEnvironmentSummaries(api: PlatformClient, tenantId: string) {
  const { environments } = await api.get(
    environmentPaths.list(tenantId, { totals: false }),
    environmentSummaryListSchema,
  );
  return environments;
}

/** One environment with its totals (service count, monthly cost). */
export async function getEnvironment(api: PlatformClient, tenantId: string, environmentId: string) {
  const { environment } = await api.get(
    environmentPaths.one(tenantId, environmentId),
    environmentResponseSchema,
  );
  return environment;
}

export async function createEnvironment(
  api: PlatformClient,
  tenantId: string,
  request: CreateEnvironmentRequest,
) {
  const { environment } = await api.post(environmentPaths.list(tenantId), environmentResponseSchema, request);
  return environment;
}

/** A 204 (deleted at once) has no body; a 202 answers the environment, its deletion in progress. */
const deletionAnswerSchema = z.union([z.undefined(), environmentResponseSchema]);

/**
 * DELETE .../environments/{id}: removes its resources and variables at once (`deleted`), or once its services
 * were torn down in its cloud account (`deleting`: the platform answered 202 and works on it); 409 while
 * anything in it is deploying.
 */
export async function deleteEnvironment(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
): Promise<"deleted" | "deleting"> {
  const answer = await api.delete(environmentPaths.one(tenantId, environmentId), deletionAnswerSchema);
  return answer ? "deleting" : "deleted";
}

export async function estimateEnvironmentCost(
  api: PlatformClient,
  tenantId: string,
  request: { cloudProvider: CloudProvider; region: string; addons: string[] },
) {
  return api.post(environmentPaths.estimateCost(tenantId), costEstimateSchema, request);
}

export async function getEnvironmentConfig(api: PlatformClient, tenantId: string, environmentId: string) {
  const { config } = await api.get(
    environmentPaths.config(tenantId, environmentId),
    environmentConfigResponseSchema,
  );
  return config;
}

export async function updateEnvironmentConfig(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  config: EnvironmentConfig,
) {
  const { config: saved } = await api.put(
    environmentPaths.config(tenantId, environmentId),
    environmentConfigResponseSchema,
    config,
  );
  return saved;
}

export async function listAddons(api: PlatformClient, tenantId: string, environmentId: string) {
  const { addons } = await api.get(environmentPaths.addons(tenantId, environmentId), addonListSchema);
  return addons;
}

export async function updateAddons(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  addons: Addon[],
) {
  const { addons: saved } = await api.put(environmentPaths.addons(tenantId, environmentId), addonListSchema, {
    addons,
  });
  return saved;
}

/** Every variable of the environment; secret values come masked (SECRET_MASK). */
export async function listVariables(api: PlatformClient, tenantId: string, environmentId: string) {
  const { envVariables } = await api.get(
    environmentPaths.variables(tenantId, environmentId),
    environmentVariableListSchema,
  );
  return envVariables;
}

/** One secret's plaintext; null when the environment has no variable with this id. */
export async function revealVariableValue(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  variableId: string,
): Promise<string | null> {
  const { envVariables } = await api.get(
    environmentPaths.variables(tenantId, environmentId, { reveal: variableId }),
    environmentVariableListSchema,
  );
  return envVariables.find((variable) => variable.id === variableId)?.value ?? null;
}

export type NewVariable = { name: string; value: string; secret: boolean };
export type VariableChange = { id: string; name?: string; value?: string; secret?: boolean };

export async function createVariables(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  envVariables: NewVariable[],
) {
  const created = await api.post(
    environmentPaths.variables(tenantId, environmentId),
    environmentVariableListSchema,
    { envVariables },
  );
  return created.envVariables;
}

export async function updateVariables(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  envVariables: VariableChange[],
) {
  const updated = await api.put(
    environmentPaths.variables(tenantId, environmentId),
    environmentVariableListSchema,
    { envVariables },
  );
  return updated.envVariables;
}

/** A .env import: new names added, existing ones revalued, all in one platform transaction. */
export async function importVariables(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  envVariables: NewVariable[],
) {
  const written = await api.put(
    environmentPaths.variablesImport(tenantId, environmentId),
    environmentVariableListSchema,
    { envVariables },
  );
  return written.envVariables;
}

export async function deleteVariables(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  envVariableIds: string[],
) {
  await api.delete(environmentPaths.variables(tenantId, environmentId), noContentSchema, {
    envVariableIds,
  });
}

export async function listReferencedServices(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  variableName: string,
) {
  const { services } = await api.get(
    environmentPaths.referencedServices(tenantId, environmentId, variableName),
    referencedServicesSchema,
  );
  return services;
}

/** POST /tenant/{t}/workspace/{sourceId}/clone: starts cloning the source into a new environment, returned. */
export async function cloneEnvironment(
  api: PlatformClient,
  tenantId: string,
  sourceEnvironmentId: string,
  request: { name: string; cloudProvider?: CloudProvider; region?: string },
) {
  const { environment } = await api.post(
    environmentPaths.clone(tenantId, sourceEnvironmentId),
    environmentResponseSchema,
    request,
  );
  return environment;
}

export async function getCloneState(api: PlatformClient, tenantId: string, environmentId: string) {
  return api.get(environmentPaths.cloneState(tenantId, environmentId), cloneStateSchema);
}

/** The user's go-ahead at WAITING_FOR_LAUNCH_RESOURCES_EVENT; answers the clone's new state. */
export async function launchClonedResources(api: PlatformClient, tenantId: string, environmentId: string) {
  return api.post(environmentPaths.cloneLaunchResources(tenantId, environmentId), cloneStateSchema);
}

/**
 * Leaves the cloning flow (after the review-and-deploy hand-off, or after a failure); answers the environment
 * with the stage it ends in.
 */
export async function exitCloning(api: PlatformClient, tenantId: string, environmentId: string) {
  const { environment } = await api.put(
    environmentPaths.cloneExit(tenantId, environmentId),
    environmentResponseSchema,
  );
  return environment;
}
