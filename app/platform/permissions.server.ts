import { effectivePermissionsSchema } from "#contract/permissions";
import { userPaths } from "#contract/users";
import type { PlatformClient } from "./client.server";

/** GET users/v2/permissions: what the signed-in user may do in the organization and in each environment. */
export function getEffectivePermissions(api: PlatformClient, tenantId: string) {
  return api.get(userPaths.permissions(tenantId), effectivePermissionsSchema);
}
