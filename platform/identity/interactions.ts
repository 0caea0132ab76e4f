import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { errors } from "oidc-provider";
import type { Database } from "../db/index";
import { grantFirstPartyAccess } from "./first-party-grant";
import { readForm, sendJson } from "./http";
import { secondsUntil, signInWithPassword } from "./login-throttle";
import {
  WRONG_CREDENTIALS_MESSAGE,
  htmlSecurityHeaders,
  renderLoginPage,
  renderMessagePage,
  sendHtml,
  signInLockedMessage,
} from "./pages";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

export function interactionPath(uid: string): string {
  return `/interaction/${uid}`;
}

export function interactionUidOf(pathname: string): string | undefined {
  return /^\/interaction\/([\w-]+)$/.exec(pathname)?.[1];
}

/**
 * The pages oidc-provider sends the browser to while it needs the user: GET shows the login form, POST checks
 * the password and hands the result back to oidc-provider, which continues to the app with a code.
 */
export function createInteractionHandler({
  provider,
  db,
  apiResource,
  appOrigin,
}: {
  provider: Provider;
  db: Database;
  apiResource: string;
  /** After the login form posts, the browser is redirected on to the app; its CSP form-action must allow that. */
  appOrigin: string;
}) {
  return async function handleInteraction(req: IncomingMessage, res: ServerResponse, uid: string) {
    const interaction = await provider.interactionDetails(req, res).catch((error: unknown) => {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    });
    if (!interaction || interaction.uid !== uid) return sendExpired(res);
    if (interaction.prompt.name !== "login") return finishConsent(req, res, interaction);

    const action = interactionPath(uid);
    if (req.method === "GET") {
      const loginHint =
        typeof interaction.params.login_hint === "string" ? interaction.params.login_hint : "";
      return sendHtml(res, 200, renderLoginPage({ action, email: loginHint }), [appOrigin]);
    }
    if (req.method !== "POST") {
      return sendJson(res, 405, { error: "method_not_allowed" }, { Allow: "GET, POST" });
    }

    const form = await readForm(req);
    const email = form.get("email") ?? "";
    // The socket's address: the provider is reached directly, a forwarded-for header could be forged.
    const address = req.socket.remoteAddress ?? "unknown";
    const result = await signInWithPassword(db, { email, password: form.get("password") ?? "", address });
    if (result.outcome === "wrong-credentials") {
      const page = renderLoginPage({ action, email, error: WRONG_CREDENTIALS_MESSAGE });
      return sendHtml(res, 401, page, [appOrigin]);
    }
    if (result.outcome === "throttled") {
      const seconds = secondsUntil(result.retryAt, new Date());
      const page = renderLoginPage({ action, email, error: signInLockedMessage(seconds) });
      res.writeHead(429, { ...htmlSecurityHeaders([appOrigin]), "Retry-After": String(seconds) });
      res.end(page);
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: result.accountId, amr: ["pwd"] } },
      { mergeWithLastSubmission: false },
    );
  };

  /** Any prompt other than login (an unusual consent request) is answered for the user: no consent screen. */
  async function finishConsent(req: IncomingMessage, res: ServerResponse, interaction: Interaction) {
    const accountId = interaction.session?.accountId;
    const clientId = interaction.params.client_id;
    if (!accountId || typeof clientId !== "string") return sendExpired(res);
    const grant = await grantFirstPartyAccess(provider, apiResource, {
      accountId,
      clientId,
      grantId: interaction.grantId,
    });
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: grant.jti } },
      { mergeWithLastSubmission: true },
    );
  }
}

function sendExpired(res: ServerResponse): void {
  const page = renderMessagePage({
    title: "Sign-in expired",
    message: "This sign-in page has expired. Go back to the app and sign in again.",
  });
  sendHtml(res, 400, page);
}
