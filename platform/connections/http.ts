import { outboundFetch, OutboundRefusedError, type OutboundTls } from "../lib/egress";

/**
 * Calls a provider's HTTP API for a connection (checks, listings, notifications, metrics), under the egress policy
 * (platform/lib/egress.ts). Every failure becomes a sentence a user can act on: a host that does not resolve or
 * refuses says so (this machine may have no internet), an internal address the policy refuses says which and why,
 * a slow one is given up after 10 s (SPEC §9's HTTP time-out), and nothing ever hangs.
 */

export const PROVIDER_TIMEOUT_MS = 10_000;

/** The provider could not be reached or did not answer; `message` is for the user. */
export class ProviderUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderUnreachableError";
  }
}

const networkReasons: Record<string, string> = {
  ENOTFOUND: "its name does not resolve (is this machine offline, or the address mistyped?)",
  EAI_AGAIN: "its name could not be resolved (is this machine offline?)",
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  EHOSTUNREACH: "the host is unreachable from this machine",
  ENETUNREACH: "the network is unreachable from this machine (no internet?)",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate could not be verified",
  // undici's word for a peer that hung up before answering (a TLS server refusing a client certificate does).
  UND_ERR_SOCKET: "it closed the connection without an answer",
};

/** The error and its causes, outermost first (fetch wraps the network's error in a TypeError). */
function* causesOf(error: unknown): Generator<object> {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

function causeCode(error: unknown): string | undefined {
  for (const cause of causesOf(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** "Could not reach api.datadoghq.com: its name does not resolve (…)" for a failed fetch or SDK call. */
export function unreachableMessage(
  url: string | URL,
  error: unknown,
  timeoutMs = PROVIDER_TIMEOUT_MS,
): string {
  const refused = [...causesOf(error)].find((cause) => cause instanceof OutboundRefusedError);
  if (refused) return (refused as OutboundRefusedError).message;
  const host = new URL(url).host;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    const seconds = Math.max(Math.round(timeoutMs / 1000), 1);
    return `${host} did not answer within ${seconds} second${seconds === 1 ? "" : "s"}.`;
  }
  const code = causeCode(error);
  const reason = (code && networkReasons[code]) ?? (code ? `the network said ${code}` : "the request failed");
  return `Could not reach ${host}: ${reason}.`;
}

/**
 * fetch with the time-out; a network failure throws ProviderUnreachableError with the plain-words reason. Any
 * HTTP answer (4xx and 5xx included) is returned for the caller to explain in the provider's terms.
 */
export async function providerFetch(
  url: string | URL,
  init: RequestInit = {},
  { timeoutMs = PROVIDER_TIMEOUT_MS, tls }: { timeoutMs?: number; tls?: OutboundTls } = {},
): Promise<Response> {
  try {
    return await outboundFetch(
      url,
      { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) },
      tls ? { tls } : {},
    );
  } catch (error) {
    throw new ProviderUnreachableError(unreachableMessage(url, error, timeoutMs));
  }
}

/** The body of an answer as JSON, or undefined when it is not JSON (an HTML error page, an empty body). */
export async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Joins a connection's base URL (kept without a trailing slash) and an API path. */
export function endpoint(baseUrl: string, path: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, "")}${path}`);
}
