import { createCookieSessionStorage, type Session } from "@remix-run/node";
import type { CloudProvider } from "#contract/cloud-providers";
import type { OrganizationClaim } from "#contract/identity";
import { getEnv } from "~/env.server";
import { createEncryptedCookie } from "./encrypted-cookie.server";

export type SessionUser = { sub: string; name: string; email: string; picture?: string };

export type SessionTokens = {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt: number;
};

export type SessionData = {
  user: SessionUser;
  organizations: OrganizationClaim[];
  tokens: SessionTokens;
  /** Where to go after sign-in; a sanitized relative path. */
  returnTo: string;
  /** Set when a token could no longer be refreshed; cleared by the next sign-in. */
  expired: boolean;
  /** The organization the user last worked in (SPEC §3 org-id). */
  organizationId: string;
  /**
   * The environment the user last worked in, per tenant (SPEC §3 current-workspace), with what never changes about
   * it (its id, cloud account, cloud and region, set at creation): a page of it needs no look-up by name first
   * (decision 065). Sessions saved before kept fewer of them.
   */
  environment: {
    tenantId: string;
    name: string;
    id?: string;
    cloudConnectionId?: string | null;
    cloudProvider?: CloudProvider;
    region?: string;
  };
};

export type SessionFlashData = Record<string, never>;

export type AppSession = Session<SessionData, SessionFlashData>;

let storage: ReturnType<typeof createStorage> | undefined;

function createStorage() {
  const env = getEnv();
  return createCookieSessionStorage<SessionData, SessionFlashData>({
    // Encrypted, not only signed: the cookie holds the access and refresh tokens.
    cookie: createEncryptedCookie("__session", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.production,
      secrets: env.sessionSecrets,
      // With organizations on subdomains the session must follow the user from one to another.
      ...(env.baseDomain ? { domain: `.${env.baseDomain}` } : {}),
      maxAge: 60 * 60 * 24 * 7,
    }),
  });
}

function sessionStorage() {
  storage ??= createStorage();
  return storage;
}

export function getSession(request: Request): Promise<AppSession> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export function commitSession(session: AppSession): Promise<string> {
  return sessionStorage().commitSession(session);
}

export function destroySession(session: AppSession): Promise<string> {
  return sessionStorage().destroySession(session);
}
