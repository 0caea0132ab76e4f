import { describe, expect, it } from "vitest";
import { fastbootStackIds } from "#contract/fastboot";
import { defaultServiceSettings } from "#contract/services";
import { createContainerDriver } from "../cloud/container/driver";
import { stackServicesOn } from "./fastboots";

/*
 * Every starter stack fastboot offers on a container host (issue 26) must deploy there: each attribute an application
 * references is one the container driver gives that service (names only: nothing connects to an engine here).
 */
const driver = createContainerDriver({ dockerHost: "unix:///nowhere/docker.sock" });

describe("fastboot's stacks on a container host", () => {
  it.each(fastbootStackIds)("%s references only attributes its services have there", (stackId) => {
    const services = stackServicesOn(stackId, "CONTAINERS");
    const references = services.flatMap((service) =>
      service.serviceType === "application"
        ? service.config.envvars.flatMap((variable) => (variable.kind === "attribute" ? [variable] : []))
        : [],
    );
    for (const reference of references) {
      const target = services.find((service) => service.name === reference.service);
      expect(target, `${stackId}: ${reference.name} references ${reference.service}`).toBeDefined();
      if (!target) continue;
      const names = driver.attributeNames?.({
        id: "00000000-0000-4000-8000-000000000000",
        name: target.name,
        serviceType: target.serviceType,
        config: target.config as Record<string, unknown>,
        settings: defaultServiceSettings,
        environmentName: "production",
        cloudProvider: "CONTAINERS",
        region: "local",
      });
      expect(names, `${stackId}: ${reference.name} = ${reference.service}.${reference.attribute}`).toContain(
        reference.attribute,
      );
    }
  });
});
