/**
 * Product analytics (SPEC §7 Analytics) over PostHog's public HTTP API, without an SDK. With no configuration
 * every call is a no-op. Nothing here may break the page: transport failures are swallowed.
 */

/** What the browser receives: the host and the project's public key only. */
export type AnalyticsConfig = { host: string; key: string; flagVariant: FlagVariant };
export type FlagVariant = "prod" | "dev";
export type AnalyticsUser = { id: string; email: string; name: string };
export type AnalyticsProperties = Record<string, unknown>;

export type Analytics = {
  readonly enabled: boolean;
  /** A named event; the current organization's id is added as `organizationId`. */
  capture(event: string, properties?: AnalyticsProperties): void;
  /** Ties later events to the user, keyed `${email}:${id}`, with `email` and `name` set on the person. */
  identify(user: AnalyticsUser): void;
  /** The organization added to every event from now on; null stops adding one. */
  setOrganization(organizationId: string | null): void;
  /** On logout: forgets the user and organization and starts a new anonymous id. */
  reset(): void;
  /**
   * The payload of an analytics feature flag for this deployment: when the payload holds `prod`/`dev` variants,
   * the configured one (SPEC §6: local development reads the dev variant), otherwise the payload as it is.
   * Undefined when analytics is off, the flag has no payload or the service cannot be reached.
   */
  featureFlagPayload(flag: string): Promise<unknown>;
};

type KeyValueStorage = Pick<Storage, "getItem" | "setItem">;

export type AnalyticsDependencies = {
  /** Fire-and-forget POST of a JSON body; defaults to navigator.sendBeacon, else fetch with keepalive. */
  send?: (url: string, body: string) => void;
  fetch?: typeof fetch;
  /** Where the distinct id survives reloads; defaults to localStorage when the browser allows it. */
  storage?: KeyValueStorage | null;
  now?: () => Date;
  newId?: () => string;
};

/** localStorage key of the current distinct id and whether it belongs to an identified user. */
export const ANALYTICS_IDENTITY_KEY = "analytics-identity";

type Identity = { distinctId: string; identified: boolean };

const noop: Analytics = {
  enabled: false,
  capture: () => undefined,
  identify: () => undefined,
  setOrganization: () => undefined,
  reset: () => undefined,
  featureFlagPayload: async () => undefined,
};

export function analyticsDistinctId(user: Pick<AnalyticsUser, "id" | "email">): string {
  return `${user.email}:${user.id}`;
}

export function createAnalytics(config: AnalyticsConfig | null, deps: AnalyticsDependencies = {}): Analytics {
  if (!config) return noop;
  const host = config.host.replace(/\/+$/, "");
  const { key, flagVariant } = config;
  const fetchImpl = deps.fetch ?? ((input, init) => fetch(input, init));
  const send = deps.send ?? ((url: string, body: string) => sendInBackground(url, body, fetchImpl));
  const storage = deps.storage === undefined ? browserStorage() : deps.storage;
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? randomId;

  let identity = readIdentity(storage) ?? saveIdentity(storage, { distinctId: newId(), identified: false });
  let organizationId: string | null = null;
  let payloads: { distinctId: string; values: Promise<Record<string, unknown>> } | null = null;

  function post(event: string, distinctId: string, properties: AnalyticsProperties) {
    const body = {
      api_key: key,
      event,
      distinct_id: distinctId,
      timestamp: now().toISOString(),
      properties: { ...properties, $lib: "cloud-console" },
    };
    send(`${host}/capture/`, JSON.stringify(body));
  }

  function loadPayloads(): Promise<Record<string, unknown>> {
    if (payloads?.distinctId === identity.distinctId) return payloads.values;
    const values = requestPayloads(fetchImpl, host, key, identity.distinctId);
    payloads = { distinctId: identity.distinctId, values };
    return values;
  }

  return {
    enabled: true,
    capture(event, properties = {}) {
      post(event, identity.distinctId, organizationId ? { ...properties, organizationId } : properties);
    },
    identify(user) {
      const distinctId = analyticsDistinctId(user);
      if (identity.identified && identity.distinctId === distinctId) return;
      // An anonymous id is merged into the user; a different identified user's id must never be.
      const merge = identity.identified ? {} : { $anon_distinct_id: identity.distinctId };
      post("$identify", distinctId, { ...merge, $set: { email: user.email, name: user.name } });
      identity = saveIdentity(storage, { distinctId, identified: true });
    },
    setOrganization(id) {
      organizationId = id;
    },
    reset() {
      organizationId = null;
      payloads = null;
      identity = saveIdentity(storage, { distinctId: newId(), identified: false });
    },
    async featureFlagPayload(flag) {
      const payload = (await loadPayloads())[flag];
      return selectFlagVariant(payload, flagVariant);
    },
  };
}

/** `{ prod, dev }` payloads give the variant of this deployment; any other payload applies everywhere. */
export function selectFlagVariant(payload: unknown, variant: FlagVariant): unknown {
  if (isRecord(payload) && ("prod" in payload || "dev" in payload)) return payload[variant];
  return payload;
}

async function requestPayloads(
  fetchImpl: typeof fetch,
  host: string,
  key: string,
  distinctId: string,
): Promise<Record<string, unknown>> {
  try {
    const response = await fetchImpl(`${host}/decide/?v=3`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ api_key: key, distinct_id: distinctId }),
    });
    if (!response.ok) return {};
    const body: unknown = await response.json();
    const raw = isRecord(body) && isRecord(body.featureFlagPayloads) ? body.featureFlagPayloads : {};
    return Object.fromEntries(Object.entries(raw).map(([flag, value]) => [flag, decodePayload(value)]));
  } catch {
    return {};
  }
}

/** The decide API sends payloads as JSON text (v3) or as values (later versions). */
function decodePayload(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function sendInBackground(url: string, body: string, fetchImpl: typeof fetch): void {
  // text/plain keeps the request "simple" (no CORS preflight); the capture API reads the body as JSON anyway.
  const blob = new Blob([body], { type: "text/plain" });
  if (typeof navigator !== "undefined" && typeof navigator.sendBeacon === "function") {
    try {
      if (navigator.sendBeacon(url, blob)) return;
    } catch {
      // Fall through to fetch.
    }
  }
  fetchImpl(url, { method: "POST", body: blob, keepalive: true }).catch(() => undefined);
}

function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

function readIdentity(storage: KeyValueStorage | null): Identity | null {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(ANALYTICS_IDENTITY_KEY) ?? "null");
    if (isRecord(parsed) && typeof parsed.distinctId === "string" && typeof parsed.identified === "boolean") {
      return { distinctId: parsed.distinctId, identified: parsed.identified };
    }
  } catch {
    // A damaged entry is replaced by a fresh anonymous id.
  }
  return null;
}

function saveIdentity(storage: KeyValueStorage | null, identity: Identity): Identity {
  try {
    storage?.setItem(ANALYTICS_IDENTITY_KEY, JSON.stringify(identity));
  } catch {
    // Storage full or blocked: the id lives for this page only.
  }
  return identity;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A random id; crypto.randomUUID exists only in secure contexts, so plain-http deployments use random bytes. */
function randomId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
}
