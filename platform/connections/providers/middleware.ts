import { endpoint, jsonOf, providerFetch } from "../http";
import type { Provider } from "../providers";
import { failedCheck, ProviderRefusal } from "../refusals";

/**
 * Middleware (OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE, issue 13). Middleware documents no call that validates a key;
 * its own agents (Node, Python, Java, Next.js) check MW_API_KEY with POST /api/v1/auth and the key as a bearer
 * token, which answers the project the key belongs to. The check makes that call at MW_URL (decision 025).
 */
export const middleware: Provider = {
  async check(credentials) {
    const { fields, secrets } = credentials;
    const url = fields.MW_URL ?? "";
    const host = new URL(url).host;
    try {
      const response = await providerFetch(endpoint(url, "/api/v1/auth"), {
        method: "POST",
        headers: {
          Accept: "application/json",
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Bearer ${secrets.MW_API_KEY ?? ""}`,
        },
      });
      const body = (await jsonOf(response)) as
        | { success?: boolean; data?: { project_uid?: string; account?: string } }
        | undefined;
      if (response.status === 401 || response.status === 403 || (response.ok && body?.success === false)) {
        throw new ProviderRefusal(
          `Middleware (${host}) refused the API key: copy it again from Middleware's installation page.`,
          "MW_API_KEY",
        );
      }
      if (!response.ok || body?.success !== true) {
        throw new ProviderRefusal(
          `${host} does not answer like Middleware (POST /api/v1/auth answered ${response.status}): check the Middleware URL (https://{uid}.middleware.io).`,
          "MW_URL",
        );
      }
      const project = body.data?.project_uid ?? body.data?.account;
      return {
        ok: true,
        message: `Middleware (${host}) accepted the API key.`,
        details: [
          ...(project ? [`Middleware project: ${project}`] : []),
          `Project alias: ${fields.MW_PROJECT_ALIAS ?? ""}`,
        ],
      };
    } catch (error) {
      return failedCheck(error, "MW_URL", credentials);
    }
  },
};
