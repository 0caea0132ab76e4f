import { featureFlagDefaults, type FeatureFlagName, type FeatureFlags } from "#contract/feature-flags";

/** Flag name to on/off, as GET /v2/feature-flags answers (the platform fills in every catalogued flag). */
export type FeatureFlagValues = FeatureFlags;

/** The id of the route whose loader carries the flags to components. */
export const FEATURE_FLAGS_ROUTE_ID = "routes/_app";

/** What the `routes/_app` loader must return (among its other fields) for the flag hooks to work. */
export type FeatureFlagsLoaderData = { featureFlags: FeatureFlagValues };

/** Every catalogued flag at its contract default: for pages rendered before an organization is known. */
export function defaultFeatureFlags(): FeatureFlagValues {
  return { ...featureFlagDefaults };
}

/** A flag's value, falling back to the contract default when the platform did not name it. */
export function isFeatureEnabled(flags: FeatureFlagValues | undefined, name: FeatureFlagName): boolean {
  return flags?.[name] ?? featureFlagDefaults[name];
}
