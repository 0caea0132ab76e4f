import type { ConnectionFieldName } from "#contract/connections";
import { providerFetch, ProviderUnreachableError } from "../http";
import { ProviderRequestError, type CheckResult } from "../providers";

/**
 * What a provider refused (or could not be reached for), in plain words, with the field to fix. Providers throw it
 * from the steps a check and a listing share: `check` turns it into a failed CheckResult, and a listing lets it
 * through as the ProviderRequestError it is (the route answers 502 with its message).
 */
export class ProviderRefusal extends ProviderRequestError {
  constructor(
    message: string,
    readonly field?: ConnectionFieldName,
  ) {
    super(message);
    this.name = "ProviderRefusal";
  }
}

/** Runs a check's steps: what they confirm is a passed check, a refusal a failed one with its field. */
export async function checkWith(
  steps: () => Promise<{ message: string; details: string[] }>,
): Promise<CheckResult> {
  try {
    return { ok: true, ...(await steps()) };
  } catch (error) {
    if (!(error instanceof ProviderRefusal)) throw error;
    return {
      ok: false,
      message: error.message,
      details: [],
      ...(error.field ? { field: error.field } : {}),
    };
  }
}

/** providerFetch whose unreachable host is a refusal naming the field that holds the address. */
export async function fetchOrRefuse(
  url: URL,
  init: RequestInit,
  field: ConnectionFieldName | undefined,
): Promise<Response> {
  try {
    return await providerFetch(url, init);
  } catch (error) {
    if (error instanceof ProviderUnreachableError) throw new ProviderRefusal(error.message, field);
    throw error;
  }
}
