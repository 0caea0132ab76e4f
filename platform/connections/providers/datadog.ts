import { endpoint, jsonOf, providerFetch, ProviderUnreachableError } from "../http";
import type { Provider } from "../providers";

/** Datadog: GET /api/v1/validate answers whether the API key is valid for the site (DD_URL). */
export const datadog: Provider = {
  async check({ fields, secrets }) {
    const site = fields.DD_URL ?? "https://api.datadoghq.com";
    try {
      const response = await providerFetch(endpoint(site, "/api/v1/validate"), {
        headers: { Accept: "application/json", "DD-API-KEY": secrets.DD_API_KEY ?? "" },
      });
      const body = (await jsonOf(response)) as { valid?: boolean; errors?: string[] } | undefined;
      if (response.ok && body?.valid === true) {
        return { ok: true, message: `Datadog accepted the API key for ${new URL(site).host}.`, details: [] };
      }
      if (response.status === 403 || response.status === 401) {
        return {
          ok: false,
          message: `Datadog refused the API key for ${new URL(site).host}: check the key and that it belongs to this site.`,
          details: body?.errors ?? [],
          field: "DD_API_KEY",
        };
      }
      return {
        ok: false,
        message: `Datadog answered ${response.status} to the key validation${body?.errors?.length ? `: ${body.errors.join(", ")}` : "."}`,
        details: [],
        field: "DD_URL",
      };
    } catch (error) {
      if (error instanceof ProviderUnreachableError)
        return { ok: false, message: error.message, details: [], field: "DD_URL" };
      throw error;
    }
  },
};
