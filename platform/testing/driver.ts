import type { CloudDriver, DriverResource } from "../cloud/driver";

/**
 * A small deterministic driver for the engine's and the API's tests, so they do not depend on the simulated
 * driver's catalogue: three phases, two pods per deployment, one log line per phase, a flat price per type.
 */
export function fakeDriver(): CloudDriver {
  const secretNames = (serviceType: DriverResource["serviceType"]) =>
    serviceType === "network" || serviceType === "tls" ? [] : ["password", "connectionString"];
  return {
    deployPlan: () => [
      { name: "Planning", seconds: 2 },
      { name: "Provisioning", seconds: 5 },
      { name: "Health check", seconds: 3 },
    ],
    podNames: (resource, deployNumber) => [
      `${resource.name}-${deployNumber}-a`,
      `${resource.name}-${deployNumber}-b`,
    ],
    deployLogs: (resource, podNames, phase, startedAt) =>
      podNames.map((podName, index) => ({
        at: new Date(startedAt.getTime() + index),
        podName,
        level: "info" as const,
        message: `${phase.name}: ${resource.name} (${resource.serviceType})`,
      })),
    runtimeLogs: () => [],
    metrics: (_resource, range, step) => ({ range, step, series: [] }),
    alarms: () => [],
    price: (resource) => {
      const monthlyCost = resource.serviceType === "network" ? 32.85 : 12.5;
      return {
        currency: "USD" as const,
        monthlyCost,
        breakdown: [{ item: `${resource.serviceType} (${resource.region})`, monthlyCost }],
      };
    },
    createSecretAttributes: (resource, endpoint) =>
      Object.fromEntries(
        secretNames(resource.serviceType).map((name) => [
          name,
          name === "password" ? `pw-${resource.id.slice(0, 8)}` : `postgres://${endpoint ?? "local"}/app`,
        ]),
      ),
    secretAttributeNames: secretNames,
    endpoint: (resource) =>
      resource.serviceType === "network" ? null : `${resource.name}.${resource.environmentName}.internal`,
  };
}
