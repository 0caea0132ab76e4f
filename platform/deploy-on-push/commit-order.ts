import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/index";
import { deployPushes } from "../db/schema";

/**
 * Why a push is not deployed because its commit is not newer than the branch's last one, or null when it is.
 *
 * GitHub's signature covers the body but not the `X-GitHub-Delivery` header, so a captured delivery sent again with
 * a new delivery id is signed all right: the commit is what tells a replay. A commit already pushed for the branch,
 * or one committed before the newest pushed (head_commit.timestamp), is ignored (decision 045). Commits made in
 * the same second both deploy; a push without a timestamp is only compared by its commit.
 */
export async function staleCommitReason(
  tx: Database,
  push: { resourceId: string; branch: string; sha: string; committedAt: Date | null },
): Promise<string | null> {
  const ofBranch = and(eq(deployPushes.resourceId, push.resourceId), eq(deployPushes.branch, push.branch));
  const [newest] = await tx
    .select({ sha: deployPushes.sha, committedAt: deployPushes.committedAt })
    .from(deployPushes)
    .where(ofBranch)
    .orderBy(sql`${deployPushes.committedAt} desc nulls last`, desc(deployPushes.receivedAt))
    .limit(1);
  if (!newest) return null;
  const [samePush] = await tx
    .select({ sha: deployPushes.sha })
    .from(deployPushes)
    .where(and(ofBranch, eq(deployPushes.sha, push.sha)))
    .limit(1);
  const older =
    push.committedAt !== null &&
    newest.committedAt !== null &&
    push.committedAt.getTime() < newest.committedAt.getTime();
  if (!samePush && !older) return null;
  return `Ignored: commit ${push.sha.slice(0, 7)} is not newer than the last deployed ${newest.sha.slice(0, 7)} for branch ${push.branch}.`;
}
