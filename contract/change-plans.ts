import * as z from "zod";
import { servicePaths, serviceSettingsSchema, type ServiceType } from "./services";

/**
 * The plan of a configuration change (issue 24 §1): how the service's cloud applies it, and what a replacement
 * loses, asked for before saving. A replacement that deletes data (a database's, a cache's, a table's, a bucket's
 * or a queue's messages) is saved or launched only with the service's name typed as `confirmation`.
 */

/** What replacing a service of each type loses: `data` needs the typed name; `address` is said, not asked. */
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

/** "Replaces the service and deletes its data": what a replacement of `serviceType` means, in the plan's words. */
export function replacementSummary(serviceType: ServiceType): string {
  const { data, address } = replacementLosses[serviceType];
  if (data) return `Replaces the service and deletes its ${data}`;
  return address ? `Replaces the service: it gets a new ${address}` : "Replaces the service";
}

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
  /** What the replacement loses, in words ("its data", "its endpoint"); empty without a replacement. */
  loses: z.array(z.string()),
  /** "Replaces the service and deletes its data", "Updates the service in place", ...: the plan in one line. */
  summary: z.string(),
  /** Whether deploying the change needs the service's name typed as `confirmation`. */
  confirmationRequired: z.boolean(),
});
export type ChangePlan = z.infer<typeof changePlanSchema>;
export const changePlanResponseSchema = z.object({ plan: changePlanSchema });

/** POST infrastructure/{id}/draft/launch may carry the typed name when launching the draft replaces data. */
export const launchDraftRequestSchema = z.object({ confirmation: z.string().optional() });

export const changePlanPaths = {
  plan: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/plan`,
};

/** The refusal of a deployment that replaces data without the typed name (400, field `confirmation`). */
export function confirmationRequiredMessage(serviceType: ServiceType, serviceName: string): string {
  return `This change ${replacementSummary(serviceType).toLowerCase()}: type ${serviceName} to confirm`;
}
