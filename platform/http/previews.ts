import { desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import * as z from "zod";
import { apiErrorCodes } from "#contract/errors";
import {
  previewListSchema,
  previewResponseSchema,
  previewMessages,
  previewPaths,
  previewSettingsChangeResponseSchema,
  previewSettingsRequestSchema,
  previewSettingsResponseSchema,
  previewWebhookAnswerSchema,
  type PreviewWebhookAnswer,
} from "#contract/previews";
import type { Database } from "../db/index";
import { previews, previewSettings } from "../db/schema";
import {
  decoySignatureCheck,
  loggable,
  SIGNATURE_HEADER,
  signatureMatches,
} from "../deploy-on-push/signature";
import type { SecretCipher } from "../lib/cipher";
import type { Operations } from "../operations/operations";
import { pullRequestEventSchema, type PullRequestEvent } from "../previews/pull-requests";
import { livePreviewsOf, toPreview } from "../previews/records";
import {
  previewSecretOf,
  previewSettingsOf,
  previewSettingsView,
  savePreviewSettings,
} from "../previews/settings";
import { documentRoutes } from "./documented";
import { HttpError } from "./errors";
import { findEnvironment } from "./environments";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";

/**
 * Preview environments' setting and list (signed in): .../environments/:environmentId/previews/settings and
 * /v2/organizations/:tenantId/previews.
 */
export function previewRoutes({
  db,
  secrets,
  publicUrl,
  now = () => new Date(),
}: {
  db: Database;
  secrets: SecretCipher;
  /** The platform's public origin, where GitHub posts to. */
  publicUrl: string;
  now?: () => Date;
}) {
  const routes = new Hono<OrganizationEnv>();
  const webhookUrlOf = (webhookId: string) => `${publicUrl}/api${previewPaths.webhook(webhookId)}`;

  routes.get("/environments/:environmentId/previews/settings", permit("organization.view"), async (c) => {
    const environment = await findEnvironment(
      db,
      currentOrganization(c).tenantId,
      c.req.param("environmentId"),
    );
    const row = await previewSettingsOf(db, environment.id);
    return sendJson(c, previewSettingsResponseSchema, {
      previewSettings: row ? previewSettingsView(row, webhookUrlOf(row.webhookId)) : null,
    });
  });

  routes.put(
    "/environments/:environmentId/previews/settings",
    permit("environments.configure"),
    async (c) => {
      const request = await readJsonBody(c, previewSettingsRequestSchema);
      const { tenantId, organizationId } = currentOrganization(c);
      const answer = await db.transaction(async (tx) => {
        const environment = await findEnvironment(tx, tenantId, c.req.param("environmentId"), {
          lock: "update",
        });
        const { row, secret } = await savePreviewSettings(
          tx,
          secrets,
          { organizationId, environmentId: environment.id },
          request,
          now(),
        );
        return {
          previewSettings: previewSettingsView(row, webhookUrlOf(row.webhookId)),
          ...(secret ? { secret } : {}),
        };
      });
      return sendJson(c, previewSettingsChangeResponseSchema, answer);
    },
  );

  routes.get("/environments/:environmentId/preview", permit("organization.view"), async (c) => {
    const environment = await findEnvironment(
      db,
      currentOrganization(c).tenantId,
      c.req.param("environmentId"),
    );
    const [row] = await db.select().from(previews).where(eq(previews.environmentId, environment.id));
    return sendJson(c, previewResponseSchema, { preview: row ? await toPreview(db, row) : null });
  });

  // What deleting the environment removes with it: the plan its delete dialog shows.
  routes.get("/environments/:environmentId/previews", permit("organization.view"), async (c) => {
    const environment = await findEnvironment(
      db,
      currentOrganization(c).tenantId,
      c.req.param("environmentId"),
    );
    const rows = await livePreviewsOf(db, environment.id);
    return sendJson(c, previewListSchema, {
      previews: await Promise.all(rows.map((row) => toPreview(db, row))),
    });
  });

  routes.get("/previews", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const rows = await db
      .select()
      .from(previews)
      .where(eq(previews.tenantId, tenantId))
      .orderBy(desc(previews.createdAt), desc(previews.number));
    return sendJson(c, previewListSchema, {
      previews: await Promise.all(rows.map((row) => toPreview(db, row))),
    });
  });

  documentRoutes(routes, {
    "GET /environments/:environmentId/previews/settings": {
      responses: { 200: previewSettingsResponseSchema },
    },
    "PUT /environments/:environmentId/previews/settings": {
      body: previewSettingsRequestSchema,
      responses: { 200: previewSettingsChangeResponseSchema },
    },
    "GET /environments/:environmentId/preview": { responses: { 200: previewResponseSchema } },
    "GET /environments/:environmentId/previews": { responses: { 200: previewListSchema } },
    "GET /previews": { responses: { 200: previewListSchema } },
  });
  return routes;
}

