import { sql } from "drizzle-orm";
import type { Database } from "../db/index";
import { auditEvents, organizations } from "../db/schema";

/**
 * Deletes the events older than their organization's retention (organizations.audit_retention_days): the one
 * way rows leave the audit log. Returns how many were deleted.
 */
export async function purgeExpiredAuditEvents(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(auditEvents)
    .where(
      sql`exists (select 1 from ${organizations}
        where ${organizations.id} = ${auditEvents.organizationId}
          and ${auditEvents.at} < ${now.toISOString()}::timestamptz - ${organizations.auditRetentionDays} * interval '1 day')`,
    )
    .returning({ id: auditEvents.id });
  return deleted.length;
}

export const AUDIT_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Purges once at start and then every `intervalMs` (hourly by default); the platform server starts it and stops
 * it on close. A failed purge is logged and retried at the next tick.
 */
export function startAuditRetention({
  db,
  now = () => new Date(),
  intervalMs = AUDIT_PURGE_INTERVAL_MS,
  log = console.error,
}: {
  db: Database;
  now?: () => Date;
  intervalMs?: number;
  log?: (message: string, error: unknown) => void;
}): { stop: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const purge = () => {
    running = purgeExpiredAuditEvents(db, now()).catch((error: unknown) => {
      log("audit: purging expired events failed", error);
    });
  };
  purge();
  const timer = setInterval(purge, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
