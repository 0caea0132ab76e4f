import type { ConnectionFieldName } from "#contract/connections";
import {
  OPEN_LINK_LABEL,
  testMessage,
  type NotificationMessage,
  type PostResult,
} from "../../notifications/message";
import { endpoint, jsonOf, providerFetch, ProviderUnreachableError } from "../http";
import type { Credentials, Provider } from "../providers";

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

async function postToWebhook(webhookUrl: string, message: NotificationMessage): Promise<PostResult> {
  const response = await providerFetch(webhookUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(messageCardOf(message)),
  });
  const answer = (await response.text()).trim();
  // A connector answers "1"; a Teams workflow ("Post to a channel when a webhook request is received") 202.
  if ((response.status === 200 && (answer === "1" || answer === "")) || response.status === 202) {
    return { ok: true, message: "Teams accepted the message." };
  }
  if (response.status === 429) {
    return {
      ok: false,
      message: "Teams is limiting how often this webhook may post (429): it is tried again later.",
    };
  }
  const said = answer ? `: ${cut(answer, 200)}` : ".";
  if ([401, 403, 404, 410].includes(response.status)) {
    return {
      ok: false,
      message: `Teams answered ${response.status}${said}${said.endsWith(".") ? "" : "."} The webhook was removed, or its URL is mistyped: create a new one and paste its URL.`,
      field: "WEBHOOK_URL",
    };
  }
  // Teams also answers 200 with the reason when it could not deliver the card.
  return { ok: false, message: `Teams did not post the message (${response.status})${said}` };
}

async function postWithGraph(credentials: Credentials, message: NotificationMessage): Promise<PostResult> {
  const [team = "", channel = ""] = (credentials.fields.CHANNEL ?? "").split("/");
  const response = await providerFetch(
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
  );
  if (response.status === 201 || response.status === 200) {
    return { ok: true, message: "Microsoft Graph posted the message to the channel." };
  }
  const body = (await jsonOf(response)) as { error?: { code?: string; message?: string } } | undefined;
  const code = body?.error?.code ?? `${response.status}`;
  const said = body?.error?.message ? ` ${cut(body.error.message, 200)}` : "";
  if (response.status === 429) {
    return {
      ok: false,
      message: "Microsoft Graph is limiting how often this token may post (429): it is tried again later.",
    };
  }
  if (!body?.error) {
    return {
      ok: false,
      message: `Microsoft Graph answered ${response.status} without its usual answer: check the API URL.`,
      field: "BASE_URL",
    };
  }
  if (response.status === 401) {
    return {
      ok: false,
      message: `Microsoft Graph refused the access token (${code}): it has expired or is not for Graph. Paste a new one.${said}`,
      field: "TOKEN",
    };
  }
  if (response.status === 403) {
    return {
      ok: false,
      message: `The access token may not post to this channel (${code}): it needs the ChannelMessage.Send permission.${said}`,
      field: "TOKEN",
    };
  }
  if (response.status === 404) {
    return {
      ok: false,
      message: `Microsoft Graph finds no such team or channel (${code}): check the team id and the channel id.`,
      field: "CHANNEL",
    };
  }
  return { ok: false, message: `Microsoft Graph refused the message (${code}).${said}` };
}

/** Posts `message` with a Teams connection's webhook or Graph token. */
export async function postToTeams(
  credentials: Credentials,
  message: NotificationMessage,
): Promise<PostResult> {
  const field: ConnectionFieldName = credentials.method === "webhook" ? "WEBHOOK_URL" : "BASE_URL";
  try {
    return credentials.method === "webhook"
      ? await postToWebhook(credentials.secrets.WEBHOOK_URL ?? "", message)
      : await postWithGraph(credentials, message);
  } catch (error) {
    if (error instanceof ProviderUnreachableError) return { ok: false, message: error.message, field };
    if (error instanceof TypeError) return { ok: false, message: "The URL is not valid.", field };
    throw error;
  }
}

export const teams: Provider = {
  async check(credentials, context) {
    const result = await postToTeams(credentials, testMessage(context));
    return result.ok
      ? {
          ok: true,
          message: "Teams accepted the test message: look for it in the channel.",
          details: [result.message],
        }
      : { ok: false, message: result.message, details: [], field: result.field };
  },
};
