import { startTestServer } from "./chat-servers";

/**
 * Small real HTTP servers that check what Datadog's and Middleware's metric intakes check (the API key, the body's
 * shape, points no older than an hour) and answer as they do, recording what they accepted.
 */

const json = (status: number, body: unknown) => ({
  status,
  body: JSON.stringify(body),
  contentType: "application/json",
});
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export type DatadogSeries = {
  metric: string;
  type: number;
  unit?: string;
  points: { timestamp: number; value: number }[];
  tags: string[];
};

/** POST /api/v2/series: 202 {errors: []}; 403 for an unknown DD-API-KEY; 400 for a body or point it refuses. */
export async function startDatadogIntake({ keys, now }: { keys: string[]; now: () => Date }) {
  const accepted: DatadogSeries[][] = [];
  const server = await startTestServer((request) => {
    if (request.method !== "POST" || request.path !== "/api/v2/series")
      return json(404, { errors: ["Not found"] });
    if (!keys.includes(String(request.headers["dd-api-key"] ?? "")))
      return json(403, { errors: ["Forbidden"] });
    if (!String(request.headers["content-type"]).startsWith("application/json"))
      return json(415, { errors: ["Unsupported Media Type"] });
    const body = parse(request.body);
    const series = isRecord(body) && Array.isArray(body.series) ? (body.series as unknown[]) : undefined;
    if (!series) return json(400, { errors: ["series is required"] });
    const nowSeconds = now().getTime() / 1000;
    for (const entry of series) {
      if (
        !isRecord(entry) ||
        typeof entry.metric !== "string" ||
        entry.type !== 3 ||
        !Array.isArray(entry.points) ||
        !Array.isArray(entry.tags) ||
        !entry.tags.every((tag) => typeof tag === "string" && tag.includes(":"))
      )
        return json(400, { errors: ["Invalid series"] });
      for (const point of entry.points as unknown[]) {
        if (!isRecord(point) || !Number.isInteger(point.timestamp) || typeof point.value !== "number")
          return json(400, { errors: ["Invalid point"] });
        const timestamp = point.timestamp as number;
        if (timestamp < nowSeconds - 3600 || timestamp > nowSeconds + 600)
          return json(400, { errors: [`Point timestamp ${timestamp} is not within the last hour`] });
      }
    }
    accepted.push(series as DatadogSeries[]);
    return json(202, { errors: [] });
  });
  return { ...server, accepted };
}
export type DatadogIntake = Awaited<ReturnType<typeof startDatadogIntake>>;

type KeyValue = { key: string; value: { stringValue?: string } };
export type OtlpRequest = {
  resourceMetrics: {
    resource: { attributes: KeyValue[] };
    scopeMetrics: {
      metrics: {
        name: string;
        unit?: string;
        gauge: { dataPoints: { timeUnixNano: string; asDouble: number; attributes: KeyValue[] }[] };
      }[];
    }[];
  }[];
};

/**
 * POST /v1/metrics (OTLP/HTTP JSON): 200 {partialSuccess: {}}; 401 unless the Authorization header and the
 * `mw.account_key` resource attribute carry a known key; 400 for a body that is not an OTLP metrics request.
 */
export async function startMiddlewareIntake({ keys }: { keys: string[] }) {
  const accepted: OtlpRequest[] = [];
  const server = await startTestServer((request) => {
    if (request.method !== "POST" || request.path !== "/v1/metrics")
      return json(404, { message: "Not found" });
    const body = parse(request.body) as Partial<OtlpRequest> | undefined;
    if (!Array.isArray(body?.resourceMetrics)) return json(400, { message: "resourceMetrics is required" });
    const accountKeys = body.resourceMetrics.map(
      (resource) =>
        resource.resource.attributes.find((entry) => entry.key === "mw.account_key")?.value.stringValue,
    );
    const header = String(request.headers.authorization ?? "");
    if (!keys.includes(header) || !accountKeys.every((key) => key === header))
      return json(401, { message: "invalid account key" });
    const wellFormed = body.resourceMetrics.every((resource) =>
      resource.scopeMetrics.every((scope) =>
        scope.metrics.every((metric) =>
          metric.gauge.dataPoints.every(
            (point) => /^\d{19}$/.test(point.timeUnixNano) && typeof point.asDouble === "number",
          ),
        ),
      ),
    );
    if (!wellFormed) return json(400, { message: "invalid data points" });
    accepted.push(body as OtlpRequest);
    return json(200, { partialSuccess: {} });
  });
  return { ...server, accepted };
}
export type MiddlewareIntake = Awaited<ReturnType<typeof startMiddlewareIntake>>;
