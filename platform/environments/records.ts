import type { CloudProvider } from "#contract/cloud-providers";
import {
  addonNames,
  environmentConfigSchema,
  type Addon,
  type Environment,
  type EnvironmentConfig,
  type EnvironmentSummary,
} from "#contract/environments";
import type { Stage } from "#contract/stages";
import type { environments } from "../db/schema";
import { addonsMonthlyCost } from "../cloud/pricing";
import { environmentStageOf } from "./stages";
import { noServices, type ServiceTotals } from "./service-totals";

export type EnvironmentRow = typeof environments.$inferSelect;

/** The configuration of an environment nobody has configured yet. */
export const defaultEnvironmentConfig: EnvironmentConfig = {
  description: "",
  autoDeploy: false,
  deletionProtection: false,
  maintenanceWindow: { day: "sunday", hour: 3 },
};

/** The stored configuration over the defaults, so a setting added later has a value in older rows. */
export function configOf(row: EnvironmentRow): EnvironmentConfig {
  return environmentConfigSchema.parse({ ...defaultEnvironmentConfig, ...row.config });
}

export function enabledAddonsOf(row: EnvironmentRow): Addon["name"][] {
  return addonNames.filter((name) => row.enabledAddons.includes(name));
}

/** Every add-on of the catalogue, in its order, with whether the environment has it. */
export function addonsOf(row: EnvironmentRow): Addon[] {
  return addonNames.map((name) => ({ name, enabled: row.enabledAddons.includes(name) }));
}

/**
 * The contract names the tenant `organizationId`; the response schema rejects an unknown stage or provider. The
 * monthly estimate is what the environment has: its add-ons and its services; the stage follows the services'.
 */
export function toEnvironment(row: EnvironmentRow, services: ServiceTotals = noServices): Environment {
  return {
    ...toEnvironmentSummary(row),
    stage: deletionOf(row)?.stage ?? environmentStageOf(row.cloningStage as Stage, services.stages),
    serviceCount: services.count,
    monthlyCostEstimate:
      Math.round(addonsMonthlyCost(enabledAddonsOf(row)) * 100 + services.monthlyCostCents) / 100,
  };
}

/** toEnvironment without the totals, which need the environment's services. */
export function toEnvironmentSummary(row: EnvironmentRow): EnvironmentSummary {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.tenantId,
    cloningStage: row.cloningStage as Stage,
    cloudProvider: row.cloudProvider as CloudProvider,
    region: row.region,
    cloudConnectionId: row.cloudConnectionId,
    deletion: deletionOf(row),
    clonedFrom:
      row.clonedFromId && row.clonedFromName ? { id: row.clonedFromId, name: row.clonedFromName } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Where a DELETE that tears the environment's services down in its cloud stands; null without one. */
export function deletionOf(row: EnvironmentRow): Environment["deletion"] {
  if (row.deletionStage !== "STAGE_IN_PROGRESS" && row.deletionStage !== "STAGE_FAILED") return null;
  return { stage: row.deletionStage, message: row.deletionMessage ?? "" };
}
