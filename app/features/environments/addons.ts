import * as z from "zod";
import { addonNames, type Addon } from "#contract/environments";

export type AddonName = (typeof addonNames)[number];

export const addonDescriptions: Record<AddonName, { label: string; description: string }> = {
  observability: { label: "Observability", description: "Metrics, traces and dashboards for every service." },
  "log-retention": { label: "Log retention", description: "Keep service logs beyond the default retention." },
  backups: { label: "Backups", description: "Scheduled backups of databases and volumes." },
  "vulnerability-scanning": {
    label: "Vulnerability scanning",
    description: "Scan images and dependencies for known vulnerabilities.",
  },
  "cost-alerts": { label: "Cost alerts", description: "Be told when spending passes the estimate." },
};

/** The add-ons form: the names of the switched-on add-ons (an unchecked switch sends nothing). */
export const addonsFormSchema = z.object({ enabled: z.array(z.enum(addonNames)).default([]) });

/** Every add-on the environment lists, switched on exactly when its name is among `enabled`. */
export function addonsWithEnabled(addons: readonly Addon[], enabled: readonly string[]): Addon[] {
  return addons.map((addon) => ({ name: addon.name, enabled: enabled.includes(addon.name) }));
}
