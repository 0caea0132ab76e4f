import type Provider from "oidc-provider";

/** Everything the first-party app asks for, granted without a consent screen. */
export const FIRST_PARTY_SCOPES = ["openid", "profile", "email", "offline_access"];

/**
 * The grant of the first-party app: the user's existing one (when it is theirs) or a new one, always holding
 * every OIDC scope and the API's scopes, so oidc-provider never needs to ask for consent.
 */
export async function grantFirstPartyAccess(
  provider: Provider,
  apiResource: string,
  { accountId, clientId, grantId }: { accountId: string; clientId: string; grantId?: string },
) {
  const existing = grantId ? await provider.Grant.find(grantId) : undefined;
  const grant =
    existing && existing.accountId === accountId && existing.clientId === clientId
      ? existing
      : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(FIRST_PARTY_SCOPES);
  grant.addResourceScope(apiResource, FIRST_PARTY_SCOPES.join(" "));
  await grant.save();
  return grant;
}
