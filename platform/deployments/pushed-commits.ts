import { desc, eq } from "drizzle-orm";
import type { Database } from "../db/index";
import { deployPushes } from "../db/schema";

export type PushRow = typeof deployPushes.$inferSelect;

/**
 * The commit a deployment builds: the newest push it took, or null for a deployment no push started. The build of a
 * GitHub application checks this commit out (the branch's head when null).
 */
export async function pushedCommitOf(tx: Database, historyId: string): Promise<PushRow | null> {
  const [push] = await tx
    .select()
    .from(deployPushes)
    .where(eq(deployPushes.historyId, historyId))
    .orderBy(desc(deployPushes.receivedAt), desc(deployPushes.id))
    .limit(1);
  return push ?? null;
}
