import * as z from "zod";
import { roleListSchema, roleResponseSchema, userPaths, type CustomRoleRequest } from "#contract/users";
import type { PlatformClient } from "./client.server";

/** The answer of a deletion: no content. */
const noContentSchema = z.unknown();

/** One role, built-in or custom, by id (a built-in role's id is its name); null when the organization has none. */
export async function findRole(api: PlatformClient, tenantId: string, roleId: string) {
  const { roles } = await api.get(userPaths.roles(tenantId), roleListSchema);
  return roles.find((role) => role.id === roleId) ?? null;
}

/** Creates a custom role; 400 on a built-in role's name, 409 on a taken one. */
export async function createCustomRole(api: PlatformClient, tenantId: string, request: CustomRoleRequest) {
  const { role } = await api.post(userPaths.roles(tenantId), roleResponseSchema, request);
  return role;
}

export async function updateCustomRole(
  api: PlatformClient,
  tenantId: string,
  roleId: string,
  request: CustomRoleRequest,
) {
  const { role } = await api.put(userPaths.customRole(tenantId, roleId), roleResponseSchema, request);
  return role;
}

/** Deletes a custom role; 409 while a member still holds it. */
export async function deleteCustomRole(api: PlatformClient, tenantId: string, roleId: string) {
  await api.delete(userPaths.customRole(tenantId, roleId), noContentSchema);
}
