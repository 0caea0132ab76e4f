import { snapshotPaths, snapshotsResponseSchema } from "#contract/snapshots";
import type { PlatformClient } from "./client.server";

/** GET .../snapshots: the final snapshots kept of the environment's databases and caches, newest first. */
export async function listSnapshots(api: PlatformClient, tenantId: string, environmentId: string) {
  const { snapshots } = await api.get(snapshotPaths.list(tenantId, environmentId), snapshotsResponseSchema);
  return snapshots;
}
