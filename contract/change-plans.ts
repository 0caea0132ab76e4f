import * as z from "zod";
import { type ServiceType } from "./service-catalogue";
import { configDiffSchema, servicePaths, serviceSettingsSchema } from "./services";

/**
 * The plan of a configuration change (issue 24 §1): how the service's cloud applies it, and what it loses, asked
 * for before saving. A change that loses something (a replacement's data, a database's, a cache's, a table's, a
 * bucket's or a queue's messages; or the address others reach the service at) is saved or launched only with the
 * service's name typed as `confirmation` (decision 054).
 */

/** What replacing a service of each type loses: its `data`, and the `address` others reach it at. */
export const replacementLosses: Record<ServiceType, { data?: string; address?: string }> = {
  database: { data: "data", address: "endpoint" },
  cache: { data: "data", address: "endpoint" },
  "nosql-database": { data: "data", address: "table ARN" },
  "file-storage": { data: "data", address: "bucket address" },
  queue: { data: "messages", address: "queue URL" },
  serverless: { address: "function ARN" },
  kubernetes: { address: "API endpoint" },
  "control-plane": { address: "API endpoint" },
  network: { address: "VPC and subnet ids" },
  tls: { address: "certificate ARN" },
  application: { address: "address" },
};

/**
 * Changed paths (as in the history diff) that give a deployed service a new address while it stays in place: an
 * application's domain is where its users reach it.
 */
export const addressPaths: Partial<Record<ServiceType, readonly string[]>> = {
  application: ["config.domain.host"],
};

/** "Replaces the service and deletes its data": what a replacement of `serviceType` means, in the plan's words. */
export function replacementSummary(serviceType: ServiceType): string {
  const { data, address } = replacementLosses[serviceType];
  if (data) return `Replaces the service and deletes its ${data}`;
  if (!address) return "Replaces the service";
  // "VPC and subnet ids" are several: "new VPC and subnet ids", not "a new".
  return `Replaces the service, which gets ${address.endsWith("ids") ? "new" : "a new"} ${address}`;
}

/** What an in-place change of a service's address means, in the plan's words. */
export const ADDRESS_CHANGE_SUMMARY = "Gives the service a new address";

/** POST infrastructure/{id}/plan: the proposed configuration and settings (parts left out stay as they are). */
export const changePlanRequestSchema = z.object({
  config: z.record(z.string(), z.unknown()).optional(),
  settings: serviceSettingsSchema.optional(),
});
export type ChangePlanRequest = z.infer<typeof changePlanRequestSchema>;

export const changePlanSchema = z.object({
  /** Changed paths (as in the history diff: `config.storageGb`) the cloud updates where the service stands. */
  inPlace: z.array(z.string()),
  /** Changed paths that make the cloud replace the service (delete it and create it anew). */
  replace: z.array(z.string()),
  /**
   * Changed paths the cloud does not classify: the product's own settings, every change on a cloud that cannot
   * say (the simulated one), and every change of a service never deployed (nothing there to replace).
   */
  other: z.array(z.string()),
  /** Each changed path with its value before and after (as in the history diff), for the plan to show. */
  changes: configDiffSchema,
  /**
   * What the change loses, in words: a replacement's ("its data", "its endpoint"), or "its address" when an
   * application's domain changes; empty when nothing is lost.
   */
  loses: z.array(z.string()),
  /** "Replaces the service and deletes its data", "Updates the service in place", ...: the plan in one line. */
  summary: z.string(),
  /** Whether deploying the change needs the service's name typed as `confirmation`: it loses something. */
  confirmationRequired: z.boolean(),
});
export type ChangePlan = z.infer<typeof changePlanSchema>;
export const changePlanResponseSchema = z.object({ plan: changePlanSchema });

/** POST infrastructure/{id}/draft/launch may carry the typed name when launching the draft replaces data. */
export const launchDraftRequestSchema = z.object({ confirmation: z.string().optional() });

export const changePlanPaths = {
  plan: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/plan`,
};

/** The refusal of a deployment that loses something without the typed name (400, field `confirmation`). */
export function confirmationRequiredMessage(plan: Pick<ChangePlan, "summary">, serviceName: string): string {
  return `This change ${plan.summary.toLowerCase()}: type ${serviceName} to confirm`;
}
