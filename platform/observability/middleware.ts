import { endpoint, jsonOf } from "../connections/http";
import type { Credentials } from "../connections/providers";
import { fetchOrRefuse, ProviderRefusal } from "../connections/refusals";
import { urlOf } from "../connections/chat-messages";
import { forwardedMetrics, tagsOf, type MetricBatch } from "./metrics";

/**
 * Middleware's metric intake: OTLP/HTTP with a JSON body, POST {MW_URL}/v1/metrics (Middleware's Data Ingestion
 * API), the account's API key both as the Authorization header (as Middleware's OpenTelemetry set-up sends it) and
 * as the `mw.account_key` resource attribute (as its ingestion API documents it).
 */

type AnyValue = { stringValue: string };
const attribute = (key: string, value: string): { key: string; value: AnyValue } => ({
  key,
  value: { stringValue: value },
});

/** The ExportMetricsServiceRequest (OTLP JSON encoding): one resource per service, its metrics as gauges. */
export function otlpMetricsOf(batch: MetricBatch, credentials: Credentials) {
  const byService = new Map<string, MetricBatch["series"]>();
  for (const series of batch.series) {
    byService.set(series.service.id, [...(byService.get(series.service.id) ?? []), series]);
  }
  return {
    resourceMetrics: [...byService.values()].map((serviceSeries) => {
      const [first] = serviceSeries;
      return {
        resource: {
          attributes: [
            attribute("mw.account_key", credentials.secrets.MW_API_KEY ?? ""),
            attribute("mw.resource_type", "custom"),
            attribute("service.name", first?.service.name ?? ""),
            attribute("deployment.environment", batch.environmentName),
            attribute("project.alias", credentials.fields.MW_PROJECT_ALIAS ?? ""),
          ],
        },
        scopeMetrics: [
          {
            scope: { name: "cloudconsole" },
            metrics: serviceSeries.map((series) => ({
              name: forwardedMetrics[series.metric].name,
              unit: series.unit,
              gauge: {
                dataPoints: series.points.map((point) => ({
                  timeUnixNano: `${BigInt(point.at.getTime()) * 1_000_000n}`,
                  asDouble: point.value,
                  attributes: Object.entries(tagsOf(batch, series)).map(([key, value]) =>
                    attribute(key, value),
                  ),
                })),
              },
            })),
          },
        ],
      };
    }),
  };
}

/** Posts `batch` to the connection's Middleware account; a refusal or an unreachable host is a ProviderRefusal. */
export async function postToMiddleware(credentials: Credentials, batch: MetricBatch): Promise<string> {
  const base = urlOf(credentials.fields.MW_URL ?? "", "MW_URL");
  const response = await fetchOrRefuse(
    endpoint(base.href, "/v1/metrics"),
    {
      method: "POST",
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        Authorization: credentials.secrets.MW_API_KEY ?? "",
      },
      body: JSON.stringify(otlpMetricsOf(batch, credentials)),
    },
    "MW_URL",
  );
  const body = (await jsonOf(response)) as
    | { partialSuccess?: { rejectedDataPoints?: string | number; errorMessage?: string }; message?: string }
    | undefined;
  if (response.ok) {
    const rejected = Number(body?.partialSuccess?.rejectedDataPoints ?? 0);
    if (rejected > 0) {
      const reason = body?.partialSuccess?.errorMessage;
      throw new ProviderRefusal(`Middleware rejected ${rejected} data points${reason ? `: ${reason}` : "."}`);
    }
    return `Middleware accepted ${batch.series.length} series.`;
  }
  if (response.status === 401 || response.status === 403) {
    throw new ProviderRefusal(
      `Middleware refused the API key for ${base.host}: check the connection's key and URL.`,
      "MW_API_KEY",
    );
  }
  throw new ProviderRefusal(
    `Middleware answered ${response.status}${body?.message ? `: ${body.message}` : "."}`,
  );
}

/** Middleware's app is served at the account's own address (MW_URL). */
export function middlewareDashboardUrl(fields: Credentials["fields"]): string {
  return fields.MW_URL ?? "";
}
