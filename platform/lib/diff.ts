import type { ConfigDiff } from "#contract/services";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A value as JSON with every object's keys sorted: objects that differ only in their keys' order are the same. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    isPlainObject(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * What changed between two values, as `[{ path, before, after }]` with dotted paths (`config.storageGb`,
 * `settings.scaling.maxInstances`). Objects are compared key by key; arrays and scalars as whole values, so a
 * reordered list shows as one change. A key only on one side has no `before` (added) or no `after` (removed).
 */
export function diffOf(before: unknown, after: unknown, path = ""): ConfigDiff {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const childPath = path ? `${path}.${key}` : key;
      if (!(key in after)) return [{ path: childPath, before: before[key] }];
      if (!(key in before)) return [{ path: childPath, after: after[key] }];
      return diffOf(before[key], after[key], childPath);
    });
  }
  if (same(before, after)) return [];
  return [{ path, before, after }];
}

/**
 * The change of a service's configuration and settings, paths under `config.` and `settings.`. An application's
 * settings are derived from its configuration (applicationSettingsOf): pass `serviceType` where the change is shown
 * (a history entry) to list each of its changes once, under `config.`.
 */
export function serviceDiff(
  before: { config: Record<string, unknown>; settings: unknown },
  after: { config: Record<string, unknown>; settings: unknown },
  { serviceType }: { serviceType?: string } = {},
): ConfigDiff {
  const configDiff = diffOf(before.config, after.config, "config");
  if (serviceType === "application") return configDiff;
  return [...configDiff, ...diffOf(before.settings, after.settings, "settings")];
}
