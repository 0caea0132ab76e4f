import { featureFlagsSchema } from "#contract/feature-flag-schemas";
import { featureFlagPaths } from "#contract/feature-flags";
import type { PlatformClient } from "~/platform/client.server";
import type { FeatureFlagValues } from "./flag-values";

/** Feature flags stay fresh for 5 minutes (SPEC §9 stale times). */
export const FEATURE_FLAGS_TTL_MS = 5 * 60 * 1000;
/** Enough for every (organization, environment) pair a busy app server sees within the TTL; the oldest go first. */
export const FEATURE_FLAGS_MAX_ENTRIES = 1000;

export type FeatureFlagScope = { tenantId: string; environmentId?: string };

type Entry = { flags: Promise<FeatureFlagValues>; expiresAt: number };

export type FeatureFlagCacheOptions = {
  ttlMs?: number;
  maxEntries?: number;
  /** Milliseconds since the epoch; injectable so tests control time. */
  now?: () => number;
};

/**
 * Flags per (organization, environment), cached in this process. A miss while a request for the same key is under
 * way joins that request; a failed request is forgotten at once so the next call tries again.
 */
export function createFeatureFlagCache(options: FeatureFlagCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? FEATURE_FLAGS_TTL_MS;
  const maxEntries = options.maxEntries ?? FEATURE_FLAGS_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  function evictBeyondCapacity() {
    for (const key of entries.keys()) {
      if (entries.size <= maxEntries) return;
      entries.delete(key);
    }
  }

  function get(api: PlatformClient, scope: FeatureFlagScope): Promise<FeatureFlagValues> {
    const key = cacheKey(scope);
    const cached = entries.get(key);
    // An entry whose request is still under way has an infinite expiry, so it is always shared.
    if (cached && cached.expiresAt > now()) return cached.flags;

    const entry: Entry = { flags: fetchFlags(api, scope), expiresAt: Number.POSITIVE_INFINITY };
    entries.delete(key);
    entries.set(key, entry);
    evictBeyondCapacity();
    entry.flags.then(
      () => {
        entry.expiresAt = now() + ttlMs;
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry.flags;
  }

  return {
    get,
    /** Forgets every cached value, e.g. after flags were changed on purpose. */
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}

async function fetchFlags(api: PlatformClient, scope: FeatureFlagScope): Promise<FeatureFlagValues> {
  const path = featureFlagPaths.list({ organizationId: scope.tenantId, environmentId: scope.environmentId });
  const { featureFlags } = await api.get(path, featureFlagsSchema);
  return featureFlags;
}

function cacheKey({ tenantId, environmentId }: FeatureFlagScope): string {
  return JSON.stringify([tenantId, environmentId ?? null]);
}

const processCache = createFeatureFlagCache();

/**
 * The flags of an organization (and environment), from GET /v2/feature-flags, cached 5 minutes per
 * (organization, environment). Errors are thrown as the client's PlatformError and are not cached.
 */
export function getFeatureFlags(api: PlatformClient, scope: FeatureFlagScope): Promise<FeatureFlagValues> {
  return processCache.get(api, scope);
}
