import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { featureFlagDefaults } from "#contract/feature-flags";
import type { EffectivePermissions } from "#contract/permissions";
import { createPlatformClient, type PlatformClient } from "~/platform/client.server";

const platform = "https://platform.example";
process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = platform;
process.env.APP_URL = "https://console.example";

const {
  createPermissionCache,
  forgetPermissions,
  loadShellPermissions,
  PERMISSIONS_TTL_MS,
  requirePermission,
} = await import("./permissions.server");

const readOnly: EffectivePermissions = {
  organization: ["organization.view"],
  environments: { "env-prod": ["organization.view"] },
};
const developerOnStaging: EffectivePermissions = {
  organization: ["organization.view"],
  environments: {
    "env-staging": ["organization.view", "services.configure"],
    "env-prod": ["organization.view"],
  },
};

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function client(): PlatformClient {
  return createPlatformClient({
    baseUrl: platform,
    getAccessToken: async () => "access",
    retryDelaysMs: [],
    log: () => {},
  });
}

/** The platform's permissions of tenant `tenantId`, counting the calls. */
function platformAnswering(tenantId: string, answer: () => Response) {
  const calls = { count: 0 };
  server.use(
    http.get(`${platform}/api/v2/organizations/${tenantId}/users/v2/permissions`, () => {
      calls.count += 1;
      return answer();
    }),
  );
  return calls;
}

function fakeClock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const flagsOn = Promise.resolve({ ...featureFlagDefaults });

describe("the permission cache", () => {
  it("asks the platform once per user and organization within 5 minutes (SPEC §9), then again", async () => {
    const calls = platformAnswering("t-1", () => HttpResponse.json(readOnly));
    const clock = fakeClock();
    const cache = createPermissionCache({ now: clock.now });
    const api = client();

    await expect(cache.get(api, { userId: "bob", tenantId: "t-1" })).resolves.toEqual(readOnly);
    clock.advance(PERMISSIONS_TTL_MS - 1);
    await cache.get(api, { userId: "bob", tenantId: "t-1" });
    expect(calls.count).toBe(1);

    await cache.get(api, { userId: "ada", tenantId: "t-1" });
    expect(calls.count).toBe(2);

    clock.advance(1);
    await cache.get(api, { userId: "bob", tenantId: "t-1" });
    expect(calls.count).toBe(3);
    expect(PERMISSIONS_TTL_MS).toBe(300_000);
  });

  it("shares a request under way and forgets a failure at once", async () => {
    let fail = true;
    const calls = platformAnswering("t-1", () =>
      fail ? HttpResponse.json({ message: "down" }, { status: 503 }) : HttpResponse.json(readOnly),
    );
    const cache = createPermissionCache();
    const api = client();

    const [first, second] = await Promise.allSettled([
      cache.get(api, { userId: "bob", tenantId: "t-1" }),
      cache.get(api, { userId: "bob", tenantId: "t-1" }),
    ]);
    expect(first.status).toBe("rejected");
    expect(second.status).toBe("rejected");
    expect(calls.count).toBe(1);
    expect(cache.size).toBe(0);

    fail = false;
    await expect(cache.get(api, { userId: "bob", tenantId: "t-1" })).resolves.toEqual(readOnly);
    expect(calls.count).toBe(2);
  });

  it("drops every organization of one user, and only theirs", async () => {
    platformAnswering("t-1", () => HttpResponse.json(readOnly));
    platformAnswering("t-2", () => HttpResponse.json(readOnly));
    const cache = createPermissionCache();
    const api = client();
    await cache.get(api, { userId: "bob", tenantId: "t-1" });
    await cache.get(api, { userId: "bob", tenantId: "t-2" });
    await cache.get(api, { userId: "ada", tenantId: "t-1" });

    cache.forgetUser("bob");
    expect(cache.size).toBe(1);
  });

  it("keeps at most maxEntries, dropping the oldest", async () => {
    const calls = platformAnswering("t-1", () => HttpResponse.json(readOnly));
    const cache = createPermissionCache({ maxEntries: 2 });
    const api = client();
    for (const userId of ["a", "b", "c"]) await cache.get(api, { userId, tenantId: "t-1" });
    expect(cache.size).toBe(2);
    await cache.get(api, { userId: "a", tenantId: "t-1" });
    expect(calls.count).toBe(4);
  });
});

