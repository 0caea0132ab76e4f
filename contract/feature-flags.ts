// The flag catalogue and paths only, without zod: the app shell reads the defaults on every page (the request and
// response schemas are in feature-flag-schemas.ts).

/** Flag name to on/off, as GET /v2/feature-flags answers. */
export type FeatureFlags = Record<string, boolean>;

export const featureFlagPaths = {
  list: ({ organizationId, environmentId }: { organizationId: string; environmentId?: string }) =>
    `/v2/feature-flags?${new URLSearchParams(environmentId ? { organizationId, environmentId } : { organizationId })}`,
};

/**
 * Every flag the product reads (SPEC §6) and the value a tenant gets when the platform has neither a default row
 * (feature_flags.tenant_id null) nor a row of the tenant's own for it. Features start off: each is switched on
 * deliberately, platform-wide by a default row or per tenant by an override row. The two permission flags start on:
 * the UI reflecting what the platform enforces is the product's behaviour (issue 12), a row can switch it off.
 */
export const featureFlagDefaults = {
  /** Several containers in one service. */
  "multi-container": false,
  /** When on, environment cloning is hidden. */
  "cloning-hidden": false,
  "schedule-based-autoscaling": false,
  "private-chart-apps": false,
  "global-variables": false,
  /** Slack and Teams: on, as onboarding's last step offers them to every new organization (decision 055). */
  "notification-connections": true,
  "document-database": false,
  /** Azure as a cloud provider (SPEC §3: Azure is enabled only by a feature flag). */
  "azure-connection": false,
  "version-control-connection": false,
  alarms: false,
  /** With "users-v2", loads the current user's permissions (SPEC §6). */
  "rbac-permissions-ui": true,
  "users-v2": true,
} as const satisfies Record<string, boolean>;
export type FeatureFlagName = keyof typeof featureFlagDefaults;
