import { and, count, desc, eq, ilike, ne, type SQL } from "drizzle-orm";
import type * as z from "zod";
import { serviceErrorMessages, type resourceListQuerySchema } from "#contract/services";
import type { Database } from "../db/index";
import { resources } from "../db/schema";
import { notFound } from "../lib/errors";
import { failedSinceOf } from "./history";
import type { ResourceRow } from "./records";

/** `%` and `_` match themselves in a name search. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * One page of an environment's services, newest first, filtered by type, category, stage and a name search; with
 * the total the filter matches and, for the failed ones, since when they failed.
 */
export async function listServices(
  db: Database,
  environmentId: string,
  query: z.output<typeof resourceListQuerySchema>,
) {
  const conditions: SQL[] = [eq(resources.environmentId, environmentId)];
  if (query.serviceType) conditions.push(eq(resources.serviceType, query.serviceType));
  if (query.category === "application") conditions.push(eq(resources.serviceType, "application"));
  if (query.category === "infrastructure") conditions.push(ne(resources.serviceType, "application"));
  if (query.stage) conditions.push(eq(resources.stage, query.stage));
  if (query.text) conditions.push(ilike(resources.name, likePattern(query.text)));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(resources)
      .where(where)
      .orderBy(desc(resources.createdAt), desc(resources.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(resources).where(where),
  ]);
  const failedSince = await failedSinceOf(
    db,
    rows.filter((row) => row.stage === "STAGE_FAILED"),
  );
  return { rows, total: total?.value ?? 0, failedSince };
}

/** The environment's service `resourceId` (locked for update when `lock`), or a 404 in the services' words. */
export async function findService(
  tx: Database,
  environmentId: string,
  resourceId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<ResourceRow> {
  const query = tx
    .select()
    .from(resources)
    .where(and(eq(resources.id, resourceId), eq(resources.environmentId, environmentId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound(serviceErrorMessages.notFound);
  return row;
}
