import * as z from "zod";
import { cloningStateSchema } from "./cloning";
import { cloudProviderSchema } from "./cloud-provider-schema";
import { stageSchema } from "./stage-schema";
import { requiredText } from "./required-text";
import { patterns } from "./validation";

export const environmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The tenant id (SPEC §3 organizationId). */
  organizationId: z.string(),
  /** The clone's stage: IN_PROGRESS while a clone of the environment runs (SPEC §3). */
  cloningStage: stageSchema,
  /**
   * The environment's stage as its services make it (deploying, deployed, failed, drafts), and the clone's while
   * it runs; what the pages show.
   */
  stage: stageSchema,
  cloudProvider: cloudProviderSchema,
  region: z.string(),
  /** The connected cloud account it runs in (issue 13); null: the simulated driver. */
  cloudConnectionId: z.string().nullable(),
  serviceCount: z.number().int().nonnegative(),
  /** Estimated monthly cost in US dollars. */
  monthlyCostEstimate: z.number().nonnegative(),
  /**
   * Set once DELETE began tearing the environment's services down in its cloud (answered 202): STAGE_IN_PROGRESS
   * until everything is deleted (then the environment is gone), or STAGE_FAILED with what could not be deleted
   * (DELETE again retries). Null otherwise.
   */
  deletion: z
    .object({ stage: z.enum(["STAGE_IN_PROGRESS", "STAGE_FAILED"]), message: z.string() })
    .nullable(),
  /** Set while and after the environment was cloned from another one. */
  clonedFrom: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type Environment = z.infer<typeof environmentSchema>;

export const environmentListSchema = z.object({ environments: z.array(environmentSchema) });

/**
 * An environment without what its services make (stage, service count, monthly cost), which the platform sums over every service:
 * what the shell and the pages of an environment need to find it by name.
 */
export const environmentSummarySchema = environmentSchema.omit({
  stage: true,
  serviceCount: true,
  monthlyCostEstimate: true,
});
export type EnvironmentSummary = z.infer<typeof environmentSummarySchema>;

export const environmentSummaryListSchema = z.object({ environments: z.array(environmentSummarySchema) });

/** GET list's query: `totals=false` answers summaries (environmentSummaryListSchema). */
export const environmentListQuerySchema = z.object({
  totals: z.enum(["true", "false"], "totals must be true or false").default("true"),
});

export const environmentNameSchema = requiredText("Name", { min: 2, max: 40 }).regex(
  patterns.lowercaseAlphanumericHyphen.regex,
  patterns.lowercaseAlphanumericHyphen.message,
);

/** The region must belong to the provider's catalogue (contract/cloud-providers.ts); the platform checks it. */
export const createEnvironmentRequestSchema = z.object({
  name: environmentNameSchema,
  cloudProvider: cloudProviderSchema,
  region: requiredText("Region", { max: 40 }),
  /** A cloud-provider connection of the same provider (contract/connections.ts); none: simulated. */
  cloudConnectionId: z.uuid({ error: "Choose a cloud account from the list." }).nullish(),
});
export type CreateEnvironmentRequest = z.infer<typeof createEnvironmentRequestSchema>;

export const environmentResponseSchema = z.object({ environment: environmentSchema });

/** POST .../environments/estimate-cost */
export const estimateCostRequestSchema = z.object({
  cloudProvider: cloudProviderSchema,
  region: requiredText("Region", { max: 40 }),
  addons: z.array(z.string()).default([]),
});
export const costEstimateSchema = z.object({
  currency: z.literal("USD"),
  monthlyCost: z.number().nonnegative(),
  breakdown: z.array(z.object({ item: z.string(), monthlyCost: z.number().nonnegative() })),
});
export type CostEstimate = z.infer<typeof costEstimateSchema>;

/** GET/PUT .../environments/{id}/config */
export const maintenanceDays = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
export const environmentConfigSchema = z.object({
  description: z.string().trim().max(500, "Description must be at most 500 characters"),
  autoDeploy: z.boolean(),
  deletionProtection: z.boolean(),
  maintenanceWindow: z.object({
    day: z.enum(maintenanceDays),
    hour: z
      .number()
      .int("must be an integer")
      .min(0, "must be between 0 and 23")
      .max(23, "must be between 0 and 23"),
  }),
});
export type EnvironmentConfig = z.infer<typeof environmentConfigSchema>;
export const environmentConfigResponseSchema = z.object({ config: environmentConfigSchema });
/** GET .../environments/config: every environment's configuration at once. */
export const environmentConfigListSchema = z.object({
  configs: z.array(z.object({ environmentId: z.string(), config: environmentConfigSchema })),
});

