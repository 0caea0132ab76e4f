import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { ChangePlan } from "#contract/change-plans";
import type { OrganizationClaim } from "#contract/identity";
import { defaultServiceSettings, type Resource } from "#contract/services";

/*
 * Test support for the details page's plan step (its action and the plan loader): a signed-in member of Acme, and
 * the platform faked with msw, answering as the real one does (platform/http/change-plans.test.ts). Importing it
 * sets the app's environment, so a test imports it before the route modules it loads with `await import`.
 */

process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = "https://platform.example";
process.env.APP_URL = "https://console.example";

const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "t1" },
};
const organization = "https://platform.example/api/v2/organizations/t1";

/** A deployed service of the AWS environment "production" (w1), as the platform answers it. */
export function deployedService(service: Pick<Resource, "id" | "name" | "serviceType" | "config">): Resource {
  return {
    environmentId: "w1",
    stage: "STAGE_COMPLETED",
    version: 3,
    retries: 0,
    message: null,
    monthlyCost: 12.5,
    region: "us-west-2",
    size: "small",
    replicas: 1,
    failedSince: null,
    driftedAt: null,
    endpoint: null,
    hasDraft: false,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    settings: defaultServiceSettings,
    draft: null,
    pods: [],
    progress: null,
    secretAttributes: [],
    history: [],
    ...service,
  };
}

/**
 * The platform with `service` in production: its plan answers `plan`, and a PUT is refused with `plan`'s words
 * unless it carries the service's name as confirmation. What the app sent is kept in `puts` and `plans`.
 */
export function fakePlatform(service: Resource, plan: ChangePlan) {
  const one = `${organization}/environments/w1/infrastructure/${service.id}`;
  const refusal = `This change ${plan.summary.toLowerCase()}: type ${service.name} to confirm`;
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
    http.get(one, () => HttpResponse.json({ resource: service })),
    http.post(`${one}/plan`, async ({ request }) => {
      plans.push(await request.json());
      return HttpResponse.json({ plan });
    }),
    http.put(one, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      puts.push(body);
      if (plan.confirmationRequired && body.confirmation !== service.name) {
        return HttpResponse.json(
          { message: refusal, code: "VALIDATION_FAILED", fieldErrors: { confirmation: [refusal] } },
          { status: 400 },
        );
      }
      return HttpResponse.json({ resource: { ...service, config: body.config, version: 4 } });
    }),
  );
  return { puts, plans, refusal };
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A request of the service's details page (or its plan route, `path`) from a signed-in member of Acme. */
export async function signedInRequest(path: string, init: { body?: URLSearchParams } = {}) {
  const { commitSession, getSession } = await import("~/auth/session.server");
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
  return new Request(`https://console.example${path}`, {
    method: init.body ? "POST" : "GET",
    headers: init.body
      ? { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }
      : { Cookie: cookie },
    body: init.body,
  });
}

/**
 * A configuration as its form posts it: `config.storageGb`, `config.ports[0].port`; a switch that is on as "on",
 * one that is off left out.
 */
export function configFields(config: Record<string, unknown>, prefix = "config"): [string, string][] {
  return Object.entries(config).flatMap(([key, value]): [string, string][] => {
    const name = `${prefix}.${key}`;
    if (Array.isArray(value)) {
      return value.flatMap((item, index) =>
        typeof item === "object" && item !== null
          ? configFields(item as Record<string, unknown>, `${name}[${index}]`)
          : [[`${name}[${index}]`, String(item)]],
      );
    }
    if (typeof value === "object" && value !== null)
      return configFields(value as Record<string, unknown>, name);
    if (value === false) return [];
    return [[name, value === true ? "on" : String(value)]];
  });
}
