/**
 * Error reporting (SPEC §8, §9) in Rollbar's item format, usable in the browser and on the server.
 *
 * - Reports whose message contains 'Item sent with null or missing arguments' are ignored entirely.
 * - Reporting is off on local hostnames (see `classifyHostname`): items then go to the console only, as they do
 *   when no endpoint is configured or an item is dropped by a limit below.
 * - At most 60 items leave the process per minute (a fixed window starting with its first item).
 * - The last 100 telemetry events (navigations, network failures, ...) travel with each item.
 * - An item's JSON is at most 524288 bytes: above that its telemetry is dropped, then every string is cut to 1024
 *   characters and every list to its last 50 entries (for a stack trace, the innermost frames); an item still
 *   above the limit is not sent.
 */

export const IGNORED_MESSAGE = "Item sent with null or missing arguments";
export const MAX_ITEMS_PER_MINUTE = 60;
export const MAX_TELEMETRY_EVENTS = 100;
export const MAX_PAYLOAD_BYTES = 524_288;
const RATE_WINDOW_MS = 60_000;
const TRUNCATED_STRING_LENGTH = 1024;
const TRUNCATED_FRAME_COUNT = 50;

/** The configuration the browser may see: the endpoint and a client-side (post_client_item) token. */
export type ErrorReportingConfig = { endpoint: string | null; token: string | null };

export type Deployment = "local" | "development" | "staging" | "production";

/**
 * SPEC §9 recognises hostnames by their first label: localhost, app-dev, staging, app. Local means this machine:
 * first label localhost, `*.localhost`, loopback addresses and 0.0.0.0, and reporting is off there. app-dev and
 * staging are shared non-production deployments whose errors are worth collecting, so they report, tagged with
 * their environment; app and any other (custom) domain count as production.
 */
export function classifyHostname(hostname: string): Deployment {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const firstLabel = host.split(".")[0] ?? "";
  if (
    firstLabel === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    host === "0.0.0.0" ||
    /^127(\.\d{1,3}){3}$/.test(host)
  ) {
    return "local";
  }
  if (firstLabel === "app-dev") return "development";
  if (firstLabel === "staging") return "staging";
  return "production";
}

export type ReportLevel = "critical" | "error" | "warning" | "info" | "debug";

export type TelemetryEvent = {
  type: "navigation" | "network" | "log" | "error" | "manual";
  level?: ReportLevel;
  body: Record<string, unknown>;
};

export type ReportContext = {
  level?: ReportLevel;
  /** The page or request the error belongs to. */
  url?: string;
  person?: { id: string; email?: string };
  custom?: Record<string, unknown>;
};

export type ReportOutcome =
  /** handed to the endpoint */
  | "sent"
  /** contains the ignored message: not sent and not logged */
  | "ignored"
  /** local hostname: console only */
  | "disabled"
  /** no endpoint configured: console only */
  | "console"
  /** over 60 items this minute: console only */
  | "rate-limited"
  /** still over 524288 bytes after truncation: console only */
  | "too-large";

export type ErrorReporter = {
  /** Whether items can leave the process at all (an endpoint is set and the host is not local). */
  readonly enabled: boolean;
  report(error: unknown, context?: ReportContext): ReportOutcome;
  recordTelemetry(event: TelemetryEvent): void;
};

export type ErrorReporterOptions = {
  config: ErrorReportingConfig;
  /** The host the code runs under: the page's in the browser, APP_URL's on the server. */
  hostname: string;
  platform: "browser" | "node";
  /** Milliseconds since the epoch; injectable so tests control time. */
  now?: () => number;
  /** Delivers one JSON item; failures must not throw. */
  send?: (endpoint: string, body: string) => void;
  console?: Pick<Console, "error">;
  newId?: () => string;
};

type Telemetry = TelemetryEvent & { timestamp_ms: number; level: ReportLevel };
type Frame = { filename: string; lineno?: number; colno?: number; method?: string };

