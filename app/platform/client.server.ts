import { setTimeout as sleep } from "node:timers/promises";
import * as z from "zod";
import { apiErrorSchema } from "#contract/error-body";
import { errorCodes, errorMessages } from "#contract/errors";
import type { HeldAnswer, HeldAnswers } from "./held-answers.server";

/** The one error type for every failed platform call (SPEC §8). `status` 0 means the server was not reached. */
export class PlatformError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly fieldErrors?: Record<string, string[]>;
  readonly requestId: string;

  constructor(init: {
    status: number;
    message: string;
    requestId: string;
    code?: string;
    fieldErrors?: Record<string, string[]>;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "PlatformError";
    this.status = init.status;
    this.requestId = init.requestId;
    if (init.code !== undefined) this.code = init.code;
    if (init.fieldErrors !== undefined) this.fieldErrors = init.fieldErrors;
  }
}

export function isPlatformError(error: unknown): error is PlatformError {
  return error instanceof PlatformError;
}

export const NETWORK_ERROR_CODE = "NETWORK";
export const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_RETRY_DELAY_MS = 30_000;
/** Three retries whose delay doubles from 1 s, capped at 30 s (SPEC §9). */
export const DEFAULT_RETRY_DELAYS_MS = [0, 1, 2].map((retry) =>
  Math.min(1000 * 2 ** retry, MAX_RETRY_DELAY_MS),
);

export type PlatformRequestLogEntry = {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
};

export type PlatformClientOptions = {
  /** PLATFORM_API_URL, e.g. http://localhost:4000; requests go to `${baseUrl}/api${path}`. */
  baseUrl: string;
  /** The bearer token; an empty one sends no Authorization header. */
  getAccessToken: () => Promise<string>;
  /** Called once on a 401: a fresh token repeats the call once with it; null gives up with PlatformError 401. */
  onUnauthorized?: () => Promise<string | null>;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** One entry per retry; the number of entries is the number of retries of an idempotent call. */
  retryDelaysMs?: number[];
  log?: (entry: PlatformRequestLogEntry) => void;
  /**
   * The caller's answers to earlier GETs that came with an ETag: a GET of the same URL asks with it, and the
   * platform's 304 (nothing changed) is answered with the held one, parsed once (decision 065).
   */
  held?: HeldAnswers;
  /**
   * The incoming request's signal: when the browser goes away, its calls stop and are not retried, instead of
   * keeping the platform busy until their own time-out (issue 27).
   */
  signal?: AbortSignal;
};

type Query = Record<string, string | undefined>;

export type PlatformClient = {
  get<T>(path: string, schema: z.ZodType<T>, options?: { query?: Query }): Promise<T>;
  post<T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<T>;
  put<T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<T>;
  patch<T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<T>;
  delete<T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<T>;
  /** A file POST: fetch sets the multipart content type with its boundary, so none is set here. */
  upload<T>(path: string, schema: z.ZodType<T>, form: FormData): Promise<T>;
};

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Only calls that can be repeated without changing the outcome are retried. */
const IDEMPOTENT_METHODS: ReadonlySet<Method> = new Set(["GET", "PUT", "DELETE"]);

type RequestPlan = {
  method: Method;
  path: string;
  query?: Query;
  /** The ETag of the answer held for this GET. */
  ifNoneMatch?: string;
  payload: { kind: "none" } | { kind: "json"; value: unknown } | { kind: "form"; form: FormData };
};

/** What one attempt produced: a decoded response, or nothing because the server was not reached. */
type AttemptResult =
  | {
      reached: true;
      status: number;
      ok: boolean;
      body: DecodedBody;
      requestId: string;
      etag: string | null;
    }
  | { reached: false; cause: unknown; requestId: string };

