import type { OnboardingStep } from "#contract/onboarding-steps";

/** The app's onboarding pages (SPEC §2.2 Onboarding); kept apart so the shell and the error page stay small. */
export const onboardingPages = {
  walkThrough: "/onboarding",
  step: (step: OnboardingStep) => `/onboarding?${new URLSearchParams({ step })}`,
  overview: "/onboarding/overview",
};
