import type * as z from "zod";
import type { observabilityConnectionKindSchema } from "#contract/services";
import type { Credentials } from "../connections/providers";
import { datadogDashboardUrl, postToDatadog } from "./datadog";
import type { MetricBatch } from "./metrics";
import { middlewareDashboardUrl, postToMiddleware } from "./middleware";

export type ObservabilityKind = z.infer<typeof observabilityConnectionKindSchema>;

/** Each observability kind's metric intake and the dashboard its users look at. */
export const metricIntakes: Record<
  ObservabilityKind,
  {
    /** Says how the provider took the batch; its refusal or an unreachable host throws a ProviderRefusal. */
    post: (credentials: Credentials, batch: MetricBatch) => Promise<string>;
    dashboardUrl: (fields: Credentials["fields"], environmentName: string) => string;
  }
> = {
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: { post: postToDatadog, dashboardUrl: datadogDashboardUrl },
  OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE: { post: postToMiddleware, dashboardUrl: middlewareDashboardUrl },
};

export const isObservabilityKind = (kind: string): kind is ObservabilityKind => kind in metricIntakes;
