import { serviceDiff } from "../../services/diff";
import type { DriverResource } from "../driver";
import { configOf } from "../simulated/resource";
import type { ChangePlan } from "./provisioner";

/**
 * Sorts what changed between two versions of a service by what AWS does about it: a changed path under one of
 * `replace` needs a new resource, one under `inPlace` is updated where it stands, and paths the type does not map
 * to AWS (most settings) are left out. Paths are the history diff's (`config.tableName`, `settings.networking.public`).
 */
export function changePlanOf(
  before: DriverResource,
  after: DriverResource,
  { replace, inPlace }: { replace: readonly string[]; inPlace: readonly string[] },
): ChangePlan {
  const within = (path: string, prefixes: readonly string[]) =>
    prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}.`));
  const changed = serviceDiff(
    { config: configOf(before, before.serviceType), settings: before.settings },
    { config: configOf(after, after.serviceType), settings: after.settings },
  ).map((change) => change.path);
  return {
    inPlace: changed.filter((path) => within(path, inPlace) && !within(path, replace)),
    replace: changed.filter((path) => within(path, replace)),
  };
}
