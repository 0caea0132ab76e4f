import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { errors } from "oidc-provider";
import type { Database } from "../db/index";
import { clientAddressOf } from "../lib/client-address";
import { grantFirstPartyAccess } from "./first-party-grant";
import { readForm, sendJson } from "./http";
import { secondsUntil, signInWithPassword } from "./login-throttle";
import {
  WRONG_CREDENTIALS_MESSAGE,
  htmlSecurityHeaders,
  renderLoginPage,
  renderMessagePage,
  renderSignUpPage,
  sendHtml,
  signInLockedMessage,
  signUpLockedMessage,
} from "./pages";
import { signUp } from "./sign-up";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

type Screen = "login" | "signup";

/** Where oidc-provider sends the browser: the screen the authorization request asked for (see screenOf). */
export function interactionPath(uid: string): string {
  return `/interaction/${uid}`;
}

/** The login and sign-up screens by name, for the links between them; below interactionPath, so its cookie applies. */
export function screenPath(uid: string, screen: Screen): string {
  return `${interactionPath(uid)}/${screen}`;
}

export type InteractionRoute = { uid: string; screen?: Screen };

export function interactionRouteOf(pathname: string): InteractionRoute | undefined {
  const match = /^\/interaction\/([\w-]+)(?:\/(login|signup))?$/.exec(pathname);
  if (!match?.[1]) return undefined;
  return { uid: match[1], ...(match[2] ? { screen: match[2] as Screen } : {}) };
}

/** A named path shows its screen; interactionPath shows sign-up when asked with Auth0's screen_hint=signup. */
function screenOf(route: InteractionRoute, interaction: Interaction): Screen {
  return route.screen ?? (interaction.params.screen_hint === "signup" ? "signup" : "login");
}

/**
 * The pages oidc-provider sends the browser to while it needs the user: the login form and the sign-up form.
 * A right password or a new account is handed back to oidc-provider as a sign-in, and it continues to the app
 * with a code.
 */
export function createInteractionHandler({
  provider,
  db,
  apiResource,
  appOrigin,
  trustProxyHops = 0,
}: {
  provider: Provider;
  db: Database;
  apiResource: string;
  /** After the login form posts, the browser is redirected on to the app; its CSP form-action must allow that. */
  appOrigin: string;
  /** TRUST_PROXY: the reverse proxies whose X-Forwarded-For names the client the limits key on. */
  trustProxyHops?: number;
}) {
  /** The address sign-in and sign-up limits count attempts against. */
  const clientAddress = (req: IncomingMessage) =>
    clientAddressOf(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustProxyHops);

  return async function handleInteraction(
    req: IncomingMessage,
    res: ServerResponse,
    route: InteractionRoute,
  ) {
    const interaction = await provider.interactionDetails(req, res).catch((error: unknown) => {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    });
    if (!interaction || interaction.uid !== route.uid) return sendExpired(res);
    if (interaction.prompt.name !== "login") return finishConsent(req, res, interaction);
    if (req.method !== "GET" && req.method !== "POST") {
      return sendJson(res, 405, { error: "method_not_allowed" }, { Allow: "GET, POST" });
    }
    const screen = screenOf(route, interaction);
    // Each form posts back to where it was shown.
    const action = route.screen ? screenPath(route.uid, route.screen) : interactionPath(route.uid);
    const page = { req, res, interaction, action };
    return screen === "signup" ? signUpScreen(page) : loginScreen(page);
  };

  type Page = { req: IncomingMessage; res: ServerResponse; interaction: Interaction; action: string };

  async function loginScreen({ req, res, interaction, action }: Page) {
    const signUpHref = screenPath(interaction.uid, "signup");
    if (req.method === "GET") {
      const loginHint = loginHintOf(interaction);
      return sendHtml(res, 200, renderLoginPage({ action, signUpHref, email: loginHint }), [appOrigin]);
    }

    const form = await readForm(req);
    const email = form.get("email") ?? "";
    const address = clientAddress(req);
    const result = await signInWithPassword(db, { email, password: form.get("password") ?? "", address });
    if (result.outcome === "wrong-credentials") {
      const page = renderLoginPage({ action, signUpHref, email, error: WRONG_CREDENTIALS_MESSAGE });
      return sendHtml(res, 401, page, [appOrigin]);
    }
    if (result.outcome === "throttled") {
      const seconds = secondsUntil(result.retryAt, new Date());
      const page = renderLoginPage({ action, signUpHref, email, error: signInLockedMessage(seconds) });
      return sendThrottled(res, seconds, page);
    }
    await finishSignIn(req, res, result.accountId);
  }

  async function signUpScreen({ req, res, interaction, action }: Page) {
    const signInHref = screenPath(interaction.uid, "login");
    if (req.method === "GET") {
      const loginHint = loginHintOf(interaction);
      const page = renderSignUpPage({ action, signInHref, values: { name: "", email: loginHint } });
      return sendHtml(res, 200, page, [appOrigin]);
    }

    const form = await readForm(req);
    const fields = {
      name: form.get("name") ?? "",
      email: form.get("email") ?? "",
      password: form.get("password") ?? "",
    };
    const values = { name: fields.name, email: fields.email };
    const result = await signUp(db, { form: fields, address: clientAddress(req) });
    if (result.outcome === "signed-up") return finishSignIn(req, res, result.accountId);
    if (result.outcome === "throttled") {
      const seconds = secondsUntil(result.retryAt, new Date());
      const error = signUpLockedMessage(seconds);
      return sendThrottled(res, seconds, renderSignUpPage({ action, signInHref, values, error }));
    }
    const page =
      result.outcome === "invalid"
        ? renderSignUpPage({ action, signInHref, values, errors: result.errors })
        : renderSignUpPage({ action, signInHref, values, emailTaken: true });
    return sendHtml(res, result.outcome === "invalid" ? 400 : 409, page, [appOrigin]);
  }

  function sendThrottled(res: ServerResponse, seconds: number, page: string) {
    res.writeHead(429, { ...htmlSecurityHeaders([appOrigin]), "Retry-After": String(seconds) });
    res.end(page);
  }

  /** A password sign-in and a new account end alike: the user is signed in and oidc-provider goes on. */
  async function finishSignIn(req: IncomingMessage, res: ServerResponse, accountId: string) {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId, amr: ["pwd"] } },
      { mergeWithLastSubmission: false },
    );
  }

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

function loginHintOf(interaction: Interaction): string {
  return typeof interaction.params.login_hint === "string" ? interaction.params.login_hint : "";
}

function sendExpired(res: ServerResponse): void {
  const page = renderMessagePage({
    title: "Sign-in expired",
    message: "This sign-in page has expired. Go back to the app and sign in again.",
  });
  sendHtml(res, 400, page);
}
