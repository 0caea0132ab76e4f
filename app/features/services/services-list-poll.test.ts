import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { errorMessages } from "#contract/errors";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";
import { signedInCookie } from "~/platform/signed-in.test-support";

// Decision 065: the services list's 5-second poll, through its loader as Remix calls it: the environment's id
// comes from the session (no call for the names first) and an unchanged list is answered from what the platform
// sent this user last.
const platform = FAKE_PLATFORM_URL;

const { loader } = await import("~/routes/_app.env.$environmentName_.services._index");

const { server } = fakePlatform();

const ordersDb = {
  id: "r1",
  environmentId: "env-prod",
  name: "orders-db",
  serviceType: "database",
  stage: "STAGE_COMPLETED",
  version: 1,
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
};

/** A user who last opened "prod" (its id remembered by the shell), polling its services list. */
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
  const request = new Request("https://console.example/env/prod/services", { headers: { Cookie: cookie } });
  const response = await loader({ request, params: { environmentName: "prod" }, context: {} });
  return response.data;
}

/** The platform's list of prod's services at `state.revision`; it records every call the loader makes. */
function platformAt(state: { revision: number; services: (typeof ordersDb)[]; member: boolean }) {
  const calls: string[] = [];
  server.use(
    http.get(`${platform}/api/v2/organizations/tenant-1/environments`, () => {
      calls.push("environment names");
      return HttpResponse.json({ environments: [] });
    }),
    http.get(
      `${platform}/api/v2/organizations/tenant-1/environments/env-prod/infrastructure`,
      ({ request }) => {
        const held = request.headers.get("If-None-Match");
        calls.push(held ? `services, holding ${held}` : "services");
        if (!state.member) {
          return HttpResponse.json({ message: "You are not a member", code: "FORBIDDEN" }, { status: 403 });
        }
        const etag = `W/"${state.revision}"`;
        if (held === etag) return new HttpResponse(null, { status: 304, headers: { ETag: etag } });
        const { services } = state;
        return HttpResponse.json(
          { infrastructure: services, total: services.length, page: 1, pageSize: 50 },
          { headers: { ETag: etag } },
        );
      },
    ),
  );
  return calls;
}

describe("the services list's poll", () => {
  it("asks only for the list, and shows what it showed while the platform says nothing changed", async () => {
    const state = { revision: 7, services: [ordersDb], member: true };
    const calls = platformAt(state);

    const first = await poll("user_ada");
    const second = await poll("user_ada");

    expect(calls).toEqual(["services", 'services, holding W/"7"']);
    expect(second).toEqual(first);
    expect(second.services.map((service) => service.name)).toEqual(["orders-db"]);
  });

  it("shows a change at the next poll", async () => {
    const state = { revision: 1, services: [ordersDb], member: true };
    platformAt(state);
    await poll("user_grace");

    state.revision = 2;
    state.services = [ordersDb, { ...ordersDb, id: "r2", name: "cache" }];
    expect((await poll("user_grace")).services.map((service) => service.name)).toEqual([
      "orders-db",
      "cache",
    ]);
  });

  it("stops showing the list at the next poll of a member who was removed", async () => {
    const state = { revision: 1, services: [ordersDb], member: true };
    platformAt(state);
    await poll("user_linus");

    state.member = false;
    const refused = await poll("user_linus").catch((error: unknown) => error);
    // The error page's restricted-access message (SPEC §8), not the list it held.
    expect(refused).toMatchObject({
      data: { message: errorMessages.restrictedAccess },
      init: { status: 403 },
    });
  });
});
