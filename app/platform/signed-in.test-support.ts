import type { OrganizationClaim } from "#contract/identity";
import type { SessionData } from "~/auth/session.server";
import { FAKE_PLATFORM_URL } from "~/platform/fake-platform.test-support";

/*
 * A signed-in user for the tests of a loader as Remix calls it: the app's configuration (set when this module is
 * imported, before the test imports its route), Acme Corp's claim, and a session cookie remembering an environment.
 */
process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = FAKE_PLATFORM_URL;
process.env.APP_URL = "https://console.example";

export const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "tenant-1" },
};

/** The cookie of Ada (or `userId`) signed in to Acme Corp, remembering `environment` as the shell does. */
export async function signedInCookie({
  userId = "user_ada",
  environment,
}: {
  userId?: string;
  environment: Omit<SessionData["environment"], "tenantId">;
}): Promise<string> {
  const { commitSession, getSession } = await import("~/auth/session.server");
  const session = await getSession(new Request("https://console.example/"));
  session.set("user", { sub: userId, name: "Ada Lovelace", email: "ada@example.com" });
  session.set("organizations", [acme]);
  session.set("organizationId", acme.id);
  session.set("tokens", {
    accessToken: "access",
    refreshToken: "refresh",
    expiresAt: Date.now() + 3_600_000,
  });
  session.set("environment", { tenantId: "tenant-1", ...environment });
  return (await commitSession(session)).split(";")[0] ?? "";
}
