import type { ServiceType } from "#contract/service-catalogue";
import { defaultServiceConfigs, type ServiceConfig } from "#contract/service-configs";
import type { DriverResource } from "./driver";

/**
 * The type's configuration over its defaults. The deployments hand the drivers checked configurations; the defaults
 * only keep an older row (saved before a field existed) from breaking a driver.
 */
export function configOf<T extends ServiceType>(
  resource: Pick<DriverResource, "config">,
  serviceType: T,
): ServiceConfig<T> {
  return { ...defaultServiceConfigs[serviceType], ...resource.config } as ServiceConfig<T>;
}
