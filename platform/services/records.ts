import { type ResourceAction, type ServiceType } from "#contract/service-catalogue";
import {
  serviceSettingsSchema,
  type HistoryEntry,
  type Resource,
  type ResourceSummary,
  type ServiceSettings,
} from "#contract/services";
import type { Stage } from "#contract/stages";
import type { CloudProvider } from "#contract/cloud-providers";
import type { resourceHistory, resources } from "../db/schema";
import { applicationConfigOf } from "./application-config";
import type { DriverResource } from "../cloud/driver";
import type { EnvironmentRow } from "../environments/records";
import { usageShapeOf } from "../cost/usage";

export type ResourceRow = typeof resources.$inferSelect;
export type HistoryRow = typeof resourceHistory.$inferSelect;

/** Cents as stored, dollars as the contract answers. */
export const dollarsOf = (cents: number) => cents / 100;
export const centsOf = (dollars: number) => Math.round(dollars * 100);

export function stageOf(row: ResourceRow): Stage {
  return row.stage as Stage;
}

export function settingsOf(row: Pick<ResourceRow, "settings">): ServiceSettings {
  return serviceSettingsSchema.parse(row.settings);
}

/** A row's configuration in its type's current shape (an application stored as `{ image }` reads as its source). */
export function configOf(
  row: Pick<ResourceRow, "serviceType" | "config" | "settings">,
): Record<string, unknown> {
  return row.serviceType === "application" ? applicationConfigOf(row.config, settingsOf(row)) : row.config;
}

/**
 * A row as the list shows it: no configuration, settings or secrets; its size in the words usage is recorded
 * with, in its environment's region. `failedSince` comes from its history (failedSinceOf), for a failed one.
 */
export function toResourceSummary(
  row: ResourceRow,
  environment: EnvironmentRow,
  failedSince: Date | undefined,
): ResourceSummary {
  const { size, replicas } = usageShapeOf(driverResourceOf(row, environment));
  return {
    id: row.id,
    environmentId: row.environmentId,
    name: row.name,
    serviceType: row.serviceType as ServiceType,
    stage: stageOf(row),
    version: row.version,
    retries: row.retries,
    message: row.message,
    monthlyCost: dollarsOf(row.monthlyCost),
    region: environment.region,
    size,
    replicas,
    failedSince: row.stage === "STAGE_FAILED" ? (failedSince ?? row.updatedAt).toISOString() : null,
    endpoint: row.endpoint,
    driftedAt: row.stage === "STAGE_FAILED" ? (row.driftedAt?.toISOString() ?? null) : null,
    hasDraft: row.draft !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * When a failed service began failing, from its history newest first: the end of the first failed deployment (or
 * drift check) since the last one that succeeded, so retries that fail again keep the first time.
 */
export function failedSinceIn(
  newestFirst: readonly Pick<HistoryRow, "outcome" | "at" | "finishedAt">[],
): Date | undefined {
  let since: Date | undefined;
  for (const entry of newestFirst) {
    if (entry.outcome === "STAGE_COMPLETED") break;
    if (entry.outcome === "STAGE_FAILED") since = entry.finishedAt ?? entry.at;
  }
  return since;
}

export function toHistoryEntry(row: HistoryRow): HistoryEntry {
  return {
    id: row.id,
    action: row.action as ResourceAction,
    actor: row.actor,
    at: row.at.toISOString(),
    outcome: row.outcome as Stage | null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    podNames: row.podNames,
    message: row.message,
    diff: row.diff,
  };
}

/**
 * The whole service: configuration, settings, draft, pods, the names (never the values) of its secret attributes,
 * and its history newest first (entries of one service never share a time: see history.ts).
 */
export function toResource(
  row: ResourceRow,
  environment: EnvironmentRow,
  history: HistoryRow[],
  secretAttributeNames: string[],
  progress: Resource["progress"],
): Resource {
  const newestFirst = [...history].sort((a, b) => b.at.getTime() - a.at.getTime());
  return {
    ...toResourceSummary(row, environment, failedSinceIn(newestFirst)),
    config: configOf(row),
    settings: settingsOf(row),
    draft: row.draft
      ? { config: row.draft.config, settings: serviceSettingsSchema.parse(row.draft.settings) }
      : null,
    pods: row.pods as Resource["pods"],
    progress,
    secretAttributes: secretAttributeNames,
    history: newestFirst.map(toHistoryEntry),
  };
}

/** What the driver needs to know about a service in its environment. */
export function driverResourceOf(row: ResourceRow, environment: EnvironmentRow): DriverResource {
  return {
    id: row.id,
    name: row.name,
    serviceType: row.serviceType as ServiceType,
    config: configOf(row),
    settings: settingsOf(row),
    environmentName: environment.name,
    cloudProvider: environment.cloudProvider as CloudProvider,
    region: environment.region,
  };
}

/** The context a service's sealed attributes are bound to, so a sealed value copied to another row does not open. */
export const attributesContextOf = (resourceId: string) => `resource-attributes:${resourceId}`;
