import {
  applicationMemoryChoicesMb,
  applicationVariableOf,
  defaultApplicationConfig,
  type ApplicationConfig,
  type ApplicationVariable,
} from "#contract/application-config";
import { defaultServiceSettings, type ServiceSettings } from "#contract/services";

/**
 * An application's configuration is the truth about how it runs (issue 15, docs/decisions/033). Its `settings` (the
 * operational view every service type shares, which the engine prices, counts pods and routes by) are derived from
 * it on every write, and a change made through the settings is folded back into it, so the two never disagree.
 * Applications stored before issue 15 hold `{ image }` only: they are read as a public-image application whose
 * other fields come from their settings, and stored in the new shape on their next write.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** How a variable reads in the settings: a value, `${NAME}`, or `${{service.attribute}}`. */
export function settingsValueOf(variable: ApplicationVariable): string {
  if (variable.kind === "value") return variable.value;
  if (variable.kind === "variable") return `\${${variable.variable}}`;
  return `\${{${variable.service}.${variable.attribute}}}`;
}

/** The nearest memory size offered, for settings whose memory is not one of the choices. */
function nearestMemory(memoryMb: number): ApplicationConfig["memoryMb"] {
  return applicationMemoryChoicesMb.reduce((best, choice) =>
    Math.abs(choice - memoryMb) < Math.abs(best - memoryMb) ? choice : best,
  );
}

/** The configuration's fields that the settings also hold, taken from `settings`. */
function fromSettings(config: ApplicationConfig, settings: ServiceSettings): ApplicationConfig {
  const { scaling, hardware, networking, healthCheck, envvars } = settings;
  const otherPorts = config.ports.filter((port) => port.port !== networking.port);
  const primary = config.ports.find((port) => port.port === networking.port);
  return {
    ...config,
    ports: [
      { port: networking.port, protocol: primary?.protocol ?? "HTTP", public: networking.public },
      ...otherPorts,
    ],
    envvars: envvars.map(applicationVariableOf),
    cpu: hardware.cpu,
    memoryMb: nearestMemory(hardware.memoryMb),
    scaling:
      scaling.minInstances === scaling.maxInstances
        ? { mode: "fixed", replicas: Math.max(1, scaling.minInstances) }
        : {
            mode: "autoscaling",
            minReplicas: Math.max(1, scaling.minInstances),
            maxReplicas: scaling.maxInstances,
            targetCpuPercent: scaling.targetCpuPercent,
          },
    healthCheck: { ...config.healthCheck, ...healthCheck },
    domain: {
      host: networking.customDomain,
      certificateId: networking.customDomain === config.domain.host ? config.domain.certificateId : "",
    },
  };
}

/**
 * A stored application configuration in the current shape. `{ image }` (before issue 15) becomes a public-image
 * source with the rest read from the settings; anything already current is returned as it is.
 */
export function applicationConfigOf(
  config: Record<string, unknown>,
  settings: ServiceSettings,
): Record<string, unknown> {
  if (isRecord(config.source) || typeof config.image !== "string") return config;
  return fromSettings(
    { ...defaultApplicationConfig, source: { kind: "image", image: config.image } },
    settings,
  );
}

/** The settings an application runs with: derived from its configuration, volumes and schedule kept. */
export function applicationSettingsOf(config: ApplicationConfig, current: ServiceSettings): ServiceSettings {
  const primary = config.ports.find((port) => port.public) ?? config.ports[0];
  const scaling =
    config.scaling.mode === "fixed"
      ? {
          minInstances: config.scaling.replicas,
          maxInstances: config.scaling.replicas,
          targetCpuPercent: current.scaling.targetCpuPercent,
        }
      : {
          minInstances: config.scaling.minReplicas,
          maxInstances: config.scaling.maxReplicas,
          targetCpuPercent: config.scaling.targetCpuPercent,
        };
  const { unhealthyThreshold: _unhealthy, ...healthCheck } = config.healthCheck;
  return {
    ...current,
    envvars: config.envvars.map((variable) => ({ name: variable.name, value: settingsValueOf(variable) })),
    scaling,
    hardware: { cpu: config.cpu, memoryMb: config.memoryMb },
    networking: {
      port: primary?.port ?? defaultServiceSettings.networking.port,
      public: config.ports.some((port) => port.public),
      customDomain: config.domain.host,
    },
    healthCheck,
  };
}

/** The configuration after a change made through the settings (the settings tabs of the service's page). */
export function applicationConfigWithSettings(
  config: ApplicationConfig,
  settings: ServiceSettings,
): ApplicationConfig {
  return fromSettings(config, settings);
}
