import * as z from "zod";
import { effectivePermissionsSchema, type RoleGrant } from "#contract/permissions";
import {
  memberListSchema,
  memberResponseSchema,
  organizationSettingsSchema,
  roleListSchema,
  subscriptionSchema,
  userPaths,
} from "#contract/users";
import type { PlatformClient } from "./client.server";

/** The answer of a removal: no content. */
const noContentSchema = z.unknown();

/** The members sorted by name, with their grants and last activity. */
export async function listMembers(api: PlatformClient, tenantId: string) {
  const { users } = await api.get(userPaths.membersV2(tenantId), memberListSchema);
  return users;
}

export async function getMember(api: PlatformClient, tenantId: string, userId: string) {
  const { userDetail } = await api.get(userPaths.member(tenantId, userId), memberResponseSchema);
  return userDetail;
}

/** The organization's member with this address (compared without case), or undefined. */
export async function findMemberByEmail(api: PlatformClient, tenantId: string, email: string) {
  const address = email.toLowerCase();
  return (await listMembers(api, tenantId)).find((member) => member.email.toLowerCase() === address);
}

/** Replaces the member's grants; 409 when it would leave the organization without an admin. */
export async function updateMemberRoles(
  api: PlatformClient,
  tenantId: string,
  userId: string,
  roles: RoleGrant[],
) {
  const { userDetail } = await api.post(userPaths.updateRoles(tenantId), memberResponseSchema, {
    userId,
    roles,
  });
  return userDetail;
}

/** Removes the member (the caller's own id: leaves the organization); 409 for the last admin. */
export async function removeMember(api: PlatformClient, tenantId: string, userId: string) {
  await api.delete(userPaths.membersV2(tenantId, { userId }), noContentSchema);
}

/** The built-in roles and the organization's custom roles. */
export async function listRoles(api: PlatformClient, tenantId: string) {
  const { roles } = await api.get(userPaths.roles(tenantId), roleListSchema);
  return roles;
}

export async function getSubscription(api: PlatformClient, tenantId: string) {
  const { subscription } = await api.get(userPaths.subscription(tenantId), subscriptionSchema);
  return subscription;
}

export async function getOrganizationSettings(api: PlatformClient, tenantId: string) {
  const { organization } = await api.get(userPaths.settings(tenantId), organizationSettingsSchema);
  return organization;
}

export async function renameOrganization(api: PlatformClient, tenantId: string, displayName: string) {
  const { organization } = await api.patch(userPaths.settings(tenantId), organizationSettingsSchema, {
    displayName,
  });
  return organization;
}

/** The caller's effective permissions (whether to offer changes; the platform still decides). */
export async function getMyPermissions(api: PlatformClient, tenantId: string) {
  return api.get(userPaths.permissions(tenantId), effectivePermissionsSchema);
}
