import type { LoaderFunctionArgs } from "@remix-run/node";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OrganizationClaim } from "#contract/identity";

const platform = "https://platform.example";
process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = platform;
process.env.APP_URL = "https://console.example";

const { loader } = await import("~/routes/_app.settings.audit-log_.export");
const { commitSession, getSession } = await import("~/auth/session.server");

const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "tenant-1" },
};
const exportPath = `${platform}/api/v2/organizations/tenant-1/audit-events/export`;

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The export's answer to a signed-in member of Acme, whether returned or thrown. */
async function exportAt(query: string): Promise<Response> {
  const session = await getSession(new Request("https://console.example/"));
  session.set("user", { sub: "user_ada", name: "Ada", email: "ada@example.com" });
  session.set("organizations", [acme]);
  session.set("tokens", {
    accessToken: "access",
    refreshToken: "refresh",
    expiresAt: Date.now() + 3_600_000,
  });
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  const request = new Request(`https://console.example/settings/audit-log/export${query}`, {
    headers: { Cookie: cookie },
  });
  try {
    return await loader({ request, params: {}, context: {} } as LoaderFunctionArgs);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("the audit log's CSV export", () => {
  it("sends a filter holding a NUL character back to the page, which shows the field's error", async () => {
    const response = await exportAt("?userId=%00");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings/audit-log?userId=%00");
  });

  it("answers a failed export with its status and a plain message, not an unexpected server error", async () => {
    server.use(
      http.get(exportPath, () =>
        HttpResponse.json({ message: "The export is not available now" }, { status: 422 }),
      ),
    );
    const response = await exportAt("");
    expect(response.status).toBe(422);
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toMatch(
      /^The audit log could not be exported: The export is not available now/,
    );
  });
});
