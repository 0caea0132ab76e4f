import { redirect } from "@remix-run/node";
import type { EffectivePermissions, Permission } from "#contract/permissions";
import { logDiagnostic } from "~/diagnostics.server";
import { getFeatureFlags } from "~/features/feature-flags/flags.server";
import {
  defaultFeatureFlags,
  isFeatureEnabled,
  type FeatureFlagValues,
} from "~/features/feature-flags/flag-values";
import type { PlatformClient } from "~/platform/client.server";
import { getEffectivePermissions } from "~/platform/permissions.server";
import { allows, type ShellPermissions } from "./permissions";

/** Permissions stay fresh for 5 minutes (SPEC §9 stale times). */
export const PERMISSIONS_TTL_MS = 5 * 60 * 1000;
/** Enough for every (user, organization) pair a busy app server sees within the TTL; the oldest go first. */
export const PERMISSIONS_MAX_ENTRIES = 1000;

export type PermissionScope = { userId: string; tenantId: string };

type Entry = { userId: string; permissions: Promise<EffectivePermissions>; expiresAt: number };

export type PermissionCacheOptions = {
  ttlMs?: number;
  maxEntries?: number;
  /** Milliseconds since the epoch; injectable so tests control time. */
  now?: () => number;
};

/**
 * Effective permissions per (user, organization), cached in this process so a page does not pay a platform call
 * for them. A miss while a request for the same key is under way joins it; a failure is forgotten at once.
 */
export function createPermissionCache(options: PermissionCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? PERMISSIONS_TTL_MS;
  const maxEntries = options.maxEntries ?? PERMISSIONS_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  function get(api: PlatformClient, { userId, tenantId }: PermissionScope): Promise<EffectivePermissions> {
    const key = JSON.stringify([userId, tenantId]);
    const cached = entries.get(key);
    // An entry whose request is still under way has an infinite expiry, so it is always shared.
    if (cached && cached.expiresAt > now()) return cached.permissions;

    const entry: Entry = {
      userId,
      permissions: getEffectivePermissions(api, tenantId),
      expiresAt: Number.POSITIVE_INFINITY,
    };
    entries.delete(key);
    entries.set(key, entry);
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
    entry.permissions.then(
      () => {
        entry.expiresAt = now() + ttlMs;
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry.permissions;
  }

  /** Drops every organization's permissions of one user (organization switch, logout). */
  function forgetUser(userId: string) {
    for (const [key, entry] of entries) if (entry.userId === userId) entries.delete(key);
  }

  return {
    get,
    forgetUser,
    get size() {
      return entries.size;
    },
  };
}

const processCache = createPermissionCache();

/** The user's cached permissions go: the next page asks the platform again. */
export function forgetPermissions(userId: string) {
  processCache.forgetUser(userId);
}

/** SPEC §6: the permissions are in use only while both the RBAC permissions UI and users-v2 flags are on. */
export function permissionsInUse(flags: FeatureFlagValues): boolean {
  return isFeatureEnabled(flags, "rbac-permissions-ui") && isFeatureEnabled(flags, "users-v2");
}

type ShellScope = PermissionScope & { request: Request };

/**
 * The permissions the shell hands to components, asked for (when not cached) together with the flags the shell
 * asks for anyway, so a page waits for no extra call. A platform failure leaves them unknown (null): the UI then
 * offers everything and the platform refuses what it must.
 */
export async function loadShellPermissions(
  api: PlatformClient,
  scope: ShellScope,
  featureFlags: Promise<FeatureFlagValues>,
): Promise<{ featureFlags: FeatureFlagValues; permissions: ShellPermissions }> {
  const { request, userId, tenantId } = scope;
  // ?switchOrg= changes the organization by address (another subdomain): start from fresh permissions there.
  if (new URL(request.url).searchParams.has("switchOrg")) forgetPermissions(userId);
  const [flags, effective] = await Promise.all([
    featureFlags,
    processCache.get(api, { userId, tenantId }).catch((error: unknown) => {
      logDiagnostic({ action: "permissions-unavailable", level: "warn", request, tenantId, userId, error });
      return null;
    }),
  ]);
  return { featureFlags: flags, permissions: permissionsInUse(flags) ? effective : null };
}

type GuardClient = { api: PlatformClient; tenantId: string; user: { sub: string }; headers: Headers };

/**
 * A loader's guard for a page only for those who may do `permission` (in `environmentId` when given): anyone
 * else goes to /401 (SPEC §6). Uses the same cache as the shell, so it adds no platform call to the page.
 */
export async function requirePermission(
  request: Request,
  client: GuardClient,
  permission: Permission,
  { environmentId }: { environmentId?: string } = {},
): Promise<void> {
  const { api, tenantId, user, headers } = client;
  const featureFlags = getFeatureFlags(api, { tenantId, environmentId }).catch(() => defaultFeatureFlags());
  const { permissions } = await loadShellPermissions(
    api,
    { request, userId: user.sub, tenantId },
    featureFlags,
  );
  if (!allows(permissions, permission, environmentId)) throw redirect("/401", { headers });
}
