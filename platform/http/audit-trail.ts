import { AsyncLocalStorage } from "node:async_hooks";
import { getConnInfo } from "@hono/node-server/conninfo";
import { eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import * as z from "zod";
import { apiTokenOf, type AuthenticatedEnv, type AuthenticatedUser } from "./auth";
import type { OrganizationAccess } from "./tenancy";
import type { Database } from "../db/index";
import { auditEvents, organizations, users } from "../db/schema";
import { actionOf, isAuditedRoute } from "../audit/actions";
import { boundedSummary, boundedText } from "../audit/limits";
import { summarizeChange, variableNamesOf } from "../audit/summary";

type AuditEventRow = typeof auditEvents.$inferInsert;
type Log = (message: string, error: unknown) => void;

const uuidSchema = z.guid();
/** Longer values are cut: an audit row should not grow with what a caller sends in a header. */
const MAX_HEADER_LENGTH = 512;
/**
 * The status of a row recorded in a write's transaction until the answer is known (it is corrected right after
 * the route answers); a row left with it tells of a write that committed and an answer nobody recorded.
 */
const ANSWER_PENDING = 0;

/** A recorded request in progress: its route, and the row its first write transaction inserted. */
type Recording = { c: Context<AuthenticatedEnv>; pattern: string; eventId: number | null };

/**
 * The audit log nobody can skip (decision 044). `recordWrites` is mounted after authentication (a 401 has no
 * caller to record) and before the organization guard, so a non-member's or an unapproved organization's 403 is
 * recorded too. Routers get `db`, which is the platform database but, while a recorded request runs, inserts the
 * request's audit row inside the request's first write transaction: the write and its row commit together or not
 * at all, and no transaction is held longer than the route holds it. A write outside a transaction is refused
 * there (a route error, never an unrecorded write). Once the answer is known the row gets its status; a request
 * that wrote nothing in a transaction (refused, invalid, or a call to an outside service only) gets its row then,
 * and a failure to write that one is logged and never changes the answer.
 */
export function auditTrail({
  db,
  log = (message, error) => console.error(message, error),
}: {
  db: Database;
  log?: Log;
}): {
  db: Database;
  recordWrites: MiddlewareHandler<AuthenticatedEnv>;
} {
  const recordings = new AsyncLocalStorage<Recording>();

  async function recordIn(tx: Database, recording: Recording) {
    if (recording.eventId !== null) return;
    const row = await eventFor(tx, recording.c, recording.pattern, ANSWER_PENDING);
    if (!row) throw new Error(`audit: no caller to record ${recording.pattern} for`);
    const [inserted] = await tx.insert(auditEvents).values(row).returning({ id: auditEvents.id });
    recording.eventId = inserted?.id ?? null;
  }

  const recorded = new Proxy(db, {
    get(target, property, receiver) {
      const recording = recordings.getStore();
      if (!recording) return Reflect.get(target, property, receiver);
      if (property === "transaction") {
        const transaction: Database["transaction"] = (work, config) =>
          target.transaction(async (tx) => {
            const result = await work(tx);
            await recordIn(tx, recording);
            return result;
          }, config);
        return transaction;
      }
      if (property === "insert" || property === "update" || property === "delete") {
        throw new Error(
          `audit: ${recording.pattern} writes outside a transaction, where its audit row cannot go`,
        );
      }
      return Reflect.get(target, property, receiver);
    },
  });

  const recordWrites: MiddlewareHandler<AuthenticatedEnv> = async (c, next) => {
    const route = matchedRoutes(c).find((candidate) => candidate.method !== "ALL");
    if (!route || !isAuditedRoute(c.req.method, route.path)) return next();
    const recording: Recording = { c, pattern: route.path, eventId: null };
    await recordings.run(recording, next);
    const status = c.res.status;
    try {
      if (recording.eventId !== null) {
        await db.update(auditEvents).set({ status }).where(eq(auditEvents.id, recording.eventId));
        return;
      }
      const row = await eventFor(db, c, route.path, status);
      if (row) await db.insert(auditEvents).values(row);
    } catch (error) {
      const requestId = c.get("requestId" as never) as string | undefined;
      log(`audit: could not record ${c.req.method} ${route.path} (request ${requestId ?? "unknown"})`, error);
    }
  };

  return { db: recorded, recordWrites };
}

async function eventFor(
  db: Database,
  c: Context<AuthenticatedEnv>,
  pattern: string,
  status: number,
): Promise<AuditEventRow | null> {
  if (status === 401) return null;
  const params = paramsOf(pattern, c.req.path);
  const caller = await callerOf(db, c, params.tenantId ?? "");
  if (!caller) return null;
  const summary = status === 413 ? null : boundedSummary(summarizeChange(await jsonBodyOf(c)));
  const environmentId =
    params.environmentId && uuidSchema.safeParse(params.environmentId).success ? params.environmentId : null;
  const { tenantId: _tenant, environmentId: _environment, ...rest } = params;
  const specific = Object.values(rest).at(-1);
  // A call with an API token is the token's: its row names the token, and a service account by its name (its
  // user's address is a placeholder nobody reads).
  const token = apiTokenOf(c);
  return {
    organizationId: caller.organizationId,
    userId: caller.user.id,
    userEmail: token?.serviceAccount ? null : caller.user.email,
    tokenId: token?.tokenId ?? null,
    tokenName: token?.tokenName ?? null,
    serviceAccount: token?.serviceAccount ? token.user.name : null,
    environmentId,
    action: actionOf(c.req.method, pattern) ?? `unmapped:${c.req.method} ${pattern}`,
    target: boundedTextOrNull(specific ?? variableNamesOf(summary) ?? environmentId),
    summary,
    requestId: headerValue(c.get("requestId" as never)),
    address: addressOf(c),
    userAgent: headerValue(c.req.header("User-Agent")),
    status,
  };
}

/**
 * The caller and their organization: from the organization guard when it let the call through, else (a refused
 * non-member, an organization awaiting approval) looked up, and recorded only when the organization exists: a
 * tenant id that names none has no log to go in.
 */
async function callerOf(
  db: Database,
  c: Context<AuthenticatedEnv>,
  tenantId: string,
): Promise<{ organizationId: string; user: Pick<AuthenticatedUser, "id" | "email"> } | null> {
  const organization = c.get("organization" as never) as OrganizationAccess | undefined;
  const user = c.get("user") as AuthenticatedUser | undefined;
  if (organization && user) return { organizationId: organization.organizationId, user };
  if (!uuidSchema.safeParse(tenantId).success) return null;
  const subject = apiTokenOf(c)?.user.id ?? c.get("accessToken").subject;
  const [row] = await db
    .select({ organizationId: organizations.id, userId: users.id, email: users.email })
    .from(organizations)
    .innerJoin(users, eq(users.id, subject))
    .where(eq(organizations.tenantId, tenantId));
  return row ? { organizationId: row.organizationId, user: { id: row.userId, email: row.email } } : null;
}

/** The route's path parameters, by lining the pattern's segments up with the path's. */
function paramsOf(pattern: string, path: string): Record<string, string> {
  const patternSegments = pattern.split("/");
  const pathSegments = path.split("/");
  const params: Record<string, string> = {};
  patternSegments.forEach((segment, index) => {
    const value = pathSegments[index];
    if (!segment.startsWith(":") || value === undefined) return;
    try {
      params[segment.slice(1)] = decodeURIComponent(value);
    } catch {
      params[segment.slice(1)] = value;
    }
  });
  return params;
}

/** The JSON body the route read (Hono keeps it), or reads it now when the call was refused before the route. */
async function jsonBodyOf(c: Context): Promise<unknown> {
  if (!(c.req.header("Content-Type") ?? "").includes("application/json")) return null;
  try {
    return await c.req.json();
  } catch {
    return null;
  }
}

/** The peer's address as the HTTP server saw it (the app's server for calls the app forwards). */
function addressOf(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    // Not served by the Node server (the tests call the app directly): there is no socket.
    return null;
  }
}

function boundedTextOrNull(value: string | null | undefined): string | null {
  return value ? boundedText(value) : null;
}

function headerValue(value: string | null | undefined): string | null {
  return value ? value.slice(0, MAX_HEADER_LENGTH) : null;
}
