import type { CloudProvider } from "#contract/cloud-providers";
import {
  fastbootPaths,
  fastbootResponseSchema,
  fastbootStackListSchema,
  type FastbootRequest,
} from "#contract/fastboot";
import type { PlatformClient } from "./client.server";

/** GET fastboot/stacks: the starter stacks with what each creates and its monthly estimate in the region. */
export async function listFastbootStacks(
  api: PlatformClient,
  tenantId: string,
  placement: { cloudProvider: CloudProvider; region: string },
) {
  return api.get(fastbootPaths.stacks(tenantId, placement), fastbootStackListSchema);
}

/** POST fastboot: the environment, its services as drafts and their launch in order. */
export async function createFastboot(api: PlatformClient, tenantId: string, request: FastbootRequest) {
  const { fastboot } = await api.post(fastbootPaths.create(tenantId), fastbootResponseSchema, request);
  return fastboot;
}

/** GET fastboot/{id}: every service's stage, failures, and the application's URL at the end. */
export async function getFastboot(api: PlatformClient, tenantId: string, id: string) {
  const { fastboot } = await api.get(fastbootPaths.one(tenantId, id), fastbootResponseSchema);
  return fastboot;
}
