import type { DriverResource } from "../driver";
import { digits, randomFrom } from "./random";

/** The simulated cloud account (AWS account id, GCP project number) an environment deploys into. */
export function accountIdOf(environmentName: string): string {
  const random = randomFrom("account", environmentName);
  return `${random.int(1, 9)}${random.chars(11, digits)}`;
}

/** A GCP project id in the usual `name-123456` form. */
export function gcpProjectOf(environmentName: string): string {
  return `${environmentName}-${randomFrom("project", environmentName).chars(6, digits)}`.slice(0, 30);
}

/** AWS's short region codes as ElastiCache writes them (us-east-1 → use1, ap-southeast-2 → apse2). */
export function shortRegion(region: string): string {
  const [area = "", direction = "", number = ""] = region.split("-");
  const directionCode = direction
    .replace("northeast", "ne")
    .replace("southeast", "se")
    .replace("northwest", "nw")
    .replace("southwest", "sw")
    .replace("north", "n")
    .replace("south", "s")
    .replace("east", "e")
    .replace("west", "w")
    .replace("central", "c");
  return `${area}${directionCode}${number}`;
}

/** The instances an application runs: at least one, so a scaled-to-zero service still shows where it would run. */
export function instanceCountOf(resource: Pick<DriverResource, "settings">): number {
  return Math.max(1, resource.settings.scaling.minInstances);
}
