import type { CloudProvider } from "#contract/cloud-providers";
import type { CostEstimate } from "#contract/environments";
import type { Alarm, Metrics, MetricRange, ServiceSettings, ServiceType } from "#contract/services";

/**
 * The seam between the engine and a cloud: everything the platform needs from the place services really run. The
 * simulated driver (platform/engine/simulated/) is the default: it answers from deterministic data so the product
 * behaves like a real deployment on one machine. A driver for a real cloud implements the same interface.
 */

/** What a driver knows about a service: its identity, checked configuration and where it runs. */
export type DriverResource = {
  id: string;
  name: string;
  serviceType: ServiceType;
  config: Record<string, unknown>;
  settings: ServiceSettings;
  environmentName: string;
  cloudProvider: CloudProvider;
  region: string;
};

/** One phase of a deployment; the engine waits `seconds` (times ENGINE_TIME_SCALE) before it ends. */
export type DeployPhase = { name: string; seconds: number };

/** A log line before it is stored (the store gives it its id). */
export type NewLogLine = {
  at: Date;
  podName: string;
  level: "error" | "warn" | "info" | "debug";
  message: string;
};

export interface CloudDriver {
  /** The phases of deploying `resource`, in order, with realistic durations for its type and size. */
  deployPlan(resource: DriverResource): DeployPhase[];
  /** The pods (or instances) the `deployNumber`-th deployment runs; new names per deployment, like a rollout. */
  podNames(resource: DriverResource, deployNumber: number): string[];
  /** The lines the deployment writes while in `phase`, stamped from `startedAt` on. */
  deployLogs(resource: DriverResource, podNames: string[], phase: DeployPhase, startedAt: Date): NewLogLine[];
  /**
   * The lines the running service's pods wrote in [from, to), in the format such a service really writes
   * (PostgreSQL, Redis, Lambda REPORT lines, ...). Deterministic for the same arguments; at most `limit` lines (the
   * newest are kept when there would be more).
   */
  runtimeLogs(
    resource: DriverResource,
    podNames: string[],
    from: Date,
    to: Date,
    limit: number,
  ): NewLogLine[];
  /** CPU, memory, requests, errors and latency series over `range` ending at `now`, one point per `step` seconds. */
  metrics(resource: DriverResource, range: MetricRange, step: number, now: Date): Metrics;
  /** The alarms defined on the service, with their state judged over `metrics`. */
  alarms(resource: DriverResource, metrics: Metrics, now: Date): Alarm[];
  /** Monthly price of running `resource`, line by line, from the catalogue for its type, size and region. */
  price(
    resource: Pick<DriverResource, "serviceType" | "config" | "settings" | "cloudProvider" | "region">,
  ): CostEstimate;
  /** The secret attributes a first deployment creates (passwords, tokens, connection strings), by name. */
  createSecretAttributes(resource: DriverResource, endpoint: string | null): Record<string, string>;
  /** Names of the secret attributes of a type (what GET attributes/{attribute} may reveal). */
  secretAttributeNames(serviceType: ServiceType): string[];
  /** Where clients reach the deployed service (host name or URL), or null for types without one. */
  endpoint(resource: DriverResource): string | null;
}
