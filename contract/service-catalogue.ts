// The services' catalogue: types, labels, actions, choices and limits, free of zod schemas. The services list and
// the shell import it on every page, so it stays schema-free (the schemas are in services.ts) and a page that
// validates no form loads no zod (decision 064).
import type { ConnectionKind } from "./connections";
import type { Stage } from "./stages";

/**
 * Services (SPEC §1, §2.2, §3 "Infrastructure resource", §7 "Environment level"): what a team deploys into an
 * environment. The platform calls them infrastructure resources; the app calls them services. One shape serves every
 * type: a name, the type's own `config`, the operational `settings` shared by every type, and the stage the engine
 * moves it through.
 */

/** The ten types with a create page (SPEC §2.2), in the order the app offers them, and applications. */
export const creatableServiceTypes = [
  "database",
  "cache",
  "queue",
  "file-storage",
  "nosql-database",
  "serverless",
  "kubernetes",
  "control-plane",
  "network",
  "tls",
] as const;
export const serviceTypes = [...creatableServiceTypes, "application"] as const;
export type ServiceType = (typeof serviceTypes)[number];
export type CreatableServiceType = (typeof creatableServiceTypes)[number];
export const isServiceType = (value: unknown): value is ServiceType =>
  serviceTypes.includes(value as ServiceType);

/** The types nothing connects to: a network holds the others, a certificate is attached to a load balancer. */
export const typesWithoutEndpoint = ["network", "tls"] as const satisfies readonly ServiceType[];

/**
 * The types with no container form (issue 26), as a sentence each: on a container host (provider CONTAINERS) they
 * are refused at creation, in words, rather than pretended. The containers driver decides the rest (decision 058);
 * every engine a database's or cache's form offers runs there (decision 068).
 */
const withoutContainerForm: Partial<Record<ServiceType, string>> = {
  network: "A network",
  tls: "A TLS certificate",
  kubernetes: "A Kubernetes cluster",
  "control-plane": "A control plane",
  serverless: "A serverless function",
};

/**
 * The types a container could run (RabbitMQ, an S3-compatible server) but the containers driver does not yet: no
 * such server is built for its tests on these machines (decision 060). Refused at creation the same way.
 */
const notYetOnContainers: Partial<Record<ServiceType, string>> = {
  queue: "A queue",
  "file-storage": "A file storage",
  "nosql-database": "A NoSQL database",
};

/** Why `type` cannot run on a container host (the create page and the platform say it), or null when it can. */
export function noContainerFormMessage(type: ServiceType): string | null {
  const what = withoutContainerForm[type];
  if (what) {
    return `${what} cannot run on a container host: it has no container form. Create it in an environment on a cloud account.`;
  }
  const notYet = notYetOnContainers[type];
  return notYet
    ? `${notYet} cannot run on a container host yet: the container driver has no server for it. Create it in an environment on a cloud account.`
    : null;
}

export const serviceTypeLabels: Record<ServiceType, string> = {
  database: "Database",
  cache: "Cache",
  queue: "Queue",
  "file-storage": "File storage",
  "nosql-database": "NoSQL database",
  serverless: "Serverless function",
  kubernetes: "Kubernetes cluster",
  "control-plane": "Control plane",
  network: "Network",
  tls: "TLS certificate",
  application: "Application",
};

/**
 * SPEC §4 resource actions, as recorded in a service's history; an application's roll back (issue 15); and the
 * platform's own `Check`: the periodic drift check found the service changed outside the platform (outcome
 * STAGE_FAILED) or back as deployed (STAGE_COMPLETED).
 */
// Sync: a settings-only change applied to the running service in place, without a new deployment.
export const resourceActions = [
  "Provision",
  "Save",
  "Create",
  "Relaunch",
  "Sync",
  "Rollback",
  "Check",
] as const;
export type ResourceAction = (typeof resourceActions)[number];

/** Stages in which the engine is still working on a service: pages poll while any service is in one. */
export const busyStages: readonly Stage[] = [
  "STAGE_QUEUED",
  "STAGE_IN_PROGRESS",
  "STAGE_SYNCING",
  "STAGE_CANCELING",
  "STAGE_INFRASTRUCTURE_NOT_READY",
];
export const isBusyStage = (stage: Stage) => busyStages.includes(stage);

/** How many times a failed deployment may be retried (SPEC §8). */
export const MAX_RETRIES = 3;
/** The largest serverless function archive the platform accepts (the size AWS Lambda takes as a direct upload). */
export const SERVERLESS_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** The whole request that carries the archive: the archive plus room for the multipart framing around it. */
export const SERVERLESS_UPLOAD_BODY_MAX_BYTES = SERVERLESS_UPLOAD_MAX_BYTES + 64 * 1024;

export const settingsSubTabs = [
  "envvars",
  "scaling",
  "hardware",
  "networking",
  "volumes",
  "health-check",
  "schedule",
] as const;

export type SettingsSubTab = (typeof settingsSubTabs)[number];

export const cpuChoices = ["0.25", "0.5", "1", "2", "4"] as const;

export const weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/**
 * What each type runs as units its cloud reports, by the name the cloud gives them: an application's ECS tasks
 * (Fargate), a database's RDS instances, a cache's ElastiCache nodes, a cluster's EKS nodes. A type absent here
 * runs none a user could see (AWS runs a queue, a bucket, a table, a function, a certificate, a network and a
 * control plane without nodes for them).
 */
export const serviceUnitLabels: Partial<Record<ServiceType, "Tasks" | "Instances" | "Nodes">> = {
  application: "Tasks",
  database: "Instances",
  cache: "Nodes",
  kubernetes: "Nodes",
};

/**
 * The two halves of an environment: its infrastructure (every type but application, the /infrastructure page)
 * and its applications.
 */
export const serviceCategories = ["infrastructure", "application"] as const;

export type ServiceCategory = (typeof serviceCategories)[number];

export const logLevels = ["error", "warn", "info", "debug"] as const;

export const logTypes = ["LIVE", "SEARCH"] as const;

export type LogType = (typeof logTypes)[number];

/** The earliest and latest dates the log search's pickers allow (SPEC §5). */
export const DATE_RANGE = { min: "1900-01-01", max: "2099-12-31" } as const;

export const metricNames = ["cpu", "memory", "requests", "errors", "latency"] as const;

export const metricUnits: Record<(typeof metricNames)[number], string> = {
  cpu: "%",
  memory: "%",
  requests: "req/min",
  errors: "err/min",
  latency: "ms",
};

export const metricRanges = { "1h": 3600, "6h": 21_600, "24h": 86_400, "7d": 604_800 } as const;

export type MetricRange = keyof typeof metricRanges;

export const alarmSeverities = ["critical", "high", "medium", "low", "unspecified"] as const;

/** The kinds of connection an environment's metrics can be forwarded to (SPEC §7, issue 13). */
export const observabilityConnectionKinds = [
  "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
  "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
] as const satisfies readonly ConnectionKind[];
