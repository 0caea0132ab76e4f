import { and, eq, inArray } from "drizzle-orm";
import {
  defaultNotificationRules,
  notificationRulesSchema,
  type NotificationEvent,
  type NotificationRules,
} from "#contract/connections";
import {
  MAX_RETRIES,
  serviceTypeLabels,
  type ResourceAction,
  type ServiceType,
} from "#contract/service-catalogue";
import { serviceErrorMessages } from "#contract/services";
import type { Database } from "../db/index";
import { connections, notificationDeliveries, organizations } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import { appLink, appPages, type NotificationMessage } from "../connections/chat-messages";

/**
 * The outbox of notifications (issue 13). The engine calls `notify` in the transaction that records a deployment's
 * or a clone's end, and one delivery per Slack or Teams connection of the organization whose rules take the event
 * and the environment is inserted there: the deliveries exist exactly when the end does, and the delivery worker
 * (./worker.ts) posts them afterwards, outside any transaction.
 */

export const chatKinds = ["COMMUNICATION_PLATFORM_TYPE_SLACK", "COMMUNICATION_PLATFORM_TYPE_TEAMS"] as const;
export type ChatKind = (typeof chatKinds)[number];
export const isChatKind = (kind: string): kind is ChatKind => (chatKinds as readonly string[]).includes(kind);

type Service = { id: string; name: string; serviceType: ServiceType };

/** What the engine reports; the failure's reason is what the service's page shows. */
export type EngineEvent =
  | { event: "deployment.succeeded"; environment: EnvironmentRow; service: Service; action: ResourceAction }
  | {
      event: "deployment.failed" | "deployment.retry-limit";
      environment: EnvironmentRow;
      service: Service;
      action: ResourceAction;
      reason: string;
      retries: number;
    }
  | {
      event: "clone.finished";
      environment: EnvironmentRow;
      sourceEnvironmentName: string;
      /** Null when the clone reached its end; the reason when it failed. */
      failure: string | null;
    };

export type Notify = (tx: Database, event: EngineEvent, now: Date) => Promise<number>;

/** The stored rules of a connection, or the defaults for one that never set any. */
export function rulesOf(stored: unknown): NotificationRules {
  return notificationRulesSchema.safeParse(stored).data ?? defaultNotificationRules;
}

/**
 * Whether `rules` take `event` in the environment. Reaching the retry limit is also a failed deployment: a
 * connection that posts failures posts it (once, as the retry limit).
 */
export function rulesTake(
  rules: NotificationRules,
  event: NotificationEvent,
  environmentId: string,
): boolean {
  const takesEvent =
    rules.events.includes(event) ||
    (event === "deployment.retry-limit" && rules.events.includes("deployment.failed"));
  return takesEvent && (rules.environmentIds === null || rules.environmentIds.includes(environmentId));
}

/** The message of an event: names the organization, environment and service, says what happened, links the page. */
export function messageOf(event: EngineEvent, organizationName: string, appUrl: string): NotificationMessage {
  const environmentName = event.environment.name;
  if (event.event === "clone.finished") {
    const facts = {
      Organization: organizationName,
      Environment: environmentName,
      "Cloned from": event.sourceEnvironmentName,
    };
    const link = appLink(appUrl, appPages.environment(environmentName));
    return event.failure === null
      ? {
          title: `Clone finished: ${environmentName}`,
          text:
            `${environmentName} in ${organizationName} is cloned from ${event.sourceEnvironmentName}: its resources ` +
            `are launched and its applications are ready to review and deploy.`,
          link,
          facts,
        }
      : {
          title: `Clone failed: ${environmentName}`,
          text: `Cloning ${event.sourceEnvironmentName} into ${environmentName} in ${organizationName} failed: ${event.failure}`,
          link,
          facts,
        };
  }
  const { service } = event;
  const facts: Record<string, string> = {
    Organization: organizationName,
    Environment: environmentName,
    Service: service.name,
    Type: serviceTypeLabels[service.serviceType],
    Action: event.action,
  };
  const link = appLink(appUrl, appPages.service(environmentName, service.id));
  const where = `${service.name} in ${environmentName} (${organizationName})`;
  switch (event.event) {
    case "deployment.succeeded":
      return {
        title: `Deployment succeeded: ${service.name} in ${environmentName}`,
        text: `The deployment of ${where} succeeded: it is running.`,
        link,
        facts,
      };
    case "deployment.failed":
      return {
        title: `Deployment failed: ${service.name} in ${environmentName}`,
        text: `The deployment of ${where} failed: ${event.reason}`,
        link,
        facts: { ...facts, "Retries used": `${event.retries} of ${MAX_RETRIES}` },
      };
    case "deployment.retry-limit":
      return {
        title: `Retry limit reached: ${service.name} in ${environmentName}`,
        text: `The deployment of ${where} failed: ${event.reason}\n${serviceErrorMessages.retryLimit}`,
        link,
        facts: { ...facts, "Retries used": `${event.retries} of ${MAX_RETRIES}` },
      };
  }
}

/** The outbox for the app at `appUrl` (APP_URL: messages link to its pages). */
export function createNotifier({ appUrl }: { appUrl: string }): Notify {
  return async (tx, event, now) => {
    const [organization] = await tx
      .select({ id: organizations.id, displayName: organizations.displayName })
      .from(organizations)
      .where(eq(organizations.tenantId, event.environment.tenantId));
    if (!organization) return 0;
    const chats = await tx
      .select({ id: connections.id, notifications: connections.notifications })
      .from(connections)
      .where(and(eq(connections.organizationId, organization.id), inArray(connections.kind, [...chatKinds])));
    const targets = chats.filter((chat) =>
      rulesTake(rulesOf(chat.notifications), event.event, event.environment.id),
    );
    if (!targets.length) return 0;
    const message = messageOf(event, organization.displayName, appUrl);
    await tx.insert(notificationDeliveries).values(
      targets.map((chat) => ({
        connectionId: chat.id,
        environmentId: event.environment.id,
        event: event.event,
        message,
        status: "pending",
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
    return targets.length;
  };
}