function pullRequestOf(body: Uint8Array): PullRequestEvent {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch {
    throw new HttpError(400, { message: previewMessages.notJson, code: apiErrorCodes.invalidJson });
  }
  const parsed = pullRequestEventSchema.safeParse(value);
  if (!parsed.success) {
    throw new HttpError(400, { message: previewMessages.notJson, code: apiErrorCodes.validationFailed });
  }
  return parsed.data;
}

/**
 * POST /webhooks/github/previews/:webhookId, outside the signed-in API: GitHub's pull request deliveries for an
 * environment's preview setting. As for deploy on push, nothing but the setting is read before the signature is
 * checked (in constant time), and a webhook that does not exist is answered like a wrong signature.
 */
export function previewWebhookRoutes({
  db,
  secrets,
  engine,
  log = console.warn,
}: {
  db: Database;
  secrets: SecretCipher;
  engine: Pick<Operations, "previews" | "runner" | "now">;
  log?: (message: string) => void;
}) {
  const routes = new Hono();
  routes.post("/webhooks/github/previews/:webhookId", async (c) => {
    const webhookId = c.req.param("webhookId");
    const delivery = c.req.header("X-GitHub-Delivery");
    const refuse = (message: string) => {
      log(`previews: refused delivery ${loggable(delivery)} to webhook ${loggable(webhookId)}: ${message}`);
      return new HttpError(401, { message, code: apiErrorCodes.unauthorized });
    };
    const body = new Uint8Array(await c.req.arrayBuffer());
    const signature = c.req.header(SIGNATURE_HEADER);
    if (!signature) throw refuse(previewMessages.unsigned);
    const [setting] = z.guid().safeParse(webhookId).success
      ? await db.select().from(previewSettings).where(eq(previewSettings.webhookId, webhookId))
      : [];
    const signed = setting
      ? signatureMatches(previewSecretOf(secrets, setting), body, signature)
      : decoySignatureCheck(body, signature);
    if (!setting || !signed) throw refuse(previewMessages.badSignature);

    const answer = (status: 200 | 202, value: PreviewWebhookAnswer) =>
      c.json(previewWebhookAnswerSchema.parse(value), status);
    const event = c.req.header("X-GitHub-Event");
    if (event === "ping") {
      return answer(200, {
        outcome: "pong",
        message: "The webhook's secret matches: pull requests get previews.",
      });
    }
    if (event !== "pull_request") {
      return answer(202, {
        outcome: "ignored",
        message: `Only pull_request events make previews; this was ${loggable(event)}.`,
      });
    }
    const pullRequest = pullRequestOf(body);
    // GitHub always sends a delivery id; without one the event itself names the delivery.
    const deliveryId = delivery ?? `${pullRequest.action}:${pullRequest.pull_request.head.sha}`;
    const result = await db.transaction(async (tx) => {
      // One delivery of a setting at a time, so the limit and the burst rule read what the previous one did.
      const [locked] = await tx
        .select()
        .from(previewSettings)
        .where(eq(previewSettings.webhookId, setting.webhookId))
        .for("update");
      if (!locked) throw refuse(previewMessages.badSignature);
      return engine.previews.receive(tx, locked, pullRequest, deliveryId, engine.now());
    });
    engine.runner.wake();
    return answer(202, result);
  });
  documentRoutes(routes, {
    "POST /webhooks/github/previews/:webhookId": {
      responses: { 200: previewWebhookAnswerSchema, 202: previewWebhookAnswerSchema },
    },
  });
  return routes;
}
