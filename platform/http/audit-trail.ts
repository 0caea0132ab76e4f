import { getConnInfo } from "@hono/node-server/conninfo";
import { eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import * as z from "zod";
import type { AuthenticatedEnv, AuthenticatedUser } from "./auth";
import type { OrganizationAccess } from "./tenancy";
import type { Database } from "../db/index";
import { auditEvents, organizations, users } from "../db/schema";
import { actionOf, isAuditedRoute } from "../audit/actions";
import { summarizeChange, variableNamesOf } from "../audit/summary";

type AuditEventRow = typeof auditEvents.$inferInsert;

const uuidSchema = z.guid();
/** Longer values are cut: an audit row should not grow with what a caller sends in a header. */
const MAX_HEADER_LENGTH = 512;

/**
 * Records every write under an organization in the audit log, allowed or refused, once its answer is known. It is
 * mounted after authentication (a 401 has no caller to record) and before the organization guard, so a non-member's
 * or an unapproved organization's 403 is recorded too. The row is written after the route finished, outside any
 * transaction the route held; it is awaited, so the log is complete when the caller sees the answer, but a failure
 * to write it is logged and never changes the answer.
 */
export function recordWrites({
  db,
  log = console.error,
}: {
  db: Database;
  log?: (message: string, error: unknown) => void;
}): MiddlewareHandler<AuthenticatedEnv> {
  return async (c, next) => {
    await next();
    const route = matchedRoutes(c).find((candidate) => candidate.method !== "ALL");
    if (!route || !isAuditedRoute(c.req.method, route.path)) return;
    try {
      const row = await eventFor(db, c, route.path);
      if (row) await db.insert(auditEvents).values(row);
    } catch (error) {
      const requestId = c.get("requestId" as never) as string | undefined;
      log(`audit: could not record ${c.req.method} ${route.path} (request ${requestId ?? "unknown"})`, error);
    }
  };
}

async function eventFor(
  db: Database,
  c: Context<AuthenticatedEnv>,
  pattern: string,
): Promise<AuditEventRow | null> {
  const status = c.res.status;
  if (status === 401) return null;
  const params = paramsOf(pattern, c.req.path);
  const caller = await callerOf(db, c, params.tenantId ?? "");
  if (!caller) return null;
  const summary = status === 413 ? null : summarizeChange(await jsonBodyOf(c));
  const environmentId =
    params.environmentId && uuidSchema.safeParse(params.environmentId).success ? params.environmentId : null;
  const { tenantId: _tenant, environmentId: _environment, ...rest } = params;
  const specific = Object.values(rest).at(-1);
  return {
    organizationId: caller.organizationId,
    userId: caller.user.id,
    userEmail: caller.user.email,
    environmentId,
    action: actionOf(c.req.method, pattern) ?? `unmapped:${c.req.method} ${pattern}`,
    target: specific ?? variableNamesOf(summary) ?? environmentId,
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
  const subject = c.get("accessToken").subject;
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

function headerValue(value: string | null | undefined): string | null {
  return value ? value.slice(0, MAX_HEADER_LENGTH) : null;
}
