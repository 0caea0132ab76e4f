import type { ActionFunctionArgs } from "@remix-run/node";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChangePlan } from "#contract/change-plans";
import type { OrganizationClaim } from "#contract/identity";
import { defaultServiceSettings, type Resource } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import type { ServiceActionData } from "./action-data";

/*
 * The configuration tab's "Save and deploy" when the platform refuses a change that replaces the service and
 * deletes its data until the service's name is typed: the action answers the plan and a confirmation field as the
 * form's next step (no JavaScript needed), then sends the typed name. The platform is faked with msw: these are
 * the answers the real one gives (platform/http/change-plans.test.ts).
 */

process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = "https://platform.example";
process.env.APP_URL = "https://console.example";

const { action } = await import("~/routes/_app.env.$environmentName_.services.$serviceId._index");
const { commitSession, getSession } = await import("~/auth/session.server");

const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "t1" },
};
const organization = "https://platform.example/api/v2/organizations/t1";
const service = `${organization}/environments/w1/infrastructure/r1`;

const database: Resource = {
  id: "r1",
  environmentId: "w1",
  name: "orders-db",
  serviceType: "database",
  stage: "STAGE_COMPLETED",
  version: 3,
  retries: 0,
  message: null,
  monthlyCost: 12.5,
  region: "us-west-2",
  size: "db.t4g.micro",
  replicas: 1,
  failedSince: null,
  driftedAt: null,
  endpoint: "orders-db.abc.us-west-2.rds.amazonaws.com",
  hasDraft: false,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  config: { ...defaultServiceConfigs.database, storageGb: 30 },
  settings: defaultServiceSettings,
  draft: null,
  pods: [],
  progress: null,
  secretAttributes: [],
  history: [],
};
const shrink: ChangePlan = {
  inPlace: [],
  replace: ["config.storageGb"],
  other: [],
  loses: ["its data", "its endpoint"],
  summary: "Replaces the service and deletes its data",
  confirmationRequired: true,
};
const refusal = "This change replaces the service and deletes its data: type orders-db to confirm";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The platform as it answers for an AWS database of 30 GB: PUT bodies it received are kept in `puts`. */
function platform() {
  const puts: Record<string, unknown>[] = [];
  const plans: unknown[] = [];
  server.use(
    http.get(`${organization}/environments`, () =>
      HttpResponse.json({
        environments: [
          {
            id: "w1",
            name: "production",
            organizationId: "t1",
            cloningStage: "STAGE_COMPLETED",
            cloudProvider: "AWS",
            region: "us-west-2",
            cloudConnectionId: "c1",
            deletion: null,
            clonedFrom: null,
            createdAt: "2026-01-01T00:00:00Z",
          },
        ],
      }),
    ),
    http.get(service, () => HttpResponse.json({ resource: database })),
    http.post(`${service}/plan`, async ({ request }) => {
      plans.push(await request.json());
      return HttpResponse.json({ plan: shrink });
    }),
    http.put(service, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      puts.push(body);
      if (body.confirmation !== "orders-db") {
        return HttpResponse.json(
          { message: refusal, code: "VALIDATION_FAILED", fieldErrors: { confirmation: [refusal] } },
          { status: 400 },
        );
      }
      return HttpResponse.json({ resource: { ...database, config: body.config, version: 4 } });
    }),
  );
  return { puts, plans };
}

/** A signed-in member of Acme pressing "Save and deploy" with the storage shrunk to 20 GB. */
async function saveAndDeploy(extra: Record<string, string> = {}) {
  const session = await getSession(new Request("https://console.example/"));
  session.set("user", { sub: "user_bob", name: "Bob", email: "bob@example.com" });
  session.set("organizations", [acme]);
  session.set("organizationId", acme.id);
  session.set("tokens", {
    accessToken: "access",
    refreshToken: "refresh",
    expiresAt: Date.now() + 3_600_000,
  });
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  const fields = new URLSearchParams({ intent: "save-config", version: "3", ...extra });
  const config: Record<string, unknown> = { ...database.config, storageGb: 20 };
  for (const [key, value] of Object.entries(config)) {
    if (value !== false) fields.set(`config.${key}`, value === true ? "on" : String(value));
  }
  const request = new Request("https://console.example/env/production/services/r1?tab=config", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: fields,
  });
  try {
    const answer = (await action({
      request,
      params: { environmentName: "production", serviceId: "r1" },
      context: {},
    } as ActionFunctionArgs)) as unknown as { data: ServiceActionData; init: ResponseInit | null };
    return { data: answer.data, status: answer.init?.status ?? 200 };
  } catch (thrown) {
    if (thrown instanceof Response)
      return { redirect: thrown.headers.get("Location"), status: thrown.status };
    throw thrown;
  }
}

describe("Save and deploy of a change that replaces the service and deletes its data", () => {
  it("answers the plan and asks for the service's name instead of saving", async () => {
    const { puts, plans } = platform();
    const answer = await saveAndDeploy();
    expect(answer.status).toBe(200);
    expect(answer.data?.form).toBe("config");
    expect(answer.data?.plan).toEqual({ plan: shrink });
    expect(plans).toEqual([{ config: expect.objectContaining({ storageGb: 20 }) }]);
    // The form keeps what the user typed, for the step that sends it again.
    expect(answer.data?.result?.initialValue).toMatchObject({ config: { storageGb: "20" } });
    expect(puts).toHaveLength(1);
  });

  it("says so when the name typed is not the service's", async () => {
    platform();
    const answer = await saveAndDeploy({ confirmation: "orders" });
    expect(answer.status).toBe(400);
    expect(answer.data?.plan?.confirmationError).toBe(refusal);
  });

  it("deploys once the service's name is typed", async () => {
    const { puts } = platform();
    const answer = await saveAndDeploy({ confirmation: "orders-db" });
    expect(answer.data?.plan).toBeUndefined();
    expect(answer.status).toBe(200);
    expect(puts.at(-1)).toMatchObject({ confirmation: "orders-db", config: { storageGb: 20 } });
  });
});
