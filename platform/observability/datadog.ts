import { endpoint, jsonOf } from "../connections/http";
import type { Credentials } from "../connections/providers";
import { fetchOrRefuse, ProviderRefusal } from "../connections/refusals";
import { forwardedMetrics, tagsOf, type MetricBatch } from "./metrics";

/**
 * Datadog's metric intake: POST {DD_URL}/api/v2/series with the DD-API-KEY header; Datadog answers 202 with
 * `{errors: []}`, or 403 for a key it does not know on that site, 400 with the reasons for a body it refuses.
 */

const DEFAULT_SITE = "https://api.datadoghq.com";
/** Datadog's gauge (MetricIntakeType 3): the value at an instant. */
const GAUGE = 3;

/** The body of POST /api/v2/series. */
export function datadogSeriesOf(batch: MetricBatch) {
  return {
    series: batch.series.map((series) => {
      const { name, datadogUnit } = forwardedMetrics[series.metric];
      return {
        metric: name,
        type: GAUGE,
        ...(datadogUnit ? { unit: datadogUnit } : {}),
        points: series.points.map((point) => ({
          timestamp: Math.floor(point.at.getTime() / 1000),
          value: point.value,
        })),
        tags: Object.entries(tagsOf(batch, series)).map(([key, value]) => `${key}:${value}`),
      };
    }),
  };
}

/** Posts `batch` to the connection's Datadog site; a refusal or an unreachable site is a ProviderRefusal. */
export async function postToDatadog(credentials: Credentials, batch: MetricBatch): Promise<string> {
  const site = credentials.fields.DD_URL ?? DEFAULT_SITE;
  const response = await fetchOrRefuse(
    endpoint(site, "/api/v2/series"),
    {
      method: "POST",
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        "DD-API-KEY": credentials.secrets.DD_API_KEY ?? "",
      },
      body: JSON.stringify(datadogSeriesOf(batch)),
    },
    "DD_URL",
  );
  const body = (await jsonOf(response)) as { errors?: unknown } | undefined;
  const errors = Array.isArray(body?.errors) ? body.errors.map(String) : [];
  if (response.status === 202 || response.status === 200) {
    if (errors.length)
      throw new ProviderRefusal(`Datadog kept only part of the metrics: ${errors.join(", ")}`);
    return `Datadog accepted ${batch.series.length} series.`;
  }
  if (response.status === 401 || response.status === 403) {
    throw new ProviderRefusal(
      `Datadog refused the API key for ${new URL(site).host}: check the connection's key and that it belongs to this site.`,
      "DD_API_KEY",
    );
  }
  throw new ProviderRefusal(
    `Datadog answered ${response.status}${errors.length ? `: ${errors.join(", ")}` : "."}`,
  );
}

/**
 * Datadog's metrics explorer for the environment: the app's host of the API site (api.datadoghq.com →
 * app.datadoghq.com, api.us3.datadoghq.com → us3.datadoghq.com), filtered by the environment's tag.
 */
export function datadogDashboardUrl(fields: Credentials["fields"], environmentName: string): string {
  const site = new URL(fields.DD_URL ?? DEFAULT_SITE);
  if (site.hostname.startsWith("api.")) {
    const rest = site.hostname.slice("api.".length);
    site.hostname = rest.split(".").length === 2 ? `app.${rest}` : rest;
  }
  const query = new URLSearchParams({
    exp_metric: forwardedMetrics.cpu.name,
    exp_scope: `env:${environmentName}`,
    exp_agg: "avg",
    exp_row_type: "metric",
  });
  return `${site.origin}/metric/explorer?${query}`;
}
