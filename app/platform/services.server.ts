import * as z from "zod";
import { changePlanPaths, changePlanResponseSchema, type ChangePlanRequest } from "#contract/change-plans";
import { type ServiceType } from "#contract/service-catalogue";
import {
  attributeResponseSchema,
  certificateResponseSchema,
  chartRepositoryListSchema,
  chartRepositoryResponseSchema,
  costEstimateSchema,
  loadBalancerListSchema,
  observabilityProviderResponseSchema,
  observabilitySchema,
  resourceListSchema,
  resourceResponseSchema,
  retryResponseSchema,
  serverlessUploadResponseSchema,
  servicePaths,
  type CreateResourceRequest,
  type ResourceListQuery,
  type ServiceSettings,
  type UpdateResourceRequest,
} from "#contract/services";
import { environmentMapSchema } from "#contract/infrastructure-map";
import type { PlatformClient } from "./client.server";

/**
 * The platform's infrastructure endpoints (contract/services.ts), one function each. Logs, metrics and alarms live in
 * resource-telemetry.server.ts.
 */

/** The answer of a deletion: no content. */
const noContentSchema = z.unknown();
/** DELETE's answer: nothing (204, deleted) or the service while its cloud tears it down (202). */
const deletionSchema = resourceResponseSchema.optional();

/** GET infrastructure: one page of summaries, newest first, with the total that matched. */
export async function listServices(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  filters: ResourceListQuery = {},
) {
  return api.get(servicePaths.list(tenantId, environmentId, filters), resourceListSchema);
}

export async function getService(api: PlatformClient, tenantId: string, environmentId: string, id: string) {
  const { resource } = await api.get(servicePaths.one(tenantId, environmentId, id), resourceResponseSchema);
  return resource;
}

/** POST infrastructure: `launch` false saves a draft, true creates and deploys. 409 when the name is taken. */
export async function createService(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  request: CreateResourceRequest,
) {
  const { resource } = await api.post(
    servicePaths.list(tenantId, environmentId),
    resourceResponseSchema,
    request,
  );
  return resource;
}

/** PUT infrastructure/{id}: applies at once (a config change redeploys, a settings-only change syncs). */
export async function updateService(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  request: UpdateResourceRequest,
) {
  const { resource } = await api.put(
    servicePaths.one(tenantId, environmentId, id),
    resourceResponseSchema,
    request,
  );
  return resource;
}

/** PUT infrastructure/{id}/draft: saves the change for a later launch. */
export async function saveServiceDraft(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  request: UpdateResourceRequest,
) {
  const { resource } = await api.put(
    servicePaths.draft(tenantId, environmentId, id),
    resourceResponseSchema,
    request,
  );
  return resource;
}

/**
 * POST infrastructure/{id}/draft/launch: launches the draft, or with none redeploys the current configuration; a
 * launch that replaces the service and deletes its data needs the service's name as `confirmation`.
 */
export async function launchServiceDraft(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  confirmation?: string,
) {
  const { resource } = await api.post(
    servicePaths.launchDraft(tenantId, environmentId, id),
    resourceResponseSchema,
    confirmation === undefined ? undefined : { confirmation },
  );
  return resource;
}

/** POST infrastructure/{id}/plan: how deploying the proposed change would land, saving nothing. */
export async function planServiceChange(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  request: ChangePlanRequest,
) {
  const { plan } = await api.post(
    changePlanPaths.plan(tenantId, environmentId, id),
    changePlanResponseSchema,
    request,
  );
  return plan;
}

/** POST infrastructure/{id}/retry: 409 unless failed, or once MAX_RETRIES were used. */
export async function retryService(api: PlatformClient, tenantId: string, environmentId: string, id: string) {
  const { success } = await api.post(servicePaths.retry(tenantId, environmentId, id), retryResponseSchema);
  return success;
}

