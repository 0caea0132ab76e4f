import { redirect } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { EXPIRY_MARGIN_MS, expireSession, refreshSessionTokens, requireUser } from "~/auth/auth.server";
import { commitSession } from "~/auth/session.server";
import { currentOrganization } from "~/features/organizations/current-organization";
import { createPlatformClient } from "./client.server";

/**
 * A loader's or action's first line: enforces sign-in and returns a platform client that carries the user's
 * access token. The token is refreshed ahead of expiry and once on a 401; the refreshed session cookie is
 * appended to `headers`, which the route returns with its data. When refreshing fails the session is flagged
 * expired and the user is sent to sign in (the redirect is thrown from the platform call).
 */
export async function requirePlatformClient(request: Request) {
  const signedIn = await requireUser(request);
  const { session } = signedIn;
  const headers = new Headers();

  const refresh = async (): Promise<string> => {
    const accessToken = await refreshSessionTokens(session);
    if (!accessToken) throw await expireSession(request, session);
    headers.set("Set-Cookie", await commitSession(session));
    return accessToken;
  };

  if (signedIn.tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) await refresh();

  const api = createPlatformClient({
    baseUrl: getEnv().platformApiUrl,
    getAccessToken: async () => session.get("tokens")?.accessToken ?? "",
    onUnauthorized: refresh,
  });
  return {
    api,
    headers,
    user: session.get("user") ?? signedIn.user,
    organizations: session.get("organizations") ?? signedIn.organizations,
  };
}

/** requirePlatformClient for pages that work inside the current organization; without one, back to the start. */
export async function requireOrganizationClient(request: Request) {
  const client = await requirePlatformClient(request);
  const organization = currentOrganization(client.organizations);
  if (!organization) throw redirect("/", { headers: client.headers });
  return { ...client, organization, tenantId: organization.tenantId };
}
