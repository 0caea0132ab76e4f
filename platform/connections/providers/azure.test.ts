import { randomBytes, randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../tests/setup/moto-server";
import type { CheckResult, Credentials, ProviderContext } from "../providers";
import { azure } from "./azure";
import { listen, sendJson, expectingNoLeak } from "../../testing/provider-requests";

/**
 * Azure against a server that answers like Microsoft Entra ID's v2.0 token endpoint: the client-credentials grant
 * for Azure Resource Manager's scope, and its AADSTS error bodies (status, `error`, `error_codes`, trace ids).
 */

const tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const application = "0d5c2b7e-1f3a-4c6e-9b8d-7a1e2f3c4d5b";
const disabledApplication = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b";
const clientSecret = `Qx~8Q~${randomBytes(24).toString("base64url")}`;
const expiredSecret = `Zr~8Q~${randomBytes(24).toString("base64url")}`;
const issuedTokens: string[] = [];
const context: ProviderContext = {
  awsExternalId: "unused",
  organizationName: "Acme",
  appUrl: "http://localhost:3000",
  connection: () => Promise.resolve(undefined),
};

let entra: { url: string; close: () => Promise<void> };

function credentials(fields: Record<string, string> = {}, secret = clientSecret): Credentials {
  return {
    kind: "AZURE",
    method: "service-principal",
    fields: {
      TENANT_ID: tenant,
      CLIENT_ID: application,
      SUBSCRIPTION_ID: "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f",
      BASE_URL: entra.url,
      ...fields,
    },
    secrets: { CLIENT_SECRET: secret },
  };
}

const check = (connection: Credentials): Promise<CheckResult> =>
  expectingNoLeak(
    () => [clientSecret, expiredSecret, ...issuedTokens],
    () => azure.check(connection, context),
  );

/** Entra ID's error body: the description carries the AADSTS code, then trace and correlation ids. */
function aadsts(response: ServerResponse, status: number, error: string, code: number, message: string) {
  const timestamp = new Date().toISOString().replace("T", " ").slice(0, 19) + "Z";
  const traceId = randomUUID();
  const correlationId = randomUUID();
  sendJson(response, status, {
    error,
    error_description: `AADSTS${code}: ${message} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `https://login.microsoftonline.com/error?code=${code}`,
  });
}

beforeAll(async () => {
  entra = await listen((request, body, response) => {
    const match = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(request.url ?? "");
    if (request.method !== "POST" || !match) return void response.writeHead(404).end();
    if (match[1] === "failing-tenant") {
      return aadsts(
        response,
        503,
        "temporarily_unavailable",
        90033,
        "A transient error has occurred. Please try again.",
      );
    }
    const form = new URLSearchParams(body);
    if (decodeURIComponent(match[1] ?? "") !== tenant) {
      return aadsts(
        response,
        400,
        "invalid_request",
        90002,
        `Tenant '${match[1]}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
    }
    if (
      form.get("grant_type") !== "client_credentials" ||
      form.get("scope") !== "https://management.azure.com/.default"
    ) {
      return aadsts(
        response,
        400,
        "invalid_request",
        900144,
        "The request body must contain the following parameter: 'grant_type'.",
      );
    }
    const client = form.get("client_id");
    if (client === disabledApplication) {
      return aadsts(
        response,
        400,
        "unauthorized_client",
        7000112,
        `Application '${client}'(Acme deployer) is disabled.`,
      );
    }
    if (client !== application) {
      return aadsts(
        response,
        400,
        "unauthorized_client",
        700016,
        `Application with identifier '${client}' was not found in the directory 'Acme'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`,
      );
    }
    if (form.get("client_secret") === expiredSecret) {
      return aadsts(
        response,
        401,
        "invalid_client",
        7000222,
        `The provided client secret keys for app '${client}' are expired.`,
      );
    }
    if (form.get("client_secret") !== clientSecret) {
      return aadsts(
        response,
        401,
        "invalid_client",
        7000215,
        `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${client}'.`,
      );
    }
    const accessToken = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${randomBytes(64).toString("base64url")}`;
    issuedTokens.push(accessToken);
    sendJson(response, 200, {
      token_type: "Bearer",
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: accessToken,
    });
  });
});

afterAll(async () => {
  await entra?.close();
});

describe("Azure", () => {
  it("obtains a token for Azure Resource Manager with the service principal", async () => {
    expect(await check(credentials())).toEqual({
      ok: true,
      message: `Microsoft Entra ID issued a token to application ${application} in tenant ${tenant}.`,
      details: [`Tenant ${tenant}`, `Application ${application}`],
    });
    expect(issuedTokens).toHaveLength(1);
  });

  it("points at the secret when it is wrong or expired", async () => {
    expect(await check(credentials({}, `Wr~8Q~${randomBytes(24).toString("base64url")}`))).toEqual({
      ok: false,
      message: `Microsoft Entra ID refused the client secret of application ${application}: paste the secret's value (not its id), or create a new secret.`,
      details: [],
      field: "CLIENT_SECRET",
    });
    expect(await check(credentials({}, expiredSecret))).toEqual({
      ok: false,
      message: `The client secret of application ${application} has expired: create a new secret and paste its value.`,
      details: [],
      field: "CLIENT_SECRET",
    });
  });

  it("points at the application or the tenant Entra ID does not know", async () => {
    const unknown = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
    expect(await check(credentials({ CLIENT_ID: unknown }))).toEqual({
      ok: false,
      message: `Tenant ${tenant} has no application ${unknown}: check the application (client) id, and that the app is registered in this tenant.`,
      details: [],
      field: "CLIENT_ID",
    });
    const otherTenant = "11111111-2222-4333-8444-555555555555";
    expect(await check(credentials({ TENANT_ID: otherTenant }))).toEqual({
      ok: false,
      message: `Microsoft Entra ID has no tenant ${otherTenant}: check the directory (tenant) id.`,
      details: [],
      field: "TENANT_ID",
    });
  });

  it("passes on other refusals without their trace ids", async () => {
    expect(await check(credentials({ CLIENT_ID: disabledApplication }))).toEqual({
      ok: false,
      message: `Microsoft Entra ID refused the service principal (unauthorized_client: AADSTS7000112: Application '${disabledApplication}'(Acme deployer) is disabled.).`,
      details: [],
      field: "CLIENT_ID",
    });
    expect(await check(credentials({ TENANT_ID: "failing-tenant" }))).toEqual({
      ok: false,
      message: `${new URL(entra.url).host} answered 503: Microsoft Entra ID is failing, try again later.`,
      details: [],
    });
  });

  it("says so when the authority host cannot be reached", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await check(credentials({ BASE_URL: closed }))).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "BASE_URL",
    });
    expect(await check(credentials({ BASE_URL: "http://nothing.invalid" }))).toEqual({
      ok: false,
      message:
        "Could not reach nothing.invalid: its name does not resolve (is this machine offline, or the address mistyped?).",
      details: [],
      field: "BASE_URL",
    });
  });
});
