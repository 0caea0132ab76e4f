import type { ConnectionFieldName } from "#contract/connections";
import { endpoint, jsonOf } from "../http";
import type { Provider } from "../providers";
import { checkWith, fetchOrRefuse, ProviderRefusal } from "../refusals";

/**
 * Microsoft Azure (SPEC §3): a service principal, checked with the client-credentials grant at Microsoft Entra
 * ID's token endpoint ({authority host}/{tenant}/oauth2/v2.0/token) for Azure Resource Manager's scope.
 */

const DEFAULT_AUTHORITY_HOST = "https://login.microsoftonline.com";
export const AZURE_MANAGEMENT_SCOPE = "https://management.azure.com/.default";

type TokenAnswer = {
  access_token?: unknown;
  error?: unknown;
  error_description?: unknown;
  error_codes?: unknown;
};

/** Entra ID's AADSTS codes that name the field to fix, in plain words. */
const knownCodes: Record<
  number,
  { field: ConnectionFieldName; message: (tenant: string, client: string) => string }
> = {
  7000215: {
    field: "CLIENT_SECRET",
    message: (_tenant, client) =>
      `Microsoft Entra ID refused the client secret of application ${client}: paste the secret's value (not its id), or create a new secret.`,
  },
  7000222: {
    field: "CLIENT_SECRET",
    message: (_tenant, client) =>
      `The client secret of application ${client} has expired: create a new secret and paste its value.`,
  },
  700016: {
    field: "CLIENT_ID",
    message: (tenant, client) =>
      `Tenant ${tenant} has no application ${client}: check the application (client) id, and that the app is registered in this tenant.`,
  },
  90002: {
    field: "TENANT_ID",
    message: (tenant) => `Microsoft Entra ID has no tenant ${tenant}: check the directory (tenant) id.`,
  },
};

/** The first line of Entra ID's description: its message without the trace and correlation ids. */
function firstLine(description: unknown): string {
  return typeof description === "string" ? (description.split(/\r?\n| Trace ID:/)[0]?.trim() ?? "") : "";
}

export const azure: Provider = {
  check: ({ fields, secrets }) =>
    checkWith(async () => {
      const tenant = fields.TENANT_ID ?? "";
      const client = fields.CLIENT_ID ?? "";
      const url = endpoint(
        fields.BASE_URL ?? DEFAULT_AUTHORITY_HOST,
        `/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
      );
      const response = await fetchOrRefuse(
        url,
        {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
          body: new URLSearchParams({
            grant_type: "client_credentials",
            client_id: client,
            client_secret: secrets.CLIENT_SECRET ?? "",
            scope: AZURE_MANAGEMENT_SCOPE,
          }),
        },
        "BASE_URL",
      );
      const body = (await jsonOf(response)) as TokenAnswer | undefined;
      if (response.ok && typeof body?.access_token === "string") {
        return {
          message: `Microsoft Entra ID issued a token to application ${client} in tenant ${tenant}.`,
          details: [`Tenant ${tenant}`, `Application ${client}`],
        };
      }
      if (response.status >= 500) {
        throw new ProviderRefusal(
          `${url.host} answered ${response.status}: Microsoft Entra ID is failing, try again later.`,
        );
      }
      const codes = Array.isArray(body?.error_codes) ? (body.error_codes as unknown[]) : [];
      const known = codes.map((code) => knownCodes[Number(code)]).find(Boolean);
      if (known) throw new ProviderRefusal(known.message(tenant, client), known.field);
      if (typeof body?.error === "string") {
        const said = firstLine(body.error_description);
        throw new ProviderRefusal(
          `Microsoft Entra ID refused the service principal (${body.error}${said ? `: ${said}` : ""}).`,
          "CLIENT_ID",
        );
      }
      throw new ProviderRefusal(
        `${url.host} answered ${response.status} without a token: is it a Microsoft Entra ID authority host?`,
        "BASE_URL",
      );
    }),
};
