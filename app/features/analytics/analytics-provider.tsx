import { createContext, useContext, useEffect, useMemo, type ReactNode } from "react";
import { createAnalytics, type Analytics, type AnalyticsConfig, type AnalyticsUser } from "./analytics";

const AnalyticsContext = createContext<Analytics>(createAnalytics(null));

/**
 * Makes the analytics client available below it. The server renders with a no-op client: events are only ever
 * sent from the browser, with the public configuration the root loader hands over.
 */
export function AnalyticsProvider({
  config,
  children,
}: {
  config: AnalyticsConfig | null | undefined;
  children: ReactNode;
}) {
  const host = config?.host;
  const key = config?.key;
  const flagVariant = config?.flagVariant;
  // Keyed by the values, not the object: the root loader hands over a fresh object on every revalidation.
  const analytics = useMemo(
    () =>
      typeof window !== "undefined" && host && key && flagVariant
        ? createAnalytics({ host, key, flagVariant })
        : createAnalytics(null),
    [host, key, flagVariant],
  );
  return <AnalyticsContext.Provider value={analytics}>{children}</AnalyticsContext.Provider>;
}

/** The analytics client: `capture`, `identify`, `reset`, `featureFlagPayload`. */
export function useAnalytics(): Analytics {
  return useContext(AnalyticsContext);
}

/** Identifies the signed-in user and adds the current organization to every later event. */
export function useAnalyticsIdentity(user: AnalyticsUser | null, organizationId: string | null): void {
  const analytics = useAnalytics();
  const id = user?.id;
  const email = user?.email;
  const name = user?.name;
  useEffect(() => {
    if (id !== undefined && email !== undefined && name !== undefined)
      analytics.identify({ id, email, name });
  }, [analytics, id, email, name]);
  useEffect(() => {
    analytics.setOrganization(organizationId);
  }, [analytics, organizationId]);
}
