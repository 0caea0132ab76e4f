import type { CloudDriver, DeployDriver } from "../driver";

/**
 * The simulated cloud behind the deployment seam: each step of a deployment starts the next of the cloud driver's
 * phases (writing its log lines) and waits as long as the phase lasts (scaled by ENGINE_TIME_SCALE); the step after
 * the last phase is done, with the driver's endpoint and, the first time, its secret attributes. A change of
 * settings alone has no phases. Nothing is created anywhere, so there is nothing to tear down and no time-out.
 */
export function phasedDeployDriver(cloud: CloudDriver, timeScale: number): DeployDriver {
  return {
    async apply(context) {
      const { resource } = context;
      const phases = context.change === "settings" ? [] : cloud.deployPlan(resource);
      const phase = phases[context.step];
      if (phase) {
        return {
          done: false,
          state: { ...context.state },
          waitMs: Math.round(phase.seconds * 1000 * timeScale),
          progress: phase.name,
          lines: cloud.deployLogs(resource, context.podNames, phase, context.now),
        };
      }
      const endpoint = cloud.endpoint(resource);
      return {
        done: true,
        state: { ...context.state },
        endpoint,
        secrets: context.secretsSealed ? {} : cloud.createSecretAttributes(resource, endpoint),
        outputs: {},
        lines: [],
      };
    },
    secretAttributeNames: (resource) => cloud.secretAttributeNames(resource.serviceType),
    timeoutMinutes: () => null,
  };
}
