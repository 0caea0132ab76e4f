import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import {
  auditEventListSchema,
  auditEventQuerySchema,
  auditFilterSchema,
  auditSettingsSchema,
} from "#contract/audit";
import { auditEventsCsv, listAuditEvents } from "../audit/events";
import type { Database } from "../db/index";
import { organizations } from "../db/schema";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { documentRoutes } from "./documented";

/** The audit log (issue 12), mounted at /v2/organizations/:tenantId. It is read-only: events are never edited. */
export function auditRoutes({ db }: { db: Database }) {
  const routes = new Hono<OrganizationEnv>();

  routes.get("/audit-events", permit("audit.view"), async (c) => {
    const query = readQuery(c, auditEventQuerySchema);
    const list = await listAuditEvents(db, currentOrganization(c).organizationId, query);
    return sendJson(c, auditEventListSchema, list);
  });

  routes.get("/audit-events/export", permit("audit.view"), (c) => {
    const filter = readQuery(c, auditFilterSchema);
    const { organizationId, name } = currentOrganization(c);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="audit-log-${name}.csv"`);
    c.header("Cache-Control", "no-store");
    return stream(
      c,
      async (output) => {
        for await (const chunk of auditEventsCsv(db, organizationId, filter)) await output.write(chunk);
      },
      // The status is sent by now: a failure cuts the file short, and is logged.
      async (error) => {
        console.error(`platform api: audit export for ${organizationId} failed`, error.name);
      },
    );
  });

  routes.get("/audit-settings", permit("audit.view"), async (c) => {
    const [row] = await db
      .select({ retentionDays: organizations.auditRetentionDays })
      .from(organizations)
      .where(eq(organizations.id, currentOrganization(c).organizationId));
    return sendJson(c, auditSettingsSchema, { retentionDays: row?.retentionDays ?? 365 });
  });

  routes.put("/audit-settings", permit("organization.manage"), async (c) => {
    const { retentionDays } = await readJsonBody(c, auditSettingsSchema);
    await db.transaction((tx) =>
      tx
        .update(organizations)
        .set({ auditRetentionDays: retentionDays })
        .where(eq(organizations.id, currentOrganization(c).organizationId)),
    );
    return sendJson(c, auditSettingsSchema, { retentionDays });
  });

  documentRoutes(routes, {
    "GET /audit-events": { query: auditEventQuerySchema, responses: { 200: auditEventListSchema } },
    "GET /audit-events/export": { query: auditFilterSchema, responses: { 200: "text/csv" } },
    "GET /audit-settings": { responses: { 200: auditSettingsSchema } },
    "PUT /audit-settings": { body: auditSettingsSchema, responses: { 200: auditSettingsSchema } },
  });
  return routes;
}
