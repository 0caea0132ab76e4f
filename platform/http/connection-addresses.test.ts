import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectionKindDefinitions,
  connectionKinds,
  connectionPaths,
  connectionResponseSchema,
  type ConnectionFieldName,
} from "#contract/connections";
import { featureFlagDefaults } from "#contract/feature-flags";
import { isAddressField } from "../connections/records";
import { startTestServer, type TestServer } from "../testing/provider-servers";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/**
 * Issue 23, item 2: a stored secret never follows a connection to a new address. Every method of every kind with
 * an address field (a kind added later is covered too) is saved pointing at one recorder, then edited to point at
 * another without its secrets: the edit is refused on each secret field, and the new host hears nothing.
 */

/** A valid value of each field (every name, so that a new field gets one here before its kind can be tested). */
const samples: Record<ConnectionFieldName, string> = {
  ACCESS_KEY_ID: "AKIAEXAMPLE000000001",
  CLIENT_ID: "00000000-0000-4000-8000-000000000002",
  CLIENT_SECRET: "client-secret-S3CRET-0001",
  ORGANIZATION: "acme",
  ROLE_ARN: "arn:aws:iam::123456789012:role/CloudConsole",
  SECRET_ACCESS_KEY: "aws-secret-S3CRET-0002",
  SUBSCRIPTION_ID: "00000000-0000-4000-8000-000000000003",
  TENANT_ID: "00000000-0000-4000-8000-000000000001",
  TOKEN: "ghp_token-S3CRET-0003",
  USERNAME: "acmeuser@example.com",
  BASE_URL: "",
  ACCOUNT_ID: "123456789012",
  GCP_CLIENT_EMAIL: "deployer@acme-project.iam.gserviceaccount.com",
  PROJECT_ID: "acme-project",
  GCP_ARTIFACT_REGISTRY_LOCATION: "us-central1",
  GCP_ARTIFACT_REGISTRY_REPOSITORY: "images",
  DD_URL: "",
  DD_API_KEY: "dd-api-key-S3CRET-0004",
  MW_URL: "",
  MW_API_KEY: "mw-api-key-S3CRET-0005",
  MW_PROJECT_ALIAS: "acme",
  REGION: "us-east-1",
  GCP_SERVICE_ACCOUNT_KEY: JSON.stringify({
    type: "service_account",
    client_email: "deployer@acme-project.iam.gserviceaccount.com",
    private_key: "-----BEGIN PRIVATE KEY-----\nkey-S3CRET-0006\n-----END PRIVATE KEY-----\n",
  }),
  WEBHOOK_URL: "https://hooks.example.com/S3CRET-0007",
  CHANNEL: "team-1/channel-1",
  PROJECT_KEY: "OPS",
  AWS_CONNECTION_ID: "",
  GITHUB_CONNECTION_ID: "",
  DOCKER_HOST: "unix:///var/run/docker.sock",
  TLS_CA_CERT: "",
  TLS_CLIENT_CERT: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
  TLS_CLIENT_KEY: "-----BEGIN PRIVATE KEY-----\nkey-S3CRET-0008\n-----END PRIVATE KEY-----",
};

const methodsWithAnAddress = connectionKinds.flatMap((kind) =>
  connectionKindDefinitions[kind].methods
    .filter((method) => method.fields.some(isAddressField))
    .map((method) => ({ kind, method })),
);

let api: TestApi;
let admin: TestMember;
let before: TestServer;
let after: TestServer;

beforeAll(async () => {
  api = await openTestApi();
  admin = await api.createMember({ role: "admin" });
  for (const flag of Object.keys(featureFlagDefaults)) {
    await api.setFeatureFlag(admin.organization.tenantId, flag, true);
  }
  before = await startTestServer({});
  after = await startTestServer({});
});

afterAll(async () => {
  await before.close();
  await after.close();
  await api.close();
});

const t = () => admin.organization.tenantId;

describe("changing where a connection points", () => {
  it("covers the kinds whose addresses a tenant types", () => {
    expect(methodsWithAnAddress.map(({ kind, method }) => `${kind} ${method.id}`)).toEqual(
      expect.arrayContaining([
        "VERSION_CONTROL_TYPE_GITHUB token",
        "DOCKER token",
        "GITHUB token",
        "TICKET_MANAGER_TYPE_JIRA api-token",
        "COMMUNICATION_PLATFORM_TYPE_SLACK token",
        "COMMUNICATION_PLATFORM_TYPE_TEAMS token",
        "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE api-key",
        "OBSERVABILITY_PROVIDER_TYPE_DATADOG api-key",
      ]),
    );
  });

  it.each(methodsWithAnAddress)(
    "$kind ($method.id): requires its secrets again, and sends none to the new address",
    async ({ kind, method }) => {
      const valuesAt = (url: string, { withSecrets }: { withSecrets: boolean }) =>
        Object.fromEntries(
          method.fields
            .filter((field) => withSecrets || !field.secret)
            .map((field) => [field.name, isAddressField(field) ? url : samples[field.name]]),
        );
      const body = (url: string, withSecrets: boolean, verify: boolean) => ({
        kind,
        name: `Moved ${kind.toLowerCase().replaceAll("_", " ").slice(0, 40)}`,
        method: method.id,
        fields: valuesAt(url, { withSecrets }),
        verify,
      });
      const created = await api.call("POST", connectionPaths.list(t()), {
        token: admin.user.token,
        json: body(`${before.url}/${kind}`, true, false),
      });
      expect(created.status).toBe(201);
      const { id } = connectionResponseSchema.parse(await created.json()).connection;
      const path = connectionPaths.one(t(), id);

      const secretFields = method.fields.filter((field) => field.secret);
      for (const verify of [true, false]) {
        const moved = await api.call("PUT", path, {
          token: admin.user.token,
          json: body(`${after.url}/${kind}`, false, verify),
        });
        expect(moved.status).toBe(400);
        expect(await moved.json()).toMatchObject({
          fieldErrors: Object.fromEntries(
            secretFields.map((field) => [
              `fields.${field.name}`,
              [expect.stringMatching(/^Enter the .+ again: the connection now points at a new address\.$/)],
            ]),
          ),
        });
      }
      // 'Test connection' still calls the address the secrets were given for.
      await api.call("POST", connectionPaths.checks(t(), id), { token: admin.user.token });
      const heard = JSON.stringify(
        after.requests.map(({ path, headers, body }) => ({ path, headers, body })),
      );
      for (const field of secretFields) expect(heard).not.toContain(samples[field.name]);
      expect(after.requests).toHaveLength(0);

      // With its secrets entered again, the connection moves.
      const reentered = await api.call("PUT", path, {
        token: admin.user.token,
        json: body(`${after.url}/${kind}`, true, false),
      });
      expect(reentered.status).toBe(200);
    },
  );
});
