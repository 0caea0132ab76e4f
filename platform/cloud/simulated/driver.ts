import type { CloudDriver } from "../driver";
import { alarmsOf } from "./alarms";
import { createSecretAttributesOf, secretAttributeNamesByType } from "./attributes";
import { endpointOf } from "./endpoints";
import { deployLogsOf, runtimeLogsOf } from "./logs";
import { metricsOf } from "./metrics";
import { deployPlanOf } from "./plans";
import { podNamesOf } from "./pods";
import { priceOf } from "./prices";

/**
 * The default cloud: deterministic simulation of AWS-like managed services (and GCP/Azure-flavoured host names).
 * Everything but secrets is derived from the service's id, configuration and the time asked about, so the same
 * question always gets the same answer and nothing needs to be stored beyond what the engine keeps.
 */
export function createSimulatedDriver(): CloudDriver {
  return {
    deployPlan: deployPlanOf,
    podNames: podNamesOf,
    deployLogs: deployLogsOf,
    runtimeLogs: runtimeLogsOf,
    metrics: metricsOf,
    alarms: alarmsOf,
    price: priceOf,
    createSecretAttributes: createSecretAttributesOf,
    secretAttributeNames: (serviceType) => [...secretAttributeNamesByType[serviceType]],
    endpoint: endpointOf,
  };
}
