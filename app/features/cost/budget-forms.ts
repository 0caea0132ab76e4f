import * as z from "zod";
import { budgetRequestSchema } from "#contract/cost";

/** The budgets page's forms, told apart by their `intent`; amounts checked as the platform checks them. */
export const budgetFormSchema = z.discriminatedUnion("intent", [
  // No environment chosen: the organization's budget.
  budgetRequestSchema.extend({
    intent: z.literal("create"),
    environmentId: budgetRequestSchema.shape.environmentId.unwrap().unwrap().optional(),
  }),
  budgetRequestSchema.pick({ amount: true }).extend({
    intent: z.literal("update"),
    budgetId: z.string({ error: "Choose the budget to change" }),
    scope: z.string().default("The budget"),
  }),
  z.object({
    intent: z.literal("delete"),
    budgetId: z.string({ error: "Choose the budget to delete" }),
    scope: z.string().default("The budget"),
  }),
]);
export type BudgetForm = z.infer<typeof budgetFormSchema>;

/** How a budget's scope reads: its environment, or the whole organization. */
export function scopeLabel(environmentName: string | null): string {
  return environmentName ?? "Organization";
}
