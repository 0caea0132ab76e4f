import { eq } from "drizzle-orm";
import type { Database } from "../db/index";
import { environmentRevisions } from "../db/schema";

/**
 * How many times what the environment's services show has changed: the triggers of migration 0017 bump it at the
 * commit of every write to the environment, its services, their history and its jobs (decision 065).
 */
export async function revisionOf(db: Database, environmentId: string): Promise<number> {
  const [row] = await db
    .select({ revision: environmentRevisions.revision })
    .from(environmentRevisions)
    .where(eq(environmentRevisions.environmentId, environmentId));
  return row?.revision ?? 0;
}
