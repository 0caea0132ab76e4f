import { onboardingResponseSchema, type Onboarding } from "#contract/onboarding";
import { onboardingPaths, type OnboardingEnding } from "#contract/onboarding-steps";
import type { PlatformClient } from "./client.server";

/** GET onboarding: the organization's onboarding state and its checklist, ticked from its data. */
export async function getOnboarding(api: PlatformClient, tenantId: string): Promise<Onboarding> {
  const { onboarding } = await api.get(onboardingPaths.one(tenantId), onboardingResponseSchema);
  return onboarding;
}

/** PUT onboarding: finishes or dismisses it for the whole organization (the first ending wins). */
export async function endOnboarding(
  api: PlatformClient,
  tenantId: string,
  status: OnboardingEnding,
): Promise<Onboarding> {
  const { onboarding } = await api.put(onboardingPaths.one(tenantId), onboardingResponseSchema, { status });
  return onboarding;
}
