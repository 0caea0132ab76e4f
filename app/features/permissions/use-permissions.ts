import { useRouteLoaderData } from "@remix-run/react";
import type { Permission } from "#contract/permissions";
import { allows, PERMISSIONS_ROUTE_ID, type PermissionsLoaderData } from "./permission-checks";

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