/** GET/PUT .../environments/{id}/addons */
export const addonNames = [
  "observability",
  "log-retention",
  "backups",
  "vulnerability-scanning",
  "cost-alerts",
] as const;
export const addonSchema = z.object({ name: z.enum(addonNames), enabled: z.boolean() });
export type Addon = z.infer<typeof addonSchema>;
export const addonListSchema = z.object({ addons: z.array(addonSchema) });

/** Environment variables (SPEC §3): names unique per environment; secret values are masked in lists. */
export const SECRET_MASK = "••••••••";
export const environmentVariableNameSchema = requiredText("Name", { max: 128 }).regex(
  /^[A-Za-z_][A-Za-z0-9_]*$/,
  "Name must start with a letter or underscore and contain only letters, digits and underscores.",
);
export const environmentVariableSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** SECRET_MASK for secrets unless revealed. */
  value: z.string(),
  secret: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EnvironmentVariable = z.infer<typeof environmentVariableSchema>;
export const environmentVariableListSchema = z.object({ envVariables: z.array(environmentVariableSchema) });
const variableValueSchema = z.string().max(32_768, "Value must be at most 32768 characters");
export const createEnvironmentVariablesRequestSchema = z.object({
  envVariables: z
    .array(
      z.object({
        name: environmentVariableNameSchema,
        value: variableValueSchema,
        secret: z.boolean().default(false),
      }),
    )
    .min(1, "envVariables must contain at least one variable")
    .max(500, "envVariables must contain at most 500 variables"),
});
export const updateEnvironmentVariablesRequestSchema = z.object({
  envVariables: z
    .array(
      z.object({
        id: z.string().min(1),
        name: environmentVariableNameSchema.optional(),
        value: variableValueSchema.optional(),
        secret: z.boolean().optional(),
      }),
    )
    .min(1, "envVariables must contain at least one variable")
    .max(500, "envVariables must contain at most 500 variables"),
});
/** The most variables one .env import writes. */
export const MAX_IMPORTED_VARIABLES = 1000;
/**
 * PUT .../environment-variables/import: a .env import applied whole or not at all. A name the environment has
 * gets the value (its secrecy stays); a new name is created, secret when `secret`.
 */
export const importEnvironmentVariablesRequestSchema = z.object({
  envVariables: z
    .array(
      z.object({
        name: environmentVariableNameSchema,
        value: variableValueSchema,
        secret: z.boolean().default(false),
      }),
    )
    .min(1, "envVariables must contain at least one variable")
    .max(MAX_IMPORTED_VARIABLES, `envVariables must contain at most ${MAX_IMPORTED_VARIABLES} variables`),
});
export const deleteEnvironmentVariablesRequestSchema = z.object({
  envVariableIds: z.array(z.string().min(1)).min(1, "envVariableIds must contain at least one id"),
});
export const referencedServicesSchema = z.object({
  services: z.array(z.object({ id: z.string(), name: z.string(), serviceType: z.string() })),
});

/** POST /tenant/{t}/workspace/{id}/clone */
export const cloneEnvironmentRequestSchema = z.object({
  name: environmentNameSchema,
  cloudProvider: cloudProviderSchema.optional(),
  region: z.string().optional(),
});
/** GET /tenant/{t}/workspace/{w}/clone/state */
export const cloneStateSchema = z.object({
  infraState: cloningStateSchema,
  /** The steps passed so far, oldest first, with when each began. */
  history: z.array(z.object({ state: cloningStateSchema, at: z.string() })),
  /** What went wrong when the state is a _FAILED one. */
  details: z.string().nullable(),
  /**
   * The environment's resources (its services other than applications), which the launch deploys: how many,
   * how many run (STAGE_COMPLETED), and their stage taken together (STAGE_UNSPECIFIED when there are none).
   */
  resources: z.object({
    total: z.number().int().nonnegative(),
    running: z.number().int().nonnegative(),
    stage: stageSchema,
  }),
});
export type CloneState = z.infer<typeof cloneStateSchema>;

const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;
const one = (tenantId: string, environmentId: string) =>
  `${organization(tenantId)}/environments/${encodeURIComponent(environmentId)}`;
const workspace = (tenantId: string, environmentId: string) =>
  `/tenant/${encodeURIComponent(tenantId)}/workspace/${encodeURIComponent(environmentId)}`;

