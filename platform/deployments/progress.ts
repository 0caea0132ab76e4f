import { and, desc, inArray, sql } from "drizzle-orm";
import * as z from "zod";
import type { ServiceProgress } from "#contract/services";
import type { Database } from "../db/index";
import { engineJobs } from "../db/schema";
import { unfinishedJobStatuses } from "../engine/jobs";
import { DEPLOY_JOB_KIND } from "./deploys";
import { TEARDOWN_JOB_KIND } from "./teardowns";

/**
 * What a busy service's running deployment or teardown waits for, and since when: the words of the driver's last
 * step (kept in the job's payload) and when the steps began saying them. A cloud that stops answering leaves both
 * as they were while the engine tries the step again, so the page keeps saying what is waited for and for how long.
 */

const progressPayloadSchema = z.object({
  progress: z.string().nullable().optional(),
  progressSince: z.string().nullable().optional(),
});

export async function deployProgressOf(tx: Database, resourceId: string): Promise<ServiceProgress | null> {
  const [job] = await tx
    .select()
    .from(engineJobs)
    .where(
      and(
        inArray(engineJobs.kind, [DEPLOY_JOB_KIND, TEARDOWN_JOB_KIND]),
        inArray(engineJobs.status, unfinishedJobStatuses),
        sql`${engineJobs.payload}->>'resourceId' = ${resourceId}`,
      ),
    )
    .orderBy(desc(engineJobs.createdAt))
    .limit(1);
  // A canceling deployment no longer waits on its step.
  if (!job || job.state === "CANCELING") return null;
  const parsed = progressPayloadSchema.safeParse(job.payload);
  const step = parsed.success ? parsed.data.progress : null;
  if (!step) return null;
  // Jobs from before `progressSince` was kept: their last move is the best known start.
  return { step, since: parsed.data?.progressSince ?? job.updatedAt.toISOString() };
}
