import { and, desc, eq, inArray } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  connectionResponseSchema,
  deliveryListSchema,
  notificationRulesSchema,
  type Delivery,
  type NotificationEvent,
} from "#contract/connections";
import { apiErrorCodes } from "#contract/errors";
import { describeConnections, findConnection, type ConnectionRow } from "../connections/records";
import type { Database } from "../db/index";
import { connections, environments, notificationDeliveries } from "../db/schema";
import { isChatKind } from "../notifications/outbox";
import { CONNECTION_NOT_FOUND } from "./connections";
import { HttpError } from "./errors";
import { invalidFields, notFound } from "../lib/errors";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { documentRoutes } from "./documented";

/** The deliveries a connection's page lists, newest first. */
export const DELIVERY_LIST_LIMIT = 50;

/**
 * What a Slack or Teams connection posts, under /v2/organizations/:tenantId: its notification rules (which events,
 * which environments) and the deliveries of its notifications with every attempt.
 */
export function connectionNotificationRoutes({
  db,
  now = () => new Date(),
}: {
  db: Database;
  now?: () => Date;
}) {
  const routes = new Hono<OrganizationEnv>();

  async function connectionOf(c: Context<OrganizationEnv>): Promise<ConnectionRow> {
    const id = c.req.param("connectionId") ?? "";
    const row = /^[0-9a-f-]{36}$/i.test(id)
      ? await findConnection(db, currentOrganization(c).organizationId, id)
      : undefined;
    if (!row) throw notFound(CONNECTION_NOT_FOUND);
    return row;
  }

  routes.get("/connections/:connectionId/deliveries", permit("organization.view"), async (c) => {
    const connection = await connectionOf(c);
    const rows = await db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.connectionId, connection.id))
      .orderBy(desc(notificationDeliveries.createdAt), desc(notificationDeliveries.id))
      .limit(DELIVERY_LIST_LIMIT);
    return sendJson(c, deliveryListSchema, {
      deliveries: rows.map(
        (row): Delivery => ({
          id: row.id,
          event: row.event as NotificationEvent,
          summary: row.message.title,
          environmentId: row.environmentId,
          status: row.status as Delivery["status"],
          attempts: row.attempts,
          nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
          createdAt: row.createdAt.toISOString(),
        }),
      ),
    });
  });

  routes.put("/connections/:connectionId/notifications", permit("connections.manage"), async (c) => {
    const connection = await connectionOf(c);
    const rules = await readJsonBody(c, notificationRulesSchema);
    if (!isChatKind(connection.kind)) {
      throw new HttpError(400, {
        message: "Only Slack and Teams connections post notifications.",
        code: apiErrorCodes.validationFailed,
      });
    }
    const { organizationId, tenantId } = currentOrganization(c);
    const environmentIds = rules.environmentIds === null ? null : [...new Set(rules.environmentIds)];
    if (environmentIds?.length) {
      const known = await db
        .select({ id: environments.id })
        .from(environments)
        .where(and(eq(environments.tenantId, tenantId), inArray(environments.id, environmentIds)));
      if (known.length !== environmentIds.length) {
        throw invalidFields({ environmentIds: ["Choose environments of this organization."] });
      }
    }
    const [saved] = await db.transaction((tx) =>
      tx
        .update(connections)
        .set({ notifications: { events: [...new Set(rules.events)], environmentIds }, updatedAt: now() })
        .where(eq(connections.id, connection.id))
        .returning(),
    );
    if (!saved) throw notFound(CONNECTION_NOT_FOUND);
    const [described] = await describeConnections(db, organizationId, [saved], { showHints: true });
    if (!described) throw new Error("the connection was not described");
    return sendJson(c, connectionResponseSchema, { connection: described });
  });

  documentRoutes(routes, {
    "GET /connections/:connectionId/deliveries": { responses: { 200: deliveryListSchema } },
    "PUT /connections/:connectionId/notifications": {
      body: notificationRulesSchema,
      responses: { 200: connectionResponseSchema },
    },
  });
  return routes;
}
