import { useRouteLoaderData } from "@remix-run/react";
import type { FeatureFlagName } from "#contract/feature-flags";
import {
  defaultFeatureFlags,
  FEATURE_FLAGS_ROUTE_ID,
  isFeatureEnabled,
  type FeatureFlagsLoaderData,
  type FeatureFlagValues,
} from "./flag-values";

/** All flags of the current organization and environment, as the `routes/_app` loader loaded them. */
export function useFeatureFlags(): FeatureFlagValues {
  const data = useRouteLoaderData<FeatureFlagsLoaderData>(FEATURE_FLAGS_ROUTE_ID);
  return data?.featureFlags ?? defaultFeatureFlags();
}

/** Whether one flag is on; outside the application area the contract default applies. */
export function useFeatureFlag(name: FeatureFlagName): boolean {
  const data = useRouteLoaderData<FeatureFlagsLoaderData>(FEATURE_FLAGS_ROUTE_ID);
  return isFeatureEnabled(data?.featureFlags, name);
}
