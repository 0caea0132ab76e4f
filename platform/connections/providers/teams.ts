import { OPEN_LINK_LABEL, testMessage, urlOf, type NotificationMessage, type Poster } from "../chat-messages";
import { endpoint, jsonOf } from "../http";
import type { Credentials, Provider } from "../providers";
import { checkWith, fetchOrRefuse, ProviderRefusal } from "../refusals";

/**
 * Microsoft Teams: an incoming webhook (POST a MessageCard; Teams answers 200 with the body "1", a workflow webhook
 * 202, and a failure as a status with plain text) or Microsoft Graph (POST the channel's messages with an access
 * token; 201, or an `{error: {code, message}}` answer). The check posts a real test message through the same code
 * as notifications.
 */

const DEFAULT_GRAPH_URL = "https://graph.microsoft.com";
/** The product's purple (SPEC §9), the card's accent. */
const THEME_COLOR = "6E27D5";

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** The message as an Office 365 connector card, what incoming webhooks take. */
export function messageCardOf(message: NotificationMessage) {
  return {
    "@type": "MessageCard",
    "@context": "https://schema.org/extensions",
    summary: message.title,
    themeColor: THEME_COLOR,
    title: message.title,
    text: message.text,
    sections: [{ facts: Object.entries(message.facts).map(([name, value]) => ({ name, value })) }],
    potentialAction: [
      { "@type": "OpenUri", name: OPEN_LINK_LABEL, targets: [{ os: "default", uri: message.link }] },
    ],
  };
}

/** The message as a Graph chatMessage (HTML body). */
export function chatMessageOf(message: NotificationMessage) {
  const facts = Object.entries(message.facts)
    .map(([name, value]) => `<b>${escapeHtml(name)}</b>: ${escapeHtml(value)}`)
    .join("<br>");
  return {
    body: {
      contentType: "html",
      content:
        `<h3>${escapeHtml(message.title)}</h3><p>${escapeHtml(message.text)}</p>` +
        (facts ? `<p>${facts}</p>` : "") +
        `<p><a href="${escapeHtml(message.link)}">${OPEN_LINK_LABEL}</a></p>`,
    },
  };
}

async function postToWebhook(webhookUrl: string, message: NotificationMessage): Promise<string> {
  const response = await fetchOrRefuse(
    urlOf(webhookUrl, "WEBHOOK_URL"),
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(messageCardOf(message)),
    },
    "WEBHOOK_URL",
  );
  const answer = (await response.text()).trim();
  // A connector answers "1"; a Teams workflow ("Post to a channel when a webhook request is received") 202.
  if ((response.status === 200 && (answer === "1" || answer === "")) || response.status === 202) {
    return "Teams accepted the message.";
  }
  if (response.status === 429) {
    throw new ProviderRefusal(
      "Teams is limiting how often this webhook may post (429): it is tried again later.",
    );
  }
  const said = answer ? `: ${cut(answer, 200)}` : "";
  if ([401, 403, 404, 410].includes(response.status)) {
    throw new ProviderRefusal(
      `Teams answered ${response.status}${said}${said.endsWith(".") ? "" : "."} The webhook was removed, or its URL is mistyped: create a new one and paste its URL.`,
      "WEBHOOK_URL",
    );
  }
  // Teams also answers 200 with the reason when it could not deliver the card.
  throw new ProviderRefusal(`Teams did not post the message (${response.status})${said || "."}`);
}

async function postWithGraph(credentials: Credentials, message: NotificationMessage): Promise<string> {
  const [team = "", channel = ""] = (credentials.fields.CHANNEL ?? "").split("/");
  const response = await fetchOrRefuse(
    endpoint(
      credentials.fields.BASE_URL ?? DEFAULT_GRAPH_URL,
      `/v1.0/teams/${encodeURIComponent(team)}/channels/${encodeURIComponent(channel)}/messages`,
    ),
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${credentials.secrets.TOKEN ?? ""}`,
      },
      body: JSON.stringify(chatMessageOf(message)),
    },
    "BASE_URL",
  );
  if (response.status === 201 || response.status === 200) {
    return "Microsoft Graph posted the message to the channel.";
  }
  if (response.status === 429) {
    throw new ProviderRefusal(
      "Microsoft Graph is limiting how often this token may post (429): it is tried again later.",
    );
  }
  const body = (await jsonOf(response)) as { error?: { code?: string; message?: string } } | undefined;
  if (!body?.error) {
    throw new ProviderRefusal(
      `Microsoft Graph answered ${response.status} without its usual answer: check the API URL.`,
      "BASE_URL",
    );
  }
  const code = body.error.code ?? `${response.status}`;
  const said = body.error.message ? ` ${cut(body.error.message, 200)}` : "";
  if (response.status === 401) {
    throw new ProviderRefusal(
      `Microsoft Graph refused the access token (${code}): it has expired or is not for Graph. Paste a new one.${said}`,
      "TOKEN",
    );
  }
  if (response.status === 403) {
    throw new ProviderRefusal(
      `The access token may not post to this channel (${code}): it needs the ChannelMessage.Send permission.${said}`,
      "TOKEN",
    );
  }
  if (response.status === 404) {
    throw new ProviderRefusal(
      `Microsoft Graph finds no such team or channel (${code}): check the team id and the channel id.`,
      "CHANNEL",
    );
  }
  throw new ProviderRefusal(`Microsoft Graph refused the message (${code}).${said}`);
}

/**
 * Posts `message` with a Teams connection's webhook or Graph token and says how Teams took it; a refusal or an
 * unreachable host is a ProviderRefusal naming the field to fix.
 */
export const postToTeams: Poster = (credentials, message) =>
  credentials.method === "webhook"
    ? postToWebhook(credentials.secrets.WEBHOOK_URL ?? "", message)
    : postWithGraph(credentials, message);

export const teams: Provider = {
  check: (credentials, context) =>
    checkWith(async () => ({
      message: "Teams accepted the test message: look for it in the channel.",
      details: [await postToTeams(credentials, testMessage(context))],
    })),
};
