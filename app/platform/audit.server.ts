import * as z from "zod";
import {
  RECENT_MEMBER_ACTIONS,
  auditEventListSchema,
  auditPaths,
  type AuditEventQuery,
  type AuditFilter,
} from "#contract/audit";
import type { PlatformClient } from "./client.server";

export function listAuditEvents(api: PlatformClient, tenantId: string, query: AuditEventQuery) {
  return api.get(auditPaths.events(tenantId, query), auditEventListSchema);
}

/** A member's latest actions in the organization, newest first, for their page (/settings/users/{id}). */
export async function recentActionsOf(api: PlatformClient, tenantId: string, userId: string) {
  const { events } = await listAuditEvents(api, tenantId, { userId, pageSize: RECENT_MEMBER_ACTIONS });
  return events;
}

/** The filtered log as the platform's CSV (text). */
export function exportAuditEvents(api: PlatformClient, tenantId: string, filter: AuditFilter) {
  return api.get(auditPaths.export(tenantId, filter), z.string());
}