type DecodedBody = { kind: "empty" } | { kind: "json"; value: unknown } | { kind: "text"; value: string };

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  // Looked up per call, not captured here, so instrumentation that replaces global fetch later still applies.
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const log = options.log ?? logToConsole;
  const apiRoot = `${options.baseUrl.replace(/\/+$/, "")}/api`;

  async function attempt(plan: RequestPlan, token: string): Promise<AttemptResult> {
    const requestId = crypto.randomUUID();
    const headers = new Headers({ Accept: "application/json", "X-Request-ID": requestId });
    // No token: one of the few calls the platform answers before sign-in (an invitation's preview).
    if (token) headers.set("Authorization", `Bearer ${token}`);
    if (plan.ifNoneMatch) headers.set("If-None-Match", plan.ifNoneMatch);
    let body: BodyInit | undefined;
    if (plan.payload.kind === "form") {
      body = plan.payload.form;
    } else {
      headers.set("Content-Type", "application/json");
      if (plan.payload.kind === "json") body = JSON.stringify(plan.payload.value);
    }

    const startedAt = performance.now();
    let status = 0;
    try {
      // The timeout also covers reading the body, so a server that stalls mid-response cannot hang a loader.
      const response = await fetchImpl(urlFor(apiRoot, plan.path, plan.query), {
        method: plan.method,
        headers,
        body,
        signal: options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      const decoded = await decodeBody(response);
      const etag = response.headers.get("ETag");
      return { reached: true, status, ok: response.ok, body: decoded, requestId, etag };
    } catch (cause) {
      status = 0;
      return { reached: false, cause, requestId };
    } finally {
      log({
        method: plan.method,
        path: plan.path,
        status,
        durationMs: Math.round(performance.now() - startedAt),
        requestId,
      });
    }
  }

  async function sendWithRetries(plan: RequestPlan, token: string): Promise<AttemptResult> {
    const retries = IDEMPOTENT_METHODS.has(plan.method) ? retryDelaysMs.length : 0;
    for (let retry = 0; ; retry++) {
      const result = await attempt(plan, token);
      if (retry >= retries || !isRetryable(result) || options.signal?.aborted) return result;
      await sleep(retryDelaysMs[retry] ?? MAX_RETRY_DELAY_MS);
    }
  }

  async function request<T>(asked: RequestPlan, schema: z.ZodType<T>): Promise<T> {
    const url = urlFor(apiRoot, asked.path, asked.query);
    const held = asked.method === "GET" ? options.held?.get(url) : undefined;
    const plan = held ? { ...asked, ifNoneMatch: held.etag } : asked;
    let result = await sendWithRetries(plan, await options.getAccessToken());
    if (result.reached && result.status === 401 && options.onUnauthorized) {
      const freshToken = await options.onUnauthorized();
      if (freshToken) result = await sendWithRetries(plan, freshToken);
    }
    if (held && result.reached && result.status === 304) return heldValue(plan, result, held, schema);
    if (!result.reached || !result.ok) throw errorFrom(result);
    const value = parseResponse(plan, result, schema);
    if (plan.method === "GET" && result.etag && options.held) {
      options.held.set(url, { etag: result.etag, body: bodyValue(result.body), parsed: { schema, value } });
    }
    return value;
  }

  return {
    get: (path, schema, requestOptions) =>
      request({ method: "GET", path, query: requestOptions?.query, payload: { kind: "none" } }, schema),
    post: (path, schema, body) => request({ method: "POST", path, payload: jsonPayload(body) }, schema),
    put: (path, schema, body) => request({ method: "PUT", path, payload: jsonPayload(body) }, schema),
    patch: (path, schema, body) => request({ method: "PATCH", path, payload: jsonPayload(body) }, schema),
    delete: (path, schema, body) => request({ method: "DELETE", path, payload: jsonPayload(body) }, schema),
    upload: (path, schema, form) =>
      request({ method: "POST", path, payload: { kind: "form", form } }, schema),
  };
}

function jsonPayload(body: unknown): RequestPlan["payload"] {
  return body === undefined ? { kind: "none" } : { kind: "json", value: body };
}

function urlFor(apiRoot: string, path: string, query: Query | undefined): string {
  const url = new URL(`${apiRoot}${path.startsWith("/") ? path : `/${path}`}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.append(name, value);
  }
  return url.toString();
}

async function decodeBody(response: Response): Promise<DecodedBody> {
  if (response.headers.get("Content-Length") === "0") return { kind: "empty" };
  const text = await response.text();
  if (text === "") return { kind: "empty" };
  const contentType = response.headers.get("Content-Type") ?? "";
  if (!/[/+]json\b/i.test(contentType)) return { kind: "text", value: text };
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch {
    // A body that claims to be JSON but is not is still worth showing as text in an error.
    return { kind: "text", value: text };
  }
}

function bodyValue(body: DecodedBody): unknown {
  return body.kind === "empty" ? undefined : body.value;
}

function errorFrom(result: AttemptResult): PlatformError {
  const { requestId } = result;
  if (!result.reached) {
    return new PlatformError({
      status: 0,
      code: NETWORK_ERROR_CODE,
      message: errorMessages.noLink,
      requestId,
      cause: result.cause,
    });
  }
  const apiError = apiErrorSchema.safeParse(bodyValue(result.body));
  if (apiError.success) {
    const { message, code, fieldErrors } = apiError.data;
    return new PlatformError({ status: result.status, message, code, fieldErrors, requestId });
  }
  const message =
    result.body.kind === "text" && result.body.value.trim()
      ? result.body.value.trim()
      : errorMessages.generic;
  return new PlatformError({ status: result.status, message, requestId });
}

function isRetryable(result: AttemptResult): boolean {
  if (!result.reached) return true;
  if (result.ok || result.status < 500 || result.status === 501) return false;
  // The session is gone; repeating the call cannot bring it back (SPEC §8).
  return !errorFrom(result).message.includes(errorMessages.invalidRefreshToken);
}

/** The held answer the platform said is unchanged, parsed again only when asked for with another schema. */
function heldValue<T>(
  plan: RequestPlan,
  result: Extract<AttemptResult, { reached: true }>,
  held: HeldAnswer,
  schema: z.ZodType<T>,
): T {
  if (held.parsed?.schema === schema) return held.parsed.value as T;
  const value = parseResponse(plan, { ...result, body: { kind: "json", value: held.body } }, schema);
  held.parsed = { schema, value };
  return value;
}

function parseResponse<T>(
  plan: RequestPlan,
  result: Extract<AttemptResult, { reached: true }>,
  schema: z.ZodType<T>,
): T {
  const parsed = schema.safeParse(bodyValue(result.body));
  if (parsed.success) return parsed.data;
  console.error(
    `platform ${plan.method} ${plan.path} response not as expected ` +
      `(request-id=${result.requestId}, ${result.body.kind} body):\n${z.prettifyError(parsed.error)}`,
  );
  throw new PlatformError({
    status: 500,
    code: errorCodes.unexpectedResponse,
    message: errorMessages.unexpectedResponse,
    requestId: result.requestId,
    cause: parsed.error,
  });
}

function logToConsole(entry: PlatformRequestLogEntry): void {
  console.info(
    `platform ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs}ms request-id=${entry.requestId}`,
  );
}
