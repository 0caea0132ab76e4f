import {
  ADDRESS_CHANGE_SUMMARY,
  addressPaths,
  confirmationRequiredMessage,
  replacementLosses,
  replacementSummary,
  type ChangePlan,
} from "#contract/change-plans";
import type { DeployDriver, DriverResource } from "../cloud/driver";
import { serviceDiff } from "../lib/diff";
import { invalidFields } from "../lib/errors";

/**
 * The plan of changing a service from `before` to `after`, as its cloud computes it (`DeployDriver.plan`), with what
 * it loses: a replacement's data and address, or a deployed application's address when its domain changes (true on
 * any cloud). A service never deployed has nothing to lose, and a cloud without `plan` (the simulated one) cannot
 * say how a change lands: their changes are `other`, never claimed to land in place.
 */
export function changePlanOf(
  cloud: Pick<DeployDriver, "plan">,
  before: DriverResource,
  after: DriverResource,
  { deployed }: { deployed: boolean },
): ChangePlan {
  const changes = serviceDiff(before, after);
  const paths = changes.map((change) => change.path);
  const classified = deployed && cloud.plan ? cloud.plan(before, after) : { inPlace: [], replace: [] };
  const other = paths.filter(
    (path) => !classified.inPlace.includes(path) && !classified.replace.includes(path),
  );
  const { data, address } = replacementLosses[after.serviceType];
  const replaces = classified.replace.length > 0;
  const movesAddress =
    deployed && paths.some((path) => addressPaths[after.serviceType]?.includes(path) === true);
  const loses = replaces
    ? [data, address].filter((loss) => loss !== undefined).map((loss) => `its ${loss}`)
    : movesAddress
      ? ["its address"]
      : [];
  return {
    inPlace: classified.inPlace,
    replace: classified.replace,
    other,
    changes,
    loses,
    summary: replaces
      ? replacementSummary(after.serviceType)
      : movesAddress
        ? ADDRESS_CHANGE_SUMMARY
        : classified.inPlace.length
          ? "Updates the service in place"
          : paths.length
            ? deployed && cloud.plan
              ? "Changes only what the platform applies itself"
              : deployed
                ? "This cloud does not say whether the change lands in place"
                : "Saves the configuration: the service has not been deployed yet"
            : "No changes",
    confirmationRequired: loses.length > 0,
  };
}

/** A deployment of `plan` that loses something goes ahead only with the service's name typed as `confirmation`. */
export function assertConfirmed(plan: ChangePlan, service: DriverResource, confirmation: string | undefined) {
  if (!plan.confirmationRequired || confirmation === service.name) return;
  throw invalidFields({ confirmation: [confirmationRequiredMessage(plan, service.name)] });
}
