import { and, count, desc, eq, inArray, isNotNull, notInArray } from "drizzle-orm";
import type { ResourceAction } from "#contract/service-catalogue";
import type { ConfigDiff } from "#contract/services";
import type { Database } from "../db/index";
import { resourceHistory } from "../db/schema";
import { failedSinceIn, type HistoryRow } from "./records";

/** The actor of the engine's own work. */
export const PLATFORM_ACTOR = "Platform";

/**
 * Records an action on a service. Its time is at least a millisecond after the service's previous entry, so the
 * history has one order even when two actions land in the same millisecond.
 */
export async function recordAction(
  tx: Database,
  entry: {
    resourceId: string;
    action: ResourceAction;
    actor: string;
    diff?: ConfigDiff;
    /** What the cloud said of the change (in place or replaced). */
    message?: string | null;
  },
  now: Date,
): Promise<HistoryRow> {
  const [latest] = await tx
    .select({ at: resourceHistory.at })
    .from(resourceHistory)
    .where(eq(resourceHistory.resourceId, entry.resourceId))
    .orderBy(desc(resourceHistory.at))
    .limit(1);
  const at = latest && latest.at.getTime() >= now.getTime() ? new Date(latest.at.getTime() + 1) : now;
  const [created] = await tx
    .insert(resourceHistory)
    .values({
      resourceId: entry.resourceId,
      action: entry.action,
      actor: entry.actor,
      at,
      diff: entry.diff ?? [],
      message: entry.message ?? null,
    })
    .returning();
  if (!created) throw new Error("the history entry was not recorded");
  return created;
}

/** Where the deployment an entry records ended. */
export async function finishAction(
  tx: Database,
  historyId: string,
  outcome: string,
  podNames: string[],
  now: Date,
) {
  await tx
    .update(resourceHistory)
    .set({ outcome, finishedAt: now, podNames })
    .where(eq(resourceHistory.id, historyId));
}

/**
 * The number of the deployment just recorded: how many deploying actions (all but Save, and the drift check's
 * Check) the service has had.
 */
export async function deployNumberOf(tx: Database, resourceId: string): Promise<number> {
  const [row] = await tx
    .select({ value: count() })
    .from(resourceHistory)
    .where(
      and(eq(resourceHistory.resourceId, resourceId), notInArray(resourceHistory.action, ["Save", "Check"])),
    );
  return Math.max(1, row?.value ?? 1);
}

/**
 * When each failed service began failing (failedSinceIn). A service whose history holds no failure (made failed by
 * other means) falls back to `updatedAt`, when its stage last changed.
 */
export async function failedSinceOf(
  tx: Database,
  failed: readonly { id: string; updatedAt: Date }[],
): Promise<Map<string, Date>> {
  if (!failed.length) return new Map();
  const entries = await tx
    .select({
      resourceId: resourceHistory.resourceId,
      outcome: resourceHistory.outcome,
      at: resourceHistory.at,
      finishedAt: resourceHistory.finishedAt,
    })
    .from(resourceHistory)
    .where(
      and(
        inArray(
          resourceHistory.resourceId,
          failed.map((row) => row.id),
        ),
        isNotNull(resourceHistory.outcome),
      ),
    )
    .orderBy(desc(resourceHistory.at));
  return new Map(
    failed.map((row) => [
      row.id,
      failedSinceIn(entries.filter((entry) => entry.resourceId === row.id)) ?? row.updatedAt,
    ]),
  );
}
