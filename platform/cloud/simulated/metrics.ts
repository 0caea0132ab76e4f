import { metricNames, metricRanges, metricUnits, type MetricRange } from "#contract/service-catalogue";
import { type Metrics } from "#contract/services";
import type { DriverResource } from "../driver";
import { configOf } from "../configs";
import { instanceCountOf } from "./resource";
import { hashOf, randomFrom } from "./random";

export type MetricName = (typeof metricNames)[number];

/**
 * A service's typical load: CPU and memory in %, requests and errors per minute, latency in ms at an average hour.
 * Smaller instances run hotter; applications serve more with more instances.
 */
export type MetricProfile = {
  cpu: number;
  memory: number;
  requests: number;
  errorRate: number;
  latency: number;
};

const sizeLoad = (size: string) =>
  size.includes("micro")
    ? 1.6
    : size.includes("small")
      ? 1.3
      : size.includes("medium")
        ? 1
        : size.includes("xlarge")
          ? 0.45
          : 0.65;

export function profileOf(resource: DriverResource): MetricProfile {
  switch (resource.serviceType) {
    case "database": {
      const { instanceSize } = configOf(resource, "database");
      return { cpu: 24 * sizeLoad(instanceSize), memory: 62, requests: 1_800, errorRate: 0.002, latency: 4 };
    }
    case "cache": {
      const { nodeSize, nodes } = configOf(resource, "cache");
      return {
        cpu: 14 * sizeLoad(nodeSize),
        memory: 55,
        requests: 6_000 * nodes,
        errorRate: 0.0005,
        latency: 0.8,
      };
    }
    case "queue":
      return { cpu: 4, memory: 20, requests: 240, errorRate: 0.004, latency: 18 };
    case "file-storage":
      return { cpu: 3, memory: 15, requests: 180, errorRate: 0.006, latency: 38 };
    case "nosql-database":
      return { cpu: 9, memory: 30, requests: 900, errorRate: 0.003, latency: 6 };
    case "serverless": {
      const { memoryMb } = configOf(resource, "serverless");
      return {
        cpu: Math.min(60, 4_000 / Math.sqrt(memoryMb) / 5),
        memory: 45,
        requests: 150,
        errorRate: 0.01,
        latency: 65,
      };
    }
    case "kubernetes": {
      const { nodeInstanceType, minNodes } = configOf(resource, "kubernetes");
      return {
        cpu: 30 * sizeLoad(nodeInstanceType),
        memory: 58,
        requests: 300 * minNodes,
        errorRate: 0.002,
        latency: 22,
      };
    }
    case "control-plane":
      return { cpu: 22, memory: 48, requests: 650, errorRate: 0.001, latency: 28 };
    case "network": {
      const { availabilityZones } = configOf(resource, "network");
      return { cpu: 6, memory: 12, requests: 4_000 * availabilityZones, errorRate: 0.001, latency: 1.2 };
    }
    case "tls":
      return { cpu: 1, memory: 5, requests: 900, errorRate: 0.001, latency: 9 };
    case "application": {
      const cpuPerInstance = Number(resource.settings.hardware.cpu);
      return {
        cpu: Math.min(60, 18 / Math.sqrt(cpuPerInstance)),
        memory: 50,
        requests: 700 * instanceCountOf(resource),
        errorRate: 0.005,
        latency: 85,
      };
    }
  }
}

/** Traffic over a day (UTC): low at 04:00, peaking at 16:00, from 0.45 to 1.35 of the average, with a wave per hour. */
function loadAt(atMs: number, phase: number): number {
  const hours = atMs / 3_600_000;
  const daily = 0.9 - 0.45 * Math.cos((2 * Math.PI * (hours - 4)) / 24);
  const hourly = 1 + 0.07 * Math.sin(2 * Math.PI * hours + phase);
  return daily * hourly;
}

/**
 * About once a day a service has an incident of 15 to 40 minutes (chosen by hour from the id): CPU, errors and
 * latency rise, which is what makes the alarms fire now and then.
 */
export function incidentAt(resourceId: string, atMs: number): boolean {
  const hour = Math.floor(atMs / 3_600_000);
  if (hashOf("incident", resourceId, hour) % 26 !== 0) return false;
  const random = randomFrom("incident-window", resourceId, hour);
  const start = random.int(0, 30) * 60_000;
  const length = random.int(15, 40) * 60_000;
  const offset = atMs - hour * 3_600_000;
  return offset >= start && offset < start + length;
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
const clampPercent = (value: number) => Math.min(99.5, Math.max(0.1, value));

/** One metric's value at an instant: the same for a given service and instant whatever the range or step. */
export function valueAt(
  resource: DriverResource,
  profile: MetricProfile,
  metric: MetricName,
  atMs: number,
): number {
  const phase = (hashOf("phase", resource.id) % 628) / 100;
  const load = loadAt(atMs, phase);
  const noise = () => 1 + (randomFrom("noise", resource.id, metric, atMs).next() - 0.5) * 0.2;
  const incident = incidentAt(resource.id, atMs);
  switch (metric) {
    case "cpu":
      return round(clampPercent(profile.cpu * load * noise() + (incident ? 55 : 0)), 1);
    case "memory":
      return round(
        clampPercent((profile.memory + 10 * (load - 0.9)) * (1 + (noise() - 1) / 4) + (incident ? 35 : 0)),
        1,
      );
    case "requests":
      return Math.round(profile.requests * load * noise());
    case "errors": {
      const requests = profile.requests * load;
      return round(requests * profile.errorRate * noise() * (incident ? 25 : 1), 1);
    }
    case "latency": {
      const value = profile.latency * (0.8 + 0.3 * load) * noise() * (incident ? 4.5 : 1);
      return round(value, value < 10 ? 2 : 1);
    }
  }
}

/**
 * Series over `range` ending at `now`, one point per `step` seconds aligned to multiples of the step, and the
 * current value at `now` itself, so a service deployed seconds ago already has a reading.
 */
export function metricsOf(resource: DriverResource, range: MetricRange, step: number, now: Date): Metrics {
  const profile = profileOf(resource);
  const stepMs = step * 1000;
  const count = Math.max(1, Math.floor(metricRanges[range] / step));
  const last = Math.floor(now.getTime() / stepMs) * stepMs;
  const times = Array.from({ length: count }, (_, index) => last - (count - 1 - index) * stepMs);
  if (now.getTime() > last) times.push(now.getTime());
  return {
    range,
    step,
    series: metricNames.map((metric) => ({
      metric,
      unit: metricUnits[metric],
      points: times.map((atMs) => ({
        at: new Date(atMs).toISOString(),
        value: valueAt(resource, profile, metric, atMs),
      })),
    })),
  };
}
