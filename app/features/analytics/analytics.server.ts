import { getEnv, type AppEnv } from "~/env.server";
import type { AnalyticsConfig } from "./analytics";

/** The configuration the browser may see (host, public project key, flag variant), or null when analytics is off. */
export function publicAnalyticsConfig(env: AppEnv = getEnv()): AnalyticsConfig | null {
  if (!env.analytics) return null;
  const { host, key, flagVariant } = env.analytics;
  return { host, key, flagVariant };
}

/** Origins the page must be allowed to connect to (CSP connect-src) for analytics to reach its host. */
export function analyticsConnectSources(env: AppEnv = getEnv()): string[] {
  return env.analytics ? [new URL(env.analytics.host).origin] : [];
}
