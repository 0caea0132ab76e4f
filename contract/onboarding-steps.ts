/**
 * An organization's onboarding (issue 17, SPEC §2.2 Onboarding, decision 039). It starts when an organization is
 * created through the form and ends for the whole organization when a member finishes or dismisses it. The
 * checklist is computed from the organization's data, never from clicks. No zod here: the onboarding pages
 * import these in the browser (contract/onboarding.ts has the schemas).
 */

import type { FeatureFlagName } from "./feature-flags";

/** The walk-through's steps, in order. */
export const onboardingSteps = [
  "cloud-account",
  "environment",
  "application",
  "team",
  "notifications",
] as const;
export type OnboardingStep = (typeof onboardingSteps)[number];

/**
 * A step whose feature sits behind a flag is offered only while the flag is on for the organization (decision 055):
 * the walk-through never sends a user to a page that is not there for them, and the count is of offered steps.
 */
export const onboardingStepFlags: Partial<Record<OnboardingStep, FeatureFlagName>> = {
  notifications: "notification-connections",
};

/** The steps offered to an organization with these flags, in order. */
export function offeredOnboardingSteps(flags: Record<string, boolean>): OnboardingStep[] {
  return onboardingSteps.filter((step) => {
    const flag = onboardingStepFlags[step];
    return !flag || flags[flag] === true;
  });
}

export const onboardingStepTitles: Record<OnboardingStep, string> = {
  "cloud-account": "Connect a cloud account",
  environment: "Create an environment",
  application: "Deploy your first application",
  team: "Invite your team",
  notifications: "Connect Slack or Teams",
};

/** What ticks each step: said on the overview, so a user knows why a step is (not yet) ticked. */
export const onboardingStepCriteria: Record<OnboardingStep, string> = {
  "cloud-account": "An AWS, GCP or Azure account is connected and verified.",
  environment: "The organization has an environment.",
  application: "An application has been deployed at least once.",
  team: "A second member has joined, or an invitation has been sent.",
  notifications: "A Slack or Teams connection exists.",
};

/** not-started: an organization created before onboarding existed, or not through the form. */
export const onboardingStatuses = ["not-started", "in-progress", "finished", "dismissed"] as const;
export type OnboardingStatus = (typeof onboardingStatuses)[number];

export const onboardingEndings = ["finished", "dismissed"] as const;
export type OnboardingEnding = (typeof onboardingEndings)[number];

export const onboardingPaths = {
  /** GET the state and checklist; PUT endOnboardingRequestSchema. */
  one: (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}/onboarding`,
};

export function isOnboardingInProgress(onboarding: { status: OnboardingStatus }): boolean {
  return onboarding.status === "in-progress";
}
