import { createPoller } from "../engine/poller";
import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { MAX_DELIVERY_ATTEMPTS, type DeliveryStatus } from "#contract/connections";
import type { EngineConfig } from "../lib/config";
import { postToSlack } from "../connections/providers/slack";
import { postToTeams } from "../connections/providers/teams";
import { ProviderRequestError, type Credentials } from "../connections/providers";
import { credentialsOf } from "../connections/records";
import { withoutSecrets } from "../connections/refusals";
import type { Database } from "../db/index";
import { connections, notificationDeliveries } from "../db/schema";
import { SecretDecryptionError, type SecretCipher } from "../lib/cipher";
import type { Poster } from "../connections/chat-messages";
import { isChatKind, type ChatKind } from "./outbox";

/**
 * The delivery worker: posts the outbox's deliveries (./outbox.ts) to Slack and Teams. It claims one due delivery
 * by setting its lease (`leased_until`) in a statement of its own (`FOR UPDATE SKIP LOCKED`, so two platforms on
 * one PostgreSQL never claim the same one), posts it outside any transaction, then records the attempt: delivered,
 * or pending again after a wait that doubles from 30 s, or failed after MAX_DELIVERY_ATTEMPTS. A platform that
 * stops mid-post leaves its lease to run out, and the delivery is due again: deliveries survive restarts (a
 * message may then arrive twice, never zero times).
 */

/** Longer than a post can take (PROVIDER_TIMEOUT_MS), so a lease only runs out when its holder died. */
export const DELIVERY_LEASE_MS = 60_000;
/** The wait after the first failed attempt; it doubles after each further one. */
export const FIRST_RETRY_DELAY_MS = 30_000;

export type Delivery = typeof notificationDeliveries.$inferSelect;

/** How a post went: the chat's answer, or why it failed, in plain words. */
type PostResult = { ok: boolean; message: string };

const posters: Record<ChatKind, Poster> = {
  COMMUNICATION_PLATFORM_TYPE_SLACK: postToSlack,
  COMMUNICATION_PLATFORM_TYPE_TEAMS: postToTeams,
};

/** The wait before attempt `attempts + 1`, scaled like the engine's steps (ENGINE_TIME_SCALE). */
export function retryDelayMs(attempts: number, timeScale: number): number {
  return Math.round(FIRST_RETRY_DELAY_MS * 2 ** (attempts - 1) * timeScale);
}

/** Leases the most overdue delivery at `at`, committing at once; undefined when none is due. */
export async function claimDueDelivery(db: Database, at: Date): Promise<Delivery | undefined> {
  const due = db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.status, "pending"),
        lte(notificationDeliveries.nextAttemptAt, at),
        or(isNull(notificationDeliveries.leasedUntil), lte(notificationDeliveries.leasedUntil, at)),
      ),
    )
    .orderBy(asc(notificationDeliveries.nextAttemptAt))
    .limit(1)
    .for("update", { skipLocked: true });
  const [claimed] = await db
    .update(notificationDeliveries)
    .set({ leasedUntil: new Date(at.getTime() + DELIVERY_LEASE_MS) })
    .where(inArray(notificationDeliveries.id, due))
    .returning();
  return claimed;
}

export function createDeliveryWorker({
  db,
  secrets,
  settings,
  now = () => new Date(),
}: {
  db: Database;
  secrets: SecretCipher;
  settings: Pick<EngineConfig, "timeScale" | "pollIntervalMs">;
  now?: () => Date;
}) {
  /** Posts `delivery` through its connection; every failure is a PostResult, never a throw. */
  async function post(delivery: Delivery): Promise<PostResult> {
    const [connection] = await db.select().from(connections).where(eq(connections.id, delivery.connectionId));
    if (!connection) return { ok: false, message: "The connection was deleted." };
    if (!isChatKind(connection.kind)) {
      return { ok: false, message: "The connection is no longer a Slack or Teams connection." };
    }
    let credentials: Credentials;
    try {
      credentials = credentialsOf(secrets, connection);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return { ok: false, message: `The connection's secrets could not be opened: ${error.message}.` };
    }
    try {
      return { ok: true, message: await posters[connection.kind](credentials, delivery.message) };
    } catch (error) {
      if (error instanceof ProviderRequestError) {
        return { ok: false, message: withoutSecrets(error.message, credentials) };
      }
      console.error(`notifications: posting delivery ${delivery.id} failed unexpectedly`, error);
      return { ok: false, message: "The message could not be posted because of an unexpected error." };
    }
  }

  /** Records the attempt of the delivery this worker leased; a delivery deleted or re-leased since is left alone. */
  async function record(delivery: Delivery, result: PostResult) {
    const at = now();
    const attempts = [...delivery.attempts, { at: at.toISOString(), ok: result.ok, message: result.message }];
    const status: DeliveryStatus = result.ok
      ? "delivered"
      : attempts.length >= MAX_DELIVERY_ATTEMPTS
        ? "failed"
        : "pending";
    const nextAttemptAt =
      status === "pending" ? new Date(at.getTime() + retryDelayMs(attempts.length, settings.timeScale)) : at;
    if (status === "failed") {
      console.warn(
        `notifications: delivery ${delivery.id} failed after ${attempts.length} attempts: ${result.message}`,
      );
    }
    const lease = delivery.leasedUntil;
    await db
      .update(notificationDeliveries)
      .set({ attempts, status, nextAttemptAt, leasedUntil: null })
      .where(
        and(
          eq(notificationDeliveries.id, delivery.id),
          lease ? eq(notificationDeliveries.leasedUntil, lease) : isNull(notificationDeliveries.leasedUntil),
        ),
      );
  }

  /** Claims, posts and records one due delivery; false when none is due. */
  async function deliverNext(): Promise<boolean> {
    const delivery = await claimDueDelivery(db, now());
    if (!delivery) return false;
    await record(delivery, await post(delivery));
    return true;
  }

  /** Delivers every due delivery, one after the other; returns how many were attempted. */
  async function runDue(): Promise<number> {
    let attempted = 0;
    while (await deliverNext()) attempted += 1;
    return attempted;
  }

  const poller = createPoller({ name: "notifications", pollIntervalMs: settings.pollIntervalMs, runDue });
  return {
    runDue,
    deliverNext,
    /** Polls for due deliveries every ENGINE_POLL_INTERVAL_MS until stopped. */
    start: poller.start,
    /** Stops polling and waits for the post in progress to be recorded. */
    stop: poller.stop,
    get isRunning() {
      return poller.isRunning;
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
