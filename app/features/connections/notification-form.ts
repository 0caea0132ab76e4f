import * as z from "zod";
import { notificationEvents, type NotificationRules } from "#contract/connections";

/**
 * A Slack or Teams connection's rules as the form sends them: the events checked, and every environment or the
 * ones checked. Turned into the platform's request (`environmentIds` null: every environment).
 */
export const notificationRulesFormSchema = z
  .object({
    intent: z.literal("notifications"),
    events: z.array(z.enum(notificationEvents, { error: "Choose events from the list" })).default([]),
    scope: z.enum(["all", "chosen"], { error: "Choose where the rules apply" }),
    environmentIds: z.array(z.string()).default([]),
  })
  .superRefine((value, context) => {
    if (value.scope === "chosen" && value.environmentIds.length === 0) {
      context.addIssue({
        code: "custom",
        path: ["environmentIds"],
        message: "Choose at least one environment, or all environments",
      });
    }
  })
  .transform(
    (value): NotificationRules => ({
      events: value.events,
      environmentIds: value.scope === "all" ? null : value.environmentIds,
    }),
  );
