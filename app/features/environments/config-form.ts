import * as z from "zod";
import { environmentConfigSchema, maintenanceDays, type EnvironmentConfig } from "#contract/environments";
import { messages } from "#contract/validation";

/**
 * The contract's configuration as a form submits it: an unchecked switch sends nothing (off), an emptied
 * description sends nothing (empty), and a missing day or hour is called required.
 */
export const configFormSchema = environmentConfigSchema.extend({
  description: environmentConfigSchema.shape.description.default(""),
  autoDeploy: z.boolean().default(false),
  deletionProtection: z.boolean().default(false),
  maintenanceWindow: z.object({
    day: z.enum(maintenanceDays, { error: messages.required("Maintenance day") }),
    hour: z
      .number({ error: messages.required("Maintenance hour") })
      .int("must be an integer")
      .min(0, "must be between 0 and 23")
      .max(23, "must be between 0 and 23"),
  }),
}) satisfies z.ZodType<EnvironmentConfig, unknown>;

export const maintenanceDayOptions = maintenanceDays.map((day) => ({
  value: day,
  label: day.charAt(0).toUpperCase() + day.slice(1),
}));
