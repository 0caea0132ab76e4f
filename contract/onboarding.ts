import * as z from "zod";
import { onboardingEndings, onboardingStatuses, onboardingSteps } from "./onboarding-steps";

/** The onboarding calls' schemas (issue 17, decision 039); steps, titles and paths are in onboarding-steps.ts. */
export const onboardingStepSchema = z.enum(onboardingSteps);

export const onboardingSchema = z.object({
  status: z.enum(onboardingStatuses),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** Every step offered to the organization (its flags decide), in order, done when its data shows it. */
  checklist: z.array(z.object({ step: onboardingStepSchema, done: z.boolean() })),
});
export type Onboarding = z.infer<typeof onboardingSchema>;
export const onboardingResponseSchema = z.object({ onboarding: onboardingSchema });

/** PUT onboarding: ends it for the organization. The first ending wins; a later one changes nothing. */
export const endOnboardingRequestSchema = z.object({
  status: z.enum(onboardingEndings, { error: "Status must be finished or dismissed" }),
});
export type EndOnboardingRequest = z.infer<typeof endOnboardingRequestSchema>;
