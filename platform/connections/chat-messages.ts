import { connectionPages, type ConnectionFieldName } from "#contract/connections";
import type { Credentials } from "./providers";
import { ProviderRefusal } from "./refusals";

/**
 * What a Slack or Teams connection posts: a title, a sentence or two, the facts (organization, environment,
 * service, ...) and the app page it links to. Stored as is in a delivery (no secret ever goes in), and turned into
 * each chat's own format by its sender (platform/connections/providers/slack.ts, teams.ts).
 */
export type NotificationMessage = {
  title: string;
  text: string;
  link: string;
  facts: Record<string, string>;
};

/**
 * Posts `message` with a chat connection's credentials and says, in plain words, how the chat took it. The chat's
 * refusal or an unreachable host throws a ProviderRefusal (platform/connections/refusals.ts) naming the field to fix.
 */
export type Poster = (credentials: Credentials, message: NotificationMessage) => Promise<string>;

/** A connection's URL field as a URL; one that does not parse is the field to fix. */
export function urlOf(value: string, field: ConnectionFieldName): URL {
  try {
    return new URL(value);
  } catch {
    throw new ProviderRefusal("The URL is not valid.", field);
  }
}

/** The label of the link in every message. */
export const OPEN_LINK_LABEL = "Open in Cloud Console";

/**
 * The app's pages a message links to (the app's routes under /env, see app/features/environments/paths.ts and
 * app/features/services/paths.ts; the platform cannot import the app).
 */
export const appPages = {
  environment: (environmentName: string) => `/env/${encodeURIComponent(environmentName)}`,
  service: (environmentName: string, serviceId: string) =>
    `/env/${encodeURIComponent(environmentName)}/services/${encodeURIComponent(serviceId)}`,
};

/** `path` on the app's public origin (APP_URL). */
export function appLink(appUrl: string, path: string): string {
  return `${appUrl.replace(/\/+$/, "")}${path}`;
}

/** The message 'Test connection' and verification on save post, through the same code as notifications. */
export function testMessage({
  organizationName,
  appUrl,
}: {
  organizationName: string;
  appUrl: string;
}): NotificationMessage {
  return {
    title: "Connection test",
    text: `Connection test from ${organizationName}: notifications will arrive here`,
    link: appLink(appUrl, connectionPages.index),
    facts: { Organization: organizationName },
  };
}