/** POST infrastructure/{id}/cancel: 409 unless queued or in progress. */
export async function cancelService(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
) {
  const { resource } = await api.post(
    servicePaths.cancel(tenantId, environmentId, id),
    resourceResponseSchema,
  );
  return resource;
}

/**
 * DELETE infrastructure/{id}: "deleted" at once, or "deleting" while its cloud tears down what it created (AWS);
 * 409 while a deployment is queued, runs, syncs or is being canceled.
 */
export async function deleteService(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
) {
  const answer = await api.delete(servicePaths.one(tenantId, environmentId, id), deletionSchema);
  return answer ? "deleting" : "deleted";
}

/** GET infrastructure/{id}/attributes/{attribute}: one secret attribute's plaintext. */
export async function revealServiceAttribute(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  attribute: string,
) {
  const { value } = await api.get(
    servicePaths.attribute(tenantId, environmentId, id, attribute),
    attributeResponseSchema,
  );
  return value;
}

export async function estimateServiceCost(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  request: { serviceType: ServiceType; config: Record<string, unknown>; settings?: ServiceSettings },
) {
  return api.post(servicePaths.estimateCost(tenantId, environmentId), costEstimateSchema, request);
}

/** POST infrastructure/serverless/upload: the archive goes in the multipart field `file`. */
export async function uploadServerlessArchive(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  file: Blob,
  fileName: string,
) {
  const form = new FormData();
  form.append("file", file, fileName);
  const { upload } = await api.upload(
    servicePaths.serverlessUpload(tenantId, environmentId),
    serverlessUploadResponseSchema,
    form,
  );
  return upload;
}

export async function listLoadBalancers(api: PlatformClient, tenantId: string, environmentId: string) {
  const { loadBalancers } = await api.get(
    servicePaths.loadBalancers(tenantId, environmentId),
    loadBalancerListSchema,
  );
  return loadBalancers;
}

/** GET infrastructure-map: the environment's services and how they use each other. */
export function getEnvironmentMap(api: PlatformClient, tenantId: string, environmentId: string) {
  return api.get(servicePaths.map(tenantId, environmentId), environmentMapSchema);
}

/** The environment's wildcard certificate for a domain (example.com → *.example.com), or null. */
export async function getWildcardCertificate(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  domain: string,
) {
  const { certificate } = await api.get(
    servicePaths.wildcardCertificate(tenantId, environmentId, domain),
    certificateResponseSchema,
  );
  return certificate;
}

/** The certificate that covers a host name, or null. */
export async function matchCertificate(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  domain: string,
) {
  const { certificate } = await api.get(
    servicePaths.certificateMatch(tenantId, environmentId, domain),
    certificateResponseSchema,
  );
  return certificate;
}

export async function getObservability(api: PlatformClient, tenantId: string, environmentId: string) {
  return api.get(servicePaths.observability(tenantId, environmentId), observabilitySchema);
}

/** POST observability/providers: 409 when the connection is already a provider. */
export async function addObservabilityProvider(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  connectionId: string,
) {
  const { provider } = await api.post(
    servicePaths.observabilityProviders(tenantId, environmentId),
    observabilityProviderResponseSchema,
    { "connection-id": connectionId },
  );
  return provider;
}

export async function removeObservabilityProvider(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  providerId: string,
) {
  await api.delete(servicePaths.observabilityProvider(tenantId, environmentId, providerId), noContentSchema);
}

export async function listChartRepositories(api: PlatformClient, tenantId: string, environmentId: string) {
  const { chartRepositories } = await api.get(
    servicePaths.chartRepositories(tenantId, environmentId),
    chartRepositoryListSchema,
  );
  return chartRepositories;
}

/** POST chart-repositories: 409 when the name is taken. */
export async function createChartRepository(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  request: { name: string; url: string },
) {
  const { chartRepository } = await api.post(
    servicePaths.chartRepositories(tenantId, environmentId),
    chartRepositoryResponseSchema,
    request,
  );
  return chartRepository;
}
