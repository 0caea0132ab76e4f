import {
  environmentListSchema,
  environmentPaths,
  environmentResponseSchema,
  type CreateEnvironmentRequest,
} from "#contract/environments";
import type { PlatformClient } from "./client.server";

export async function listEnvironments(api: PlatformClient, tenantId: string) {
  const { environments } = await api.get(environmentPaths.list(tenantId), environmentListSchema);
  return environments;
}

export async function createEnvironment(
  api: PlatformClient,
  tenantId: string,
  request: CreateEnvironmentRequest,
) {
  const { environment } = await api.post(environmentPaths.list(tenantId), environmentResponseSchema, request);
  return environment;
}