export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const now = options.now ?? Date.now;
  const out = options.console ?? console;
  const send = options.send ?? sendWithFetch;
  const newId = options.newId ?? randomId;
  const deployment = classifyHostname(options.hostname);
  const { endpoint, token } = options.config;
  const telemetry: Telemetry[] = [];
  let windowStart = Number.NEGATIVE_INFINITY;
  let itemsInWindow = 0;

  function withinRate(at: number): boolean {
    if (at - windowStart >= RATE_WINDOW_MS) {
      windowStart = at;
      itemsInWindow = 0;
    }
    if (itemsInWindow >= MAX_ITEMS_PER_MINUTE) return false;
    itemsInWindow++;
    return true;
  }

  return {
    enabled: endpoint !== null && deployment !== "local",

    report(error, context = {}) {
      if (messageOf(error).includes(IGNORED_MESSAGE)) return "ignored";
      const outcome = deliver(error, context);
      if (outcome !== "sent") out.error(error);
      return outcome;
    },

    recordTelemetry(event) {
      telemetry.push({ ...event, level: event.level ?? "info", timestamp_ms: now() });
      if (telemetry.length > MAX_TELEMETRY_EVENTS)
        telemetry.splice(0, telemetry.length - MAX_TELEMETRY_EVENTS);
    },
  };

  function deliver(error: unknown, context: ReportContext): ReportOutcome {
    if (deployment === "local") return "disabled";
    if (endpoint === null) return "console";
    const at = now();
    const body = fitPayload({
      ...(token ? { access_token: token } : {}),
      data: {
        environment: deployment,
        platform: options.platform,
        language: "javascript",
        level: context.level ?? "error",
        timestamp: Math.floor(at / 1000),
        uuid: newId(),
        notifier: { name: "cloud-console" },
        body: { ...itemBody(error), telemetry: [...telemetry] },
        ...(context.url ? { request: { url: context.url } } : {}),
        ...(context.person ? { person: context.person } : {}),
        ...(context.custom ? { custom: context.custom } : {}),
      },
    });
    if (body === null) return "too-large";
    if (!withinRate(at)) return "rate-limited";
    send(endpoint, body);
    return "sent";
  }
}

/** The JSON of an item within MAX_PAYLOAD_BYTES, or null when even the truncated item is larger. */
export function fitPayload(item: Record<string, unknown>): string | null {
  let json = safeStringify(item);
  if (byteLength(json) <= MAX_PAYLOAD_BYTES) return json;
  const data = item.data as { body?: Record<string, unknown> } | undefined;
  const withoutTelemetry = { ...item, data: { ...data, body: { ...data?.body, telemetry: [] } } };
  json = safeStringify(withoutTelemetry);
  if (byteLength(json) <= MAX_PAYLOAD_BYTES) return json;
  json = safeStringify(truncate(withoutTelemetry));
  return byteLength(json) <= MAX_PAYLOAD_BYTES ? json : null;
}

function itemBody(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const frames = parseStack(error.stack);
    if (frames.length > 0) {
      return { trace: { frames, exception: { class: error.name, message: error.message } } };
    }
    return { message: { body: `${error.name}: ${error.message}` } };
  }
  return { message: { body: messageOf(error) } };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  if (error === null || error === undefined) return String(error);
  return safeStringify(error);
}

/** V8 ("at fn (file:1:2)") and Firefox/Safari ("fn@file:1:2") stack lines; the oldest call first, as Rollbar wants. */
function parseStack(stack: string | undefined): Frame[] {
  const frames: Frame[] = [];
  for (const line of (stack ?? "").split("\n")) {
    const match =
      /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/.exec(line) ??
      /^\s*(.*?)@(.+?):(\d+):(\d+)\s*$/.exec(line);
    if (!match) continue;
    const [, method, filename = "", lineno, colno] = match;
    frames.push({
      filename,
      lineno: Number(lineno),
      colno: Number(colno),
      ...(method ? { method } : {}),
    });
  }
  return frames.reverse();
}

function truncate(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length > TRUNCATED_STRING_LENGTH ? `${value.slice(0, TRUNCATED_STRING_LENGTH)}…` : value;
  }
  if (Array.isArray(value)) return value.slice(-TRUNCATED_FRAME_COUNT).map(truncate);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, truncate(entry)]));
  }
  return value;
}

function safeStringify(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, entry: unknown) => {
    if (typeof entry === "bigint") return entry.toString();
    if (typeof entry === "object" && entry !== null) {
      if (seen.has(entry)) return "[Repeated]";
      seen.add(entry);
    }
    return entry;
  });
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Small items keep going while the page unloads (keepalive allows at most 64 KiB). */
function sendWithFetch(endpoint: string, body: string): void {
  fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
    keepalive: byteLength(body) < 60_000,
  }).catch(() => undefined);
}

/** A random id; crypto.randomUUID exists only in secure contexts, so plain-http deployments use random bytes. */
function randomId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
}
