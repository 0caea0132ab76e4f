import type { ConnectionFieldName } from "#contract/connections";
import { OPEN_LINK_LABEL, testMessage, urlOf, type NotificationMessage, type Poster } from "../chat-messages";
import { endpoint, jsonOf } from "../http";
import type { Credentials, Provider } from "../providers";
import { checkWith, fetchOrRefuse, ProviderRefusal } from "../refusals";

/**
 * Slack: an incoming webhook (POST the message to its URL; Slack answers 200 "ok" or a status with an error code
 * as plain text) or a bot token (POST chat.postMessage with the token; Slack answers 200 with `{ok, error}`).
 * The connection's check posts a real test message through the same code as notifications.
 */

const DEFAULT_API_URL = "https://slack.com/api";
/** Slack's limit for a section's text. */
const SECTION_TEXT_MAX = 3000;

/** Slack's mrkdwn reserves &, < and >; everything else is shown as written. */
const escapeMrkdwn = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The message as Slack's blocks, with `text` as the notification's fallback. */
export function slackBodyOf(message: NotificationMessage) {
  const facts = Object.entries(message.facts).slice(0, 10);
  return {
    text: `${message.title}: ${message.text}`,
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: cut(
            `*${escapeMrkdwn(message.title)}*\n${escapeMrkdwn(message.text)}\n<${message.link}|${OPEN_LINK_LABEL}>`,
            SECTION_TEXT_MAX,
          ),
        },
      },
      ...(facts.length
        ? [
            {
              type: "section",
              fields: facts.map(([name, value]) => ({
                type: "mrkdwn",
                text: cut(`*${escapeMrkdwn(name)}*\n${escapeMrkdwn(value)}`, 2000),
              })),
            },
          ]
        : []),
    ],
  };
}

/** Incoming webhooks' error codes (the body of a non-200 answer). */
const webhookErrors: Record<string, string> = {
  no_service:
    "Slack does not know this webhook (no_service): it was removed, or its URL is mistyped. Create a new incoming webhook and paste its URL.",
  invalid_token:
    "Slack refused the webhook (invalid_token): it was revoked. Create a new incoming webhook and paste its URL.",
  no_team: "Slack does not know the workspace of this webhook (no_team): check its URL.",
  team_disabled: "The Slack workspace of this webhook is disabled (team_disabled).",
  channel_not_found:
    "The webhook's channel no longer exists (channel_not_found): create a webhook for another channel.",
  channel_is_archived:
    "The webhook's channel is archived (channel_is_archived): unarchive it, or create a webhook for another channel.",
  action_prohibited:
    "A Slack admin restricted posting to the webhook's channel (action_prohibited): ask them, or use another channel.",
  posting_to_general_channel_denied:
    "Only admins may post to the webhook's channel (posting_to_general_channel_denied): use another channel.",
};

/** chat.postMessage's error codes that say which field to fix. */
const tokenErrors: Record<string, { message: (channel: string) => string; field: ConnectionFieldName }> = {
  invalid_auth: {
    message: () => "Slack refused the bot token (invalid_auth): check it (a bot token begins with xoxb-).",
    field: "TOKEN",
  },
  not_authed: { message: () => "Slack received no bot token (not_authed): enter one.", field: "TOKEN" },
  token_revoked: {
    message: () => "The bot token was revoked (token_revoked): reinstall the app and paste its new token.",
    field: "TOKEN",
  },
  token_expired: {
    message: () => "The bot token has expired (token_expired): paste a new one.",
    field: "TOKEN",
  },
  account_inactive: {
    message: () =>
      "The bot token belongs to a deleted user or app (account_inactive): paste a current token.",
    field: "TOKEN",
  },
  missing_scope: {
    message: () =>
      "The bot token may not post messages (missing_scope): add the chat:write scope to the app and reinstall it.",
    field: "TOKEN",
  },
  channel_not_found: {
    message: (channel) =>
      `Slack finds no channel ${channel} (channel_not_found): check its name or id, and that the app can see it.`,
    field: "CHANNEL",
  },
  not_in_channel: {
    message: (channel) =>
      `The app is not a member of ${channel} (not_in_channel): invite it there with /invite, then test again.`,
    field: "CHANNEL",
  },
  is_archived: {
    message: (channel) => `${channel} is archived (is_archived): unarchive it, or choose another channel.`,
    field: "CHANNEL",
  },
  restricted_action: {
    message: (channel) =>
      `A Slack admin restricted posting to ${channel} (restricted_action): ask them, or choose another channel.`,
    field: "CHANNEL",
  },
};

async function postToWebhook(webhookUrl: string, message: NotificationMessage): Promise<string> {
  const response = await fetchOrRefuse(
    urlOf(webhookUrl, "WEBHOOK_URL"),
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(slackBodyOf(message)),
    },
    "WEBHOOK_URL",
  );
  const answer = (await response.text()).trim();
  if (response.status === 200) return "Slack accepted the message.";
  if (response.status === 429) {
    throw new ProviderRefusal(
      "Slack is limiting how often this webhook may post (429): it is tried again later.",
    );
  }
  const known = webhookErrors[answer];
  if (known) throw new ProviderRefusal(known, "WEBHOOK_URL");
  if (response.status === 404 || response.status === 403 || response.status === 410) {
    throw new ProviderRefusal(
      `Slack answered ${response.status}${answer ? ` (${cut(answer, 100)})` : ""}: check the webhook's URL.`,
      "WEBHOOK_URL",
    );
  }
  throw new ProviderRefusal(`Slack answered ${response.status}${answer ? `: ${cut(answer, 200)}` : "."}`);
}

async function postWithToken(credentials: Credentials, message: NotificationMessage): Promise<string> {
  const channel = credentials.fields.CHANNEL ?? "";
  const response = await fetchOrRefuse(
    endpoint(credentials.fields.BASE_URL ?? DEFAULT_API_URL, "/chat.postMessage"),
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        Authorization: `Bearer ${credentials.secrets.TOKEN ?? ""}`,
      },
      body: JSON.stringify({ channel, ...slackBodyOf(message), unfurl_links: false }),
    },
    "BASE_URL",
  );
  const body = (await jsonOf(response)) as { ok?: boolean; error?: string } | undefined;
  if (response.status === 429 || body?.error === "ratelimited") {
    throw new ProviderRefusal(
      "Slack is limiting how often this app may post (ratelimited): it is tried again later.",
    );
  }
  if (!body || typeof body.ok !== "boolean") {
    throw new ProviderRefusal(
      `Slack's API answered ${response.status} without its usual answer: check the API URL.`,
      "BASE_URL",
    );
  }
  if (body.ok) return `Slack posted the message to ${channel}.`;
  const known = body.error ? tokenErrors[body.error] : undefined;
  if (known) throw new ProviderRefusal(known.message(channel), known.field);
  throw new ProviderRefusal(`Slack refused the message: ${body.error ?? "no reason given"}.`);
}

/**
 * Posts `message` with a Slack connection's webhook or bot token and says how Slack took it; Slack's refusal or an
 * unreachable host is a ProviderRefusal naming the field to fix.
 */
export const postToSlack: Poster = (credentials, message) =>
  credentials.method === "webhook"
    ? postToWebhook(credentials.secrets.WEBHOOK_URL ?? "", message)
    : postWithToken(credentials, message);

export const slack: Provider = {
  check: (credentials, context) =>
    checkWith(async () => ({
      message: "Slack accepted the test message: look for it in the channel.",
      details: [await postToSlack(credentials, testMessage(context))],
    })),
};
