import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiErrorCodes, errorMessages } from "#contract/errors";
import type { OrganizationClaim } from "#contract/identity";
import { anEnvironment } from "~/features/environments/test-factories";

const platform = "https://platform.example";
process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = platform;
process.env.APP_URL = "https://console.example";

const { loadWorkspace, requireEnvironment, requireEnvironmentIdentity } = await import("./workspace.server");
const { commitSession, getSession } = await import("~/auth/session.server");

const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "tenant-1" },
};
const tenant = { id: "tenant-1", organizationId: "org_acme", name: "acme", displayName: "Acme Corp" };
const {
  serviceCount: _count,
  monthlyCostEstimate: _cost,
  stage: _stage,
  ...prod
} = anEnvironment({
  name: "prod",
  organizationId: "tenant-1",
});

const pendingApproval = {
  message: errorMessages.tenantApprovalRequired,
  code: apiErrorCodes.tenantApprovalRequired,
};

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A signed-in request for `path`; each loader of a page gets its own Request object from Remix. */
async function signedInRequest(path: string, previous?: Headers) {
  const session = await getSession(new Request("https://console.example/", { headers: cookieOf(previous) }));
  session.set("user", { sub: "user_ada", name: "Ada Lovelace", email: "ada@example.com" });
  session.set("organizations", [acme]);
  session.set("organizationId", acme.id);
  session.set("tokens", {
    accessToken: "access",
    refreshToken: "refresh",
    expiresAt: Date.now() + 3_600_000,
  });
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  return new Request(`https://console.example${path}`, { headers: { Cookie: cookie } });
}

/** The session cookie a previous answer set, to send with the next request. */
function cookieOf(previous: Headers | undefined): HeadersInit {
  const cookie = previous?.get("Set-Cookie")?.split(";")[0];
  return cookie ? { Cookie: cookie } : {};
}

/**
 * The platform's tenant and environment list; the tenant answers only once the list was asked for, so a shell
 * that asked for them one after the other would never get its answer.
 */
function platformRecording({ approved = true } = {}) {
  const environmentLists: URL[] = [];
  let listAsked: () => void = () => {};
  const listWasAsked = new Promise<void>((resolve) => (listAsked = resolve));
  server.use(
    http.get(`${platform}/api/tenant/tenant-1`, async () => {
      await listWasAsked;
      if (!approved) {
        return HttpResponse.json(pendingApproval, { status: 403 });
      }
      return HttpResponse.json({ tenant: { ...tenant, approved } });
    }),
    http.get(`${platform}/api/v2/organizations/tenant-1/environments`, ({ request }) => {
      environmentLists.push(new URL(request.url));
      listAsked();
      if (!approved) {
        return HttpResponse.json(pendingApproval, { status: 403 });
      }
      return HttpResponse.json({ environments: [prod] });
    }),
  );
  return environmentLists;
}

describe("the shell and the page of one request", () => {
  it("ask for the tenant and the environment names together, and for the names once", async () => {
    const environmentLists = platformRecording();
    const context = {};

    const [workspace, page] = await Promise.all([
      loadWorkspace(await signedInRequest("/env/prod/services"), context),
      requireEnvironment(await signedInRequest("/env/prod/services"), "prod", context),
    ]);

    expect(workspace.currentEnvironment).toEqual(prod);
    expect(page.environment).toEqual(prod);
    expect(environmentLists).toHaveLength(1);
    expect(environmentLists[0]?.searchParams.get("totals")).toBe("false");
  }, 5_000);

  it("ask again in the next request", async () => {
    const environmentLists = platformRecording();
    await requireEnvironment(await signedInRequest("/env/prod/services"), "prod", {});
    await requireEnvironment(await signedInRequest("/env/prod/services"), "prod", {});
    expect(environmentLists).toHaveLength(2);
  });

  it("send an organization awaiting approval to the pending screen", async () => {
    platformRecording({ approved: false });
    const thrown = await loadWorkspace(await signedInRequest("/environments"), {}).catch(
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/pending-approval");
  });
});

describe("a page of the environment last opened", () => {
  it("asks for no environment names: the session remembers the id the shell found", async () => {
    const environmentLists = platformRecording();
    const opened = await loadWorkspace(await signedInRequest("/env/prod/services"), {});
    expect(environmentLists).toHaveLength(1);

    const poll = await requireEnvironmentIdentity(
      await signedInRequest("/env/prod/services", opened.headers),
      "prod",
      {},
    );

    expect(environmentLists).toHaveLength(1);
    // What never changes about it: enough for every page that does not show its totals.
    expect(poll.environment).toEqual({
      id: prod.id,
      name: "prod",
      cloudConnectionId: null,
      cloudProvider: prod.cloudProvider,
      region: prod.region,
    });
  });

  it("looks the name up once for a session that remembered only the id (kept before the cloud was)", async () => {
    const environmentLists = platformRecording();
    const session = await getSession(new Request("https://console.example/"));
    session.set("environment", { tenantId: "tenant-1", name: "prod", id: prod.id, cloudConnectionId: null });
    const older = new Headers({ "Set-Cookie": await commitSession(session) });

    const first = await requireEnvironmentIdentity(await signedInRequest("/env/prod", older), "prod", {});
    await requireEnvironmentIdentity(await signedInRequest("/env/prod", first.headers), "prod", {});

    expect(environmentLists).toHaveLength(1);
    expect(first.environment).toMatchObject({ cloudProvider: prod.cloudProvider, region: prod.region });
  });

  it("looks another environment's name up, as the pages that need more than the id do", async () => {
    const environmentLists = platformRecording();
    const opened = await requireEnvironment(await signedInRequest("/env/prod/services"), "prod", {});

    const other = await requireEnvironmentIdentity(
      await signedInRequest("/env/staging/services", opened.headers),
      "staging",
      {},
    ).catch((error: unknown) => error);

    expect(environmentLists).toHaveLength(2);
    // No environment of that name: back to the root, as before.
    expect((other as Response).headers.get("Location")).toBe("/");
  });

  it("looks the name up when the remembered environment is another tenant's", async () => {
    const environmentLists = platformRecording();
    const session = await getSession(new Request("https://console.example/"));
    session.set("environment", {
      tenantId: "tenant-2",
      name: "prod",
      id: "id-elsewhere",
      cloudConnectionId: null,
    });
    const elsewhere = new Headers({ "Set-Cookie": await commitSession(session) });

    const page = await requireEnvironmentIdentity(
      await signedInRequest("/env/prod/services", elsewhere),
      "prod",
      {},
    );

    expect(environmentLists).toHaveLength(1);
    expect(page.environment.id).toBe(prod.id);
  });
});