describe("the shell's permissions", () => {
  const request = (path = "/environments") => new Request(`https://console.example${path}`);

  it("are the platform's, cached across requests, and asked again after logout or an organization switch", async () => {
    const calls = platformAnswering("t-shell", () => HttpResponse.json(readOnly));
    const api = client();
    const scope = { userId: "bob-shell", tenantId: "t-shell" };

    const first = await loadShellPermissions(api, { ...scope, request: request() }, flagsOn);
    expect(first.permissions).toEqual(readOnly);
    await loadShellPermissions(api, { ...scope, request: request() }, flagsOn);
    expect(calls.count).toBe(1);

    forgetPermissions("bob-shell");
    await loadShellPermissions(api, { ...scope, request: request() }, flagsOn);
    expect(calls.count).toBe(2);

    await loadShellPermissions(api, { ...scope, request: request("/?switchOrg=org_acme") }, flagsOn);
    expect(calls.count).toBe(3);
  });

  it("are asked for together with the flags, not after them", async () => {
    let flagsAnswered: (flags: typeof featureFlagDefaults) => void = () => {};
    const flags = new Promise<typeof featureFlagDefaults>((resolve) => (flagsAnswered = resolve));
    const asked = vi.fn();
    server.use(
      http.get(`${platform}/api/v2/organizations/t-parallel/users/v2/permissions`, () => {
        asked();
        flagsAnswered({ ...featureFlagDefaults });
        return HttpResponse.json(readOnly);
      }),
    );
    const loaded = await loadShellPermissions(
      client(),
      { userId: "u", tenantId: "t-parallel", request: request() },
      flags,
    );
    expect(asked).toHaveBeenCalledTimes(1);
    expect(loaded.permissions).toEqual(readOnly);
  });

  it("are not in use (null: everything offered) while the RBAC permissions UI or users-v2 flag is off", async () => {
    platformAnswering("t-flags", () => HttpResponse.json(readOnly));
    for (const off of ["rbac-permissions-ui", "users-v2"] as const) {
      const loaded = await loadShellPermissions(
        client(),
        { userId: `u-${off}`, tenantId: "t-flags", request: request() },
        Promise.resolve({ ...featureFlagDefaults, [off]: false }),
      );
      expect(loaded.permissions).toBeNull();
    }
  });

  it("are unknown (null) when the platform cannot say, so the shell still renders", async () => {
    platformAnswering("t-down", () => HttpResponse.json({ message: "down" }, { status: 500 }));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const loaded = await loadShellPermissions(
        client(),
        { userId: "u", tenantId: "t-down", request: request() },
        flagsOn,
      );
      expect(loaded.permissions).toBeNull();
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
    }
  });
});

describe("requirePermission", () => {
  function guardClient(tenantId: string, userId: string) {
    server.use(
      http.get(`${platform}/api/v2/feature-flags`, () =>
        HttpResponse.json({ featureFlags: { ...featureFlagDefaults } }),
      ),
    );
    return { api: client(), tenantId, user: { sub: userId }, headers: new Headers() };
  }
  const request = new Request("https://console.example/environments/create");

  it("sends a member without the permission to /401", async () => {
    platformAnswering("t-guard", () => HttpResponse.json(readOnly));
    const thrown = await requirePermission(
      request,
      guardClient("t-guard", "bob-guard"),
      "environments.create",
    ).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/401");
  });

  it("lets a member through where their role reaches, and nowhere else", async () => {
    platformAnswering("t-scoped", () => HttpResponse.json(developerOnStaging));
    const guard = guardClient("t-scoped", "erin-guard");
    await expect(
      requirePermission(request, guard, "services.configure", { environmentId: "env-staging" }),
    ).resolves.toBeUndefined();
    const thrown = await requirePermission(request, guard, "services.configure", {
      environmentId: "env-prod",
    }).catch((error: unknown) => error);
    expect((thrown as Response).headers.get("Location")).toBe("/401");
  });
});
