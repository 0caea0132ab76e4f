import { redirect } from "@remix-run/node";
import { EXPIRY_MARGIN_MS, expireSession, refreshSessionTokens, requireUser } from "~/auth/auth.server";
import { commitSession } from "~/auth/session.server";
import { getEnv } from "~/env.server";
import { resolveOrganization, usableOrganizations } from "~/features/organizations/current-organization";
import { createPlatformClient } from "./client.server";
import { heldAnswersOf } from "./held-answers.server";

/**
 * A loader's or action's first line: enforces sign-in and returns a platform client that carries the user's
 * access token. The token is refreshed ahead of expiry and once on a 401; the refreshed session cookie is
 * set on `headers`, which the route returns with its data. When refreshing fails the session is flagged
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
    // A poll of an unchanged page is answered from what the platform sent this user last (decision 065).
    held: heldAnswersOf(signedIn.user.sub),
    signal: request.signal,
  });
  return {
    api,
    headers,
    session,
    user: session.get("user") ?? signedIn.user,
    organizations: session.get("organizations") ?? signedIn.organizations,
    /** Stores session changes made by the route into `headers`. */
    saveSession: async () => headers.set("Set-Cookie", await commitSession(session)),
  };
}

/** A client without a token, for the few calls answered before sign-in (an invitation link's preview). */
export function anonymousPlatformClient() {
  return createPlatformClient({ baseUrl: getEnv().platformApiUrl, getAccessToken: async () => "" });
}

/**
 * requirePlatformClient for pages that work inside an organization, resolved as SPEC §4 orders it; the choice
 * is remembered in the session. A user without an organization is sent to create one.
 */
export async function requireOrganizationClient(request: Request) {
  const client = await requirePlatformClient(request);
  const url = new URL(request.url);
  const organization = resolveOrganization(client.organizations, {
    switchOrg: url.searchParams.get("switchOrg"),
    storedId: client.session.get("organizationId"),
    hostname: url.hostname,
  });
  if (!organization) throw redirect("/organizations/create", { headers: client.headers });
  if (client.session.get("organizationId") !== organization.id) {
    client.session.set("organizationId", organization.id);
    await client.saveSession();
  }
  return {
    ...client,
    organization,
    tenantId: organization.tenantId,
    memberships: usableOrganizations(client.organizations),
  };
}
