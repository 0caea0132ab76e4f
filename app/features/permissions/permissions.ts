import { useRouteLoaderData } from "@remix-run/react";
import type { EffectivePermissions, Permission } from "#contract/permissions";

/** The id of the route whose loader carries the permissions to components. */
export const PERMISSIONS_ROUTE_ID = "routes/_app";

/**
 * The user's permissions as the shell carries them: null when they are not in use (the RBAC permissions UI or
 * users-v2 flag is off, or the platform could not say), in which case the UI offers everything and the platform
 * alone refuses.
 */
export type ShellPermissions = EffectivePermissions | null;

/** What the `routes/_app` loader must return (among its other fields) for the permission hooks to work. */
export type PermissionsLoaderData = { permissions: ShellPermissions };

/**
 * `canDo` of contract/permissions without its zod schemas, which the browser's first visit should not download:
 * a permission in `environmentId` when the platform listed that environment, else in the organization.
 */
export function allows(
  permissions: ShellPermissions | undefined,
  permission: Permission,
  environmentId?: string | null,
): boolean {
  if (!permissions) return true;
  const inEnvironment = environmentId ? permissions.environments[environmentId] : undefined;
  return (inEnvironment ?? permissions.organization).includes(permission);
}

type ShellData = PermissionsLoaderData & { currentEnvironmentId: string | null };

/**
 * Whether the user may do `permission` in the organization, or in `environmentId` when given, as the shell's
 * loader loaded the permissions. Outside the application area, or while permissions are not in use, everything
 * is offered: the platform stays the only judge.
 */
export function useCan(permission: Permission, environmentId?: string | null): boolean {
  const data = useRouteLoaderData<ShellData>(PERMISSIONS_ROUTE_ID);
  return allows(data?.permissions, permission, environmentId);
}

/** useCan in the environment of the address (`/env/{environmentName}/...`), or the organization elsewhere. */
export function useCanInCurrentEnvironment(permission: Permission): boolean {
  const data = useRouteLoaderData<ShellData>(PERMISSIONS_ROUTE_ID);
  return allows(data?.permissions, permission, data?.currentEnvironmentId);
}
