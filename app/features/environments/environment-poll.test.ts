import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { apiErrorMessages } from "#contract/errors";
import { anEnvironment } from "~/features/environments/test-factories";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";
import { signedInCookie } from "~/platform/signed-in.test-support";

// Decision 065: every page of an environment (its overview, configuration, add-ons, variables, clone) loads the
// environment's own loader, which looks again every few seconds while a clone runs. With the environment
// remembered by the session it asks for the environment by id at once, never for the names first, and an
// unchanged environment is answered from what the platform sent this user last.
const platform = FAKE_PLATFORM_URL;

const { loader } = await import("~/routes/_app.env.$environmentName");

const { server } = fakePlatform();

const prod = anEnvironment({ name: "prod", id: "env-prod", organizationId: "tenant-1", serviceCount: 3 });

/** A user who opened "prod" before (the shell remembered what never changes about it), loading a page of it. */
async function load(userId: string) {
  const cookie = await signedInCookie({
    userId,
    environment: {
      name: "prod",
      id: prod.id,
      cloudConnectionId: null,
      cloudProvider: prod.cloudProvider,
      region: prod.region,
    },
  });
  const request = new Request("https://console.example/env/prod", { headers: { Cookie: cookie } });
  const response = await loader({ request, params: { environmentName: "prod" }, context: {} });
  return response.data;
}

function platformAt(state: { revision: number; serviceCount: number; deleted: boolean }) {
  const calls: string[] = [];
  server.use(
    http.get(`${platform}/api/v2/organizations/tenant-1/environments`, () => {
      calls.push("environment names");
      return HttpResponse.json({ environments: [] });
    }),
    http.get(`${platform}/api/v2/organizations/tenant-1/environments/env-prod`, ({ request }) => {
      const held = request.headers.get("If-None-Match");
      calls.push(held ? `environment, holding ${held}` : "environment");
      if (state.deleted) {
        return HttpResponse.json(
          { message: apiErrorMessages.environmentNotFound, code: "NOT_FOUND" },
          { status: 404 },
        );
      }
      const etag = `W/"${state.revision}"`;
      if (held === etag) return new HttpResponse(null, { status: 304, headers: { ETag: etag } });
      return HttpResponse.json(
        { environment: { ...prod, serviceCount: state.serviceCount } },
        { headers: { ETag: etag } },
      );
    }),
  );
  return calls;
}

describe("a page of the environment the session remembers", () => {
  it("asks only for the environment, and shows what it showed while nothing changed", async () => {
    const calls = platformAt({ revision: 3, serviceCount: 3, deleted: false });

    const first = await load("user_ada");
    const again = await load("user_ada");

    expect(calls).toEqual(["environment", 'environment, holding W/"3"']);
    expect(again.environment).toBe(first.environment);
    expect(again.environment.serviceCount).toBe(3);
  });

  it("shows a change at the next poll", async () => {
    const state = { revision: 1, serviceCount: 3, deleted: false };
    platformAt(state);
    await load("user_grace");

    Object.assign(state, { revision: 2, serviceCount: 4 });
    expect((await load("user_grace")).environment.serviceCount).toBe(4);
  });

  it("goes back to the root, forgetting it, once the environment was deleted elsewhere", async () => {
    const state = { revision: 1, serviceCount: 3, deleted: false };
    platformAt(state);
    await load("user_linus");

    state.deleted = true;
    const gone = await load("user_linus").catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(Response);
    expect((gone as Response).headers.get("Location")).toBe("/");
    const cookie = (gone as Response).headers.get("Set-Cookie")?.split(";")[0] ?? "";
    expect(cookie).toMatch(/^__session=/);
    const { getSession } = await import("~/auth/session.server");
    const forgotten = await getSession(
      new Request("https://console.example/", { headers: { Cookie: cookie } }),
    );
    expect(forgotten.get("environment")).toBeUndefined();
  });
});
