import * as z from "zod";
import {
  apiTokenListSchema,
  apiTokenPaths,
  createdApiTokenSchema,
  serviceAccountListSchema,
  serviceAccountSchema,
  type CreatePersonalToken,
  type CreateServiceAccount,
  type RegenerateApiToken,
} from "#contract/api-tokens";
import type { PlatformClient } from "./client.server";

/** The answer of a revocation or deletion: no content. */
const noContentSchema = z.unknown();

/** The signed-in member's own API tokens in the organization. */
export async function listMyApiTokens(api: PlatformClient, tenantId: string) {
  const { tokens } = await api.get(apiTokenPaths.personal(tenantId), apiTokenListSchema);
  return tokens;
}

/** Creates a personal token; the answer carries its value, shown once. */
export function createMyApiToken(api: PlatformClient, tenantId: string, request: CreatePersonalToken) {
  return api.post(apiTokenPaths.personal(tenantId), createdApiTokenSchema, request);
}

export async function revokeMyApiToken(api: PlatformClient, tenantId: string, tokenId: string) {
  await api.delete(apiTokenPaths.personalToken(tenantId, tokenId), noContentSchema);
}

/** A new secret for one of the member's tokens, the old one revoked; the answer carries the value, shown once. */
export function regenerateMyApiToken(
  api: PlatformClient,
  tenantId: string,
  tokenId: string,
  request: RegenerateApiToken,
) {
  return api.post(apiTokenPaths.personalTokenRegenerate(tenantId, tokenId), createdApiTokenSchema, request);
}

/** The organization's service accounts (users.manage). */
export async function listServiceAccounts(api: PlatformClient, tenantId: string) {
  const { serviceAccounts } = await api.get(
    apiTokenPaths.serviceAccounts(tenantId),
    serviceAccountListSchema,
  );
  return serviceAccounts;
}

export function createServiceAccount(api: PlatformClient, tenantId: string, request: CreateServiceAccount) {
  return api.post(apiTokenPaths.serviceAccounts(tenantId), serviceAccountSchema, request);
}

export async function deleteServiceAccount(api: PlatformClient, tenantId: string, id: string) {
  await api.delete(apiTokenPaths.serviceAccount(tenantId, id), noContentSchema);
}

export function createServiceAccountToken(
  api: PlatformClient,
  tenantId: string,
  id: string,
  request: { name: string; expiresInDays: number },
) {
  return api.post(apiTokenPaths.serviceAccountTokens(tenantId, id), createdApiTokenSchema, request);
}

export async function revokeServiceAccountToken(
  api: PlatformClient,
  tenantId: string,
  id: string,
  tokenId: string,
) {
  await api.delete(apiTokenPaths.serviceAccountToken(tenantId, id, tokenId), noContentSchema);
}

export function regenerateServiceAccountToken(
  api: PlatformClient,
  tenantId: string,
  id: string,
  tokenId: string,
  request: RegenerateApiToken,
) {
  return api.post(
    apiTokenPaths.serviceAccountTokenRegenerate(tenantId, id, tokenId),
    createdApiTokenSchema,
    request,
  );
}
