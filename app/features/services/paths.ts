import type { LogType, SettingsSubTab, ServiceType } from "#contract/service-catalogue";
import type { Stage } from "#contract/stages";

/** The service details page's tabs (SPEC §2.2 `tab`). */
export const serviceDetailTabs = [
  "overview",
  "config",
  "pre-deploy",
  "monitoring",
  "logs",
  "history",
  "settings",
  "cost",
  "monitor",
  "attributes",
] as const;
export type ServiceDetailTab = (typeof serviceDetailTabs)[number];

export type ServiceListFilters = {
  serviceType?: ServiceType;
  stage?: Stage;
  text?: string;
  page?: number;
};

export type ServiceDetailOptions = {
  tab?: ServiceDetailTab;
  subTab?: SettingsSubTab;
  logType?: LogType;
  /** Sent comma-separated as `podNames`. */
  podNames?: readonly string[];
  /** Sent comma-separated as `timestamps` (ISO 8601: the start and, when known, the end). */
  timestamps?: readonly string[];
};

export type ApplicationsView = "grid" | "list";

const environmentRoot = (environmentName: string) => `/env/${encodeURIComponent(environmentName)}`;

function withQuery(path: string, values: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== "") query.set(name, value);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

const listQueryOf = (filters: ServiceListFilters) => ({
  serviceType: filters.serviceType,
  stage: filters.stage,
  text: filters.text?.trim(),
  page: filters.page && filters.page > 1 ? String(filters.page) : undefined,
});

/** Each segment of a path encoded again (a splat parameter arrives decoded). */
function encodedSegments(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/** The app's own addresses of the services pages and their resource routes. */
export const servicePagePaths = {
  list: (environmentName: string, filters: ServiceListFilters = {}) =>
    withQuery(`${environmentRoot(environmentName)}/services`, listQueryOf(filters)),
  create: (environmentName: string, serviceType: ServiceType) =>
    `${environmentRoot(environmentName)}/services/${encodeURIComponent(serviceType)}/create`,
  details: (environmentName: string, serviceId: string, options: ServiceDetailOptions = {}) =>
    withQuery(`${environmentRoot(environmentName)}/services/${encodeURIComponent(serviceId)}`, {
      tab: options.tab,
      subTab: options.subTab,
      logType: options.logType,
      podNames: options.podNames?.length ? options.podNames.join(",") : undefined,
      timestamps: options.timestamps?.length ? options.timestamps.join(",") : undefined,
    }),
  /** GET an application's version (and its diff against the running one); POST rolls back to it. */
  version: (environmentName: string, serviceId: string, versionId: string) =>
    `${environmentRoot(environmentName)}/services/${encodeURIComponent(serviceId)}/versions/${encodeURIComponent(versionId)}`,
  /** A path below the environment's /services, given without the environment (`{id}`, `{type}/create`). */
  underServices: (environmentName: string, subPath: string) =>
    `${environmentRoot(environmentName)}/services/${encodedSegments(subPath)}`,
  /** A path below the environment's /applications, given without the environment (`list`). */
  underApplications: (environmentName: string, subPath: string) =>
    `${environmentRoot(environmentName)}/applications/${encodedSegments(subPath)}`,
  /** The environment's infrastructure resources (everything but applications), grouped by type. */
  infrastructure: (environmentName: string, filters: ServiceListFilters = {}) =>
    withQuery(`${environmentRoot(environmentName)}/infrastructure`, listQueryOf(filters)),
  infrastructureOverview: (environmentName: string) =>
    `${environmentRoot(environmentName)}/infrastructure/overview`,
  applications: (environmentName: string, view?: ApplicationsView) =>
    `${environmentRoot(environmentName)}/applications${view === "list" ? "/list" : ""}`,
  /** GET resource route: the cost estimate of a create form's configuration (its `config.` fields). */
  estimateCost: (environmentName: string) => `${environmentRoot(environmentName)}/services/estimate-cost`,
  changePlan: (environmentName: string, serviceId: string) =>
    `${environmentRoot(environmentName)}/services/${encodeURIComponent(serviceId)}/plan`,
  /** POST resource route: a serverless function archive, multipart in the field `file`. */
  serverlessUpload: (environmentName: string) =>
    `${environmentRoot(environmentName)}/services/serverless-upload`,
};
