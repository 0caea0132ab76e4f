import { and, desc, eq, gte, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import { auditCsvColumns, type AuditEvent, type AuditEventList, type AuditFilter } from "#contract/audit";
import type { Database } from "../db/index";
import { auditEvents, environments, organizations } from "../db/schema";

/** The organization's events the filters match (`to` included); another organization's never match. */
function conditionsOf(organizationId: string, filter: AuditFilter): SQL | undefined {
  return and(
    eq(auditEvents.organizationId, organizationId),
    filter.userId ? eq(auditEvents.userId, filter.userId) : undefined,
    filter.action ? eq(auditEvents.action, filter.action) : undefined,
    filter.environmentId ? eq(auditEvents.environmentId, filter.environmentId) : undefined,
    filter.from ? gte(auditEvents.at, new Date(filter.from)) : undefined,
    filter.to ? lte(auditEvents.at, new Date(filter.to)) : undefined,
  );
}

const eventColumns = {
  id: auditEvents.id,
  at: auditEvents.at,
  userId: auditEvents.userId,
  userEmail: auditEvents.userEmail,
  environmentId: auditEvents.environmentId,
  environmentName: environments.name,
  action: auditEvents.action,
  target: auditEvents.target,
  summary: auditEvents.summary,
  requestId: auditEvents.requestId,
  address: auditEvents.address,
  userAgent: auditEvents.userAgent,
  status: auditEvents.status,
  tokenName: auditEvents.tokenName,
  serviceAccount: auditEvents.serviceAccount,
};

type EventRow = { id: number; at: Date } & Omit<AuditEvent, "id" | "at">;

function toEvent(row: EventRow): AuditEvent {
  return { ...row, id: String(row.id), at: row.at.toISOString() };
}

/**
 * The events with their environment's name, joined by id and organization: a refused request may name another
 * organization's environment in its path, and that environment's name is not this organization's to read.
 */
function selectEvents(db: Database, where: SQL | undefined) {
  return db
    .select(eventColumns)
    .from(auditEvents)
    .innerJoin(organizations, eq(organizations.id, auditEvents.organizationId))
    .leftJoin(
      environments,
      and(eq(environments.id, auditEvents.environmentId), eq(environments.tenantId, organizations.tenantId)),
    )
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id));
}

/** One page of the filtered events, newest first, with how many match in all. */
export async function listAuditEvents(
  db: Database,
  organizationId: string,
  { page, pageSize, ...filter }: AuditFilter & { page: number; pageSize: number },
): Promise<AuditEventList> {
  const where = conditionsOf(organizationId, filter);
  const [rows, [counted], people] = await Promise.all([
    selectEvents(db, where)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(where),
    peopleOf(db, organizationId),
  ]);
  return { events: rows.map(toEvent), page, pageSize, total: counted?.total ?? 0, people };
}

/** Everyone the organization's log names (members past and present, refused outsiders), by e-mail. */
async function peopleOf(db: Database, organizationId: string) {
  const rows = await db
    .selectDistinct({
      userId: auditEvents.userId,
      // A service account has no address: its name stands for it.
      userEmail: sql<string | null>`coalesce(${auditEvents.userEmail}, ${auditEvents.serviceAccount})`,
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), isNotNull(auditEvents.userId)))
    .orderBy(sql`2`);
  return rows.flatMap(({ userId, userEmail }) =>
    userId ? [{ userId, userEmail: userEmail ?? userId }] : [],
  );
}

const EXPORT_BATCH = 500;

/**
 * The filtered events as CSV, newest first, read in batches (keyset on time and id) so an export of a long
 * history is streamed rather than held in memory.
 */
export async function* auditEventsCsv(
  db: Database,
  organizationId: string,
  filter: AuditFilter,
): AsyncGenerator<string> {
  yield csvLine(auditCsvColumns);
  let after: { at: Date; id: number } | null = null;
  for (;;) {
    const rows: EventRow[] = await selectEvents(
      db,
      and(
        conditionsOf(organizationId, filter),
        after
          ? sql`(${auditEvents.at}, ${auditEvents.id}) < (${after.at.toISOString()}::timestamptz, ${after.id})`
          : undefined,
      ),
    ).limit(EXPORT_BATCH);
    for (const row of rows) {
      const event = toEvent(row);
      yield csvLine(
        auditCsvColumns.map((column) =>
          column === "summary" ? (event.summary ? JSON.stringify(event.summary) : "") : event[column],
        ),
      );
    }
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH) return;
    after = { at: last.at, id: last.id };
  }
}

function csvLine(cells: readonly (string | number | null)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A text starting with = + - @ (or a
 * tab or carriage return) gets a leading ' so a spreadsheet shows it rather than running it as a formula.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
