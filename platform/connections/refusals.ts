import type { ConnectionFieldName } from "#contract/connections";
import { providerFetch, ProviderUnreachableError } from "./http";
import { ProviderRequestError, type CheckResult, type Credentials } from "./providers";

/**
 * How the HTTP providers report a provider's "no": one error type carrying the user's message and the field to fix,
 * turned into a failed check on save or 'Test connection', and into the listing routes' 502 (or the ticket route's answer) otherwise.
 */

/** The provider refused or could not serve a request; `field` is the connection field to fix, when one is. */
export class ProviderRefusal extends ProviderRequestError {
  constructor(
    message: string,
    readonly field?: ConnectionFieldName,
  ) {
    super(message);
    this.name = "ProviderRefusal";
  }
}

/** `text` with every secret of `credentials` blanked: a provider that echoes a token back never gets it shown. */
export function withoutSecrets(text: string, ...credentials: Credentials[]): string {
  const secrets = credentials
    .flatMap((one) => Object.values(one.secrets))
    .filter((secret): secret is string => typeof secret === "string" && secret.length >= 4);
  return secrets.reduce((scrubbed, secret) => scrubbed.split(secret).join("[secret]"), text);
}

/**
 * A check's failure from what the provider's calls threw: a refusal names its field, an unreachable host names
 * `unreachableField` (the URL to fix). Anything else is a bug and is thrown on.
 */
export function failedCheck(
  error: unknown,
  unreachableField: ConnectionFieldName,
  ...credentials: Credentials[]
): CheckResult {
  if (error instanceof ProviderUnreachableError) {
    return { ok: false, message: error.message, details: [], field: unreachableField };
  }
  if (error instanceof ProviderRequestError) {
    const field = error instanceof ProviderRefusal ? error.field : undefined;
    return { ok: false, message: withoutSecrets(error.message, ...credentials), details: [], field };
  }
  throw error;
}

/** Runs a check's steps: what they confirm is a passed check, a refusal a failed one with its field. */
export async function checkWith(
  steps: () => Promise<{ message: string; details: string[] }>,
): Promise<CheckResult> {
  try {
    return { ok: true, ...(await steps()) };
  } catch (error) {
    if (!(error instanceof ProviderRefusal)) throw error;
    return { ok: false, message: error.message, details: [], ...(error.field ? { field: error.field } : {}) };
  }
}

/** providerFetch whose unreachable host is a refusal naming the field that holds the address. */
export async function fetchOrRefuse(
  url: URL,
  init: RequestInit,
  field: ConnectionFieldName | undefined,
  options: Parameters<typeof providerFetch>[2] = {},
): Promise<Response> {
  try {
    return await providerFetch(url, init, options);
  } catch (error) {
    if (error instanceof ProviderUnreachableError) throw new ProviderRefusal(error.message, field);
    throw error;
  }
}

/**
 * Runs calls outside a check (a listing, a ticket): an unreachable host becomes a ProviderRequestError too, so the
 * route answers 502 with its message.
 */
export async function asProviderRequest<T>(credentials: Credentials[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProviderUnreachableError || error instanceof ProviderRequestError) {
      throw new ProviderRequestError(withoutSecrets(error.message, ...credentials));
    }
    throw error;
  }
}

/** Link header targets (RFC 8288) by relation, resolved against the URL that was requested. */
export function linkTarget(response: Response, relation: string, requested: URL): URL | undefined {
  const header = response.headers.get("link");
  if (!header) return undefined;
  for (const [, target = "", parameters = ""] of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel="?([^";]*)"?/i.exec(parameters)?.[1] ?? "";
    if (!rel.split(/\s+/).includes(relation)) continue;
    const url = new URL(target, requested);
    // Credentials go with the next request: never to another host than the one they were given for.
    return url.origin === requested.origin ? url : undefined;
  }
  return undefined;
}