export const environmentPaths = {
  list: (tenantId: string, { totals = true }: { totals?: boolean } = {}) =>
    `${organization(tenantId)}/environments${totals ? "" : "?totals=false"}`,
  one,
  estimateCost: (tenantId: string) => `${organization(tenantId)}/environments/estimate-cost`,
  configs: (tenantId: string) => `${organization(tenantId)}/environments/config`,
  config: (tenantId: string, environmentId: string) => `${one(tenantId, environmentId)}/config`,
  addons: (tenantId: string, environmentId: string) => `${one(tenantId, environmentId)}/addons`,
  variables: (tenantId: string, environmentId: string, { reveal }: { reveal?: string } = {}) =>
    `${one(tenantId, environmentId)}/environment-variables${reveal ? `?${new URLSearchParams({ reveal })}` : ""}`,
  variablesImport: (tenantId: string, environmentId: string) =>
    `${one(tenantId, environmentId)}/environment-variables/import`,
  referencedServices: (tenantId: string, environmentId: string, variableName: string) =>
    `${one(tenantId, environmentId)}/environment-variables/${encodeURIComponent(variableName)}/referenced-services`,
  clone: (tenantId: string, environmentId: string) => `${workspace(tenantId, environmentId)}/clone`,
  cloneState: (tenantId: string, environmentId: string) =>
    `${workspace(tenantId, environmentId)}/clone/state`,
  cloneExit: (tenantId: string, environmentId: string) => `${workspace(tenantId, environmentId)}/clone/exit`,
  cloneLaunchResources: (tenantId: string, environmentId: string) =>
    `${workspace(tenantId, environmentId)}/clone/launch/resources`,
};

/**
 * What the platform answers (errors use contract/errors.ts's body; 400 VALIDATION_FAILED carries fieldErrors):
 * - GET list → environmentListSchema, or with `totals=false` environmentSummaryListSchema; POST list → 201 environmentResponseSchema; GET one → environmentResponseSchema;
 *   DELETE one → 204, or 409 while the environment or a clone of it is unfinished, or deletion protection is on.
 * - POST estimate-cost → costEstimateSchema. GET/PUT config → environmentConfigResponseSchema (PUT takes
 *   environmentConfigSchema); GET configs → environmentConfigListSchema. GET/PUT addons → addonListSchema (PUT takes
 *   addonListSchema with any subset of the add-ons; those not named keep their state).
 * - Variables: GET → environmentVariableListSchema; POST → 201 and PUT → 200 with the variables written (masked);
 *   DELETE → 204. A write is all or nothing. While a clone is still copying the settings into the environment,
 *   writes to its config, add-ons and variables answer 409. A PUT value equal to SECRET_MASK on a secret keeps its
 *   stored value (also when the PUT turns it into a plain variable). PUT import → 200 with the variables written
 *   (masked), in the request's order; an invalid or repeated entry is a 400 naming it (`envVariables.{i}.name`).
 * - Clone: POST clone → 201 environmentResponseSchema (the new environment, STAGE_IN_PROGRESS); GET clone/state →
 *   cloneStateSchema (UNSPECIFIED with no history for an environment that was never cloned); POST
 *   clone/launch/resources → cloneStateSchema, 409 unless the state is WAITING_FOR_LAUNCH_RESOURCES_EVENT; PUT
 *   clone/exit → environmentResponseSchema: at REVIEW_AND_DEPLOY_APPLICATIONS the stage becomes STAGE_COMPLETED,
 *   after a _FAILED state STAGE_FAILED, and before either the clone is cancelled (STAGE_CANCELED, what was copied
 *   stays); 409 when the environment is not in a clone flow (stage not STAGE_IN_PROGRESS).
 */
export const environmentErrorMessages = {
  cloudAccount: (provider: string) => `Choose a ${provider} cloud account of this organization.`,
  containerHost:
    "Choose a container host of this organization: containers run on a real engine, never in the simulated cloud.",
  regionNotInCatalogue: (provider: string) => `Region must be one of the ${provider} regions`,
  providerNotEnabled: "Azure is not enabled for this organization",
  unknownAddon: "Unknown add-on",
  addonRepeated: "This add-on is listed more than once",
  deletionProtected: "Deletion protection is on: turn it off in the environment's configuration first",
  environmentBusy: "This environment has a clone or deployment in progress",
  beingDeleted: "This environment is being deleted",
  cloneSourceInUse: "An environment is being cloned from this one: let that clone finish or exit it first",
  settingsBeingCopied:
    "The settings are still being copied from the source environment; try again in a moment",
  notCloning: "This environment is not being cloned",
  cloneNotWaitingForLaunch: "The clone is not waiting for its resources to be launched",
  variableNameTaken: "A variable with this name already exists",
  variableNameRepeated: "This name is used more than once",
  variableRepeated: "This variable is listed more than once",
  variableNotFound: "Environment variable not found",
  secretUnreadable: "The secret cannot be decrypted with the platform's encryption keys",
} as const;
