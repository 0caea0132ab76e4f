import { http, HttpResponse, type JsonBodyType } from "msw";
import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { apiErrorMessages, errorMessages } from "#contract/errors";
import { defaultServiceSettings, type Resource } from "#contract/services";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";
import { signedInCookie } from "~/platform/signed-in.test-support";

// Decision 065: a service's details page polls every 5 seconds while the service is busy; through its loader as
// Remix calls it: the environment's id comes from the session and every call behind the page's overview (the
// service, its units) is answered from what the platform sent this user last while it says nothing changed. A
// removed member, a narrowed grant or a deleted environment shows at the next poll, never what was held.
const platform = FAKE_PLATFORM_URL;

const { loader } = await import("~/routes/_app.env.$environmentName_.services.$serviceId._index");

const { server } = fakePlatform();

const ordersDb: Resource = {
  id: "r1",
  environmentId: "env-prod",
  name: "orders-db",
  serviceType: "database",
  stage: "STAGE_IN_PROGRESS",
  version: 2,
  retries: 0,
  message: null,
  monthlyCost: 12.5,
  region: "us-east-1",
  size: "db.t4g.micro",
  replicas: 1,
  failedSince: null,
  endpoint: null,
  driftedAt: null,
  hasDraft: false,
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
  config: defaultServiceConfigs.database,
  settings: defaultServiceSettings,
  draft: null,
  pods: [{ name: "orders-db-2-a", status: "Pending" }],
  progress: { step: "Provisioning", since: "2025-01-01T00:00:00Z" },
  secretAttributes: [],
  history: [],
};

/** A user who opened "prod" (its id remembered by the shell), polling orders-db's overview. */
async function poll(userId: string) {
  const cookie = await signedInCookie({
    userId,
    environment: {
      name: "prod",
      id: "env-prod",
      cloudConnectionId: null,
      cloudProvider: "AWS",
      region: "us-east-1",
    },
  });
  const request = new Request("https://console.example/env/prod/services/r1", {
    headers: { Cookie: cookie },
  });
  const response = await loader({
    request,
    params: { environmentName: "prod", serviceId: "r1" },
    context: {},
  });
  return response.data;
}

type Refusal = { status: number; message: string; code: string };

/**
 * The platform's prod at `state.revision`, as it answers a member (or `state.refusal` at each call); it records
 * every call the loader makes.
 */
function platformAt(state: { revision: number; service: Resource; refusal: Refusal | null }) {
  const calls: string[] = [];
  const environment = `${platform}/api/v2/organizations/tenant-1/environments/env-prod`;
  const tagged = (what: string, request: Request, body: () => JsonBodyType) => {
    const held = request.headers.get("If-None-Match");
    calls.push(held ? `${what}, holding ${held}` : what);
    if (state.refusal) {
      const { status, ...error } = state.refusal;
      return HttpResponse.json(error, { status });
    }
    const etag = `W/"${state.revision}"`;
    if (held === etag) return new HttpResponse(null, { status: 304, headers: { ETag: etag } });
    return HttpResponse.json(body(), { headers: { ETag: etag } });
  };
  server.use(
    http.get(`${platform}/api/v2/organizations/tenant-1/environments`, () => {
      calls.push("environment names");
      return HttpResponse.json({ environments: [] });
    }),
    http.get(`${environment}/infrastructure/r1`, ({ request }) =>
      tagged("service", request, () => ({ resource: state.service })),
    ),
    http.get(`${environment}/resources/r1/units`, ({ request }) =>
      tagged("units", request, () => ({
        simulated: true,
        units: state.service.pods.map(({ name, status }) => ({ name, status })),
      })),
    ),
  );
  return calls;
}

const shown = (loaded: Awaited<ReturnType<typeof poll>>) => ({
  stage: loaded.service.stage,
  units: loaded.units?.kind === "ok" ? loaded.units.value.units.map((unit) => unit.name) : null,
});

describe("a service's details poll", () => {
  it("asks only for the service and its units, and shows what it showed while nothing changed", async () => {
    const state = { revision: 7, service: ordersDb, refusal: null };
    const calls = platformAt(state);

    const first = await poll("user_ada");
    const second = await poll("user_ada");

    expect(calls.sort()).toEqual(
      ['service, holding W/"7"', 'units, holding W/"7"', "service", "units"].sort(),
    );
    expect(shown(second)).toEqual(shown(first));
    expect(second.service).toBe(first.service);
    expect(shown(second)).toEqual({ stage: "STAGE_IN_PROGRESS", units: ["orders-db-2-a"] });
  });

  it("shows a change at the next poll", async () => {
    const state = { revision: 1, service: ordersDb, refusal: null };
    platformAt(state);
    await poll("user_grace");

    state.revision = 2;
    state.service = {
      ...ordersDb,
      stage: "STAGE_COMPLETED",
      pods: [{ name: "orders-db-2-a", status: "Running" }],
    };
    expect(shown(await poll("user_grace"))).toEqual({ stage: "STAGE_COMPLETED", units: ["orders-db-2-a"] });
  });

  // The error page (or, for what is gone, the 404 page), not the service it held.
  const restricted = { data: { message: errorMessages.restrictedAccess }, init: { status: 403 } };
  const refusals: [string, Refusal, object][] = [
    [
      "a member who was removed",
      { status: 403, message: "You are not a member", code: "FORBIDDEN" },
      restricted,
    ],
    [
      "a member whose grant no longer reaches the environment",
      { status: 403, message: "You need services.view here", code: "PERMISSION_DENIED" },
      restricted,
    ],
    [
      "an environment deleted meanwhile",
      { status: 404, message: apiErrorMessages.environmentNotFound, code: "NOT_FOUND" },
      { status: 302, location: "/404" },
    ],
  ];

  it.each(refusals)("stops showing the service at the next poll of %s", async (_who, refusal, page) => {
    const state: { revision: number; service: Resource; refusal: Refusal | null } = {
      revision: 1,
      service: ordersDb,
      refusal: null,
    };
    platformAt(state);
    await poll(`user_${refusal.code}`);

    state.refusal = refusal;
    const refused = await poll(`user_${refusal.code}`).catch((error: unknown) => error);
    if (refused instanceof Response) {
      expect({ status: refused.status, location: refused.headers.get("Location") }).toEqual(page);
    } else {
      expect(refused).toMatchObject(page);
    }
  });
});
