import { createHash } from "node:crypto";
import { and, count, desc, eq, ilike, ne, type SQL } from "drizzle-orm";
import type * as z from "zod";
import { serviceErrorMessages, type resourceListQuerySchema } from "#contract/services";
import type { Database } from "../db/index";
import { environments, resourceHistory, resources, serverlessUploads } from "../db/schema";
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

/** A service with its environment and its whole history, or a 404 in the services' words. */
export async function serviceWithHistory(tx: Database, resourceId: string) {
  const [row] = await tx.select().from(resources).where(eq(resources.id, resourceId));
  if (!row) throw notFound(serviceErrorMessages.notFound);
  const [environment] = await tx.select().from(environments).where(eq(environments.id, row.environmentId));
  if (!environment) throw notFound(serviceErrorMessages.notFound);
  const history = await tx.select().from(resourceHistory).where(eq(resourceHistory.resourceId, row.id));
  return { row, environment, history };
}

/** Writes `values` to the (locked) service `id`, stamping `updatedAt`, and answers the row as it now is. */
export async function updateService(tx: Database, id: string, values: Partial<ResourceRow>, now: Date) {
  const [row] = await tx
    .update(resources)
    .set({ ...values, updatedAt: now })
    .where(eq(resources.id, id))
    .returning();
  if (!row) throw new Error("the locked service was not updated");
  return row;
}

/** Whether the serverless archive `uploadId` was uploaded to the environment. */
export async function hasUpload(tx: Database, environmentId: string, uploadId: string): Promise<boolean> {
  const [upload] = await tx
    .select({ id: serverlessUploads.id })
    .from(serverlessUploads)
    .where(and(eq(serverlessUploads.id, uploadId), eq(serverlessUploads.environmentId, environmentId)));
  return Boolean(upload);
}

/** What the history entry `historyId` deployed (its release), when it kept one. */
export async function releaseOf(tx: Database, historyId: string) {
  const [entry] = await tx.select().from(resourceHistory).where(eq(resourceHistory.id, historyId));
  return entry?.release;
}

/** Keeps a serverless function's archive for the environment, with its size and SHA-256, until a deployment uses it. */
export async function storeUpload(
  db: Database,
  {
    environmentId,
    fileName,
    bytes,
    createdAt,
  }: { environmentId: string; fileName: string; bytes: Buffer; createdAt: Date },
) {
  const [upload] = await db
    .insert(serverlessUploads)
    .values({
      environmentId,
      fileName,
      sizeBytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      content: bytes.toString("base64"),
      createdAt,
    })
    .returning();
  if (!upload) throw new Error("the upload was not stored");
  return upload;
}
