import { and, desc, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import { apiErrorCodes } from "#contract/errors";
import {
  deployCommitRequestSchema,
  deployCommitResponseSchema,
  deployOnPushChangeResponseSchema,
  deployOnPushMessages,
  deployOnPushPaths,
  deployOnPushResponseSchema,
  updateDeployOnPushRequestSchema,
  webhookAnswerSchema,
  type DeployOnPush,
  type WebhookAnswer,
} from "#contract/deploy-on-push";
import { serviceErrorMessages } from "#contract/services";
import type { Database } from "../db/index";
import { deployHooks, deployPushes, resources } from "../db/schema";
import {
  createHook,
  hookOfResource,
  rotateHookSecret,
  secretOf,
  type DeployHookRow,
} from "../deploy-on-push/hooks";
import { staleCommitReason } from "../deploy-on-push/commit-order";
import { pushEventSchema, type PushEvent } from "../deploy-on-push/pushes";
import {
  decoySignatureCheck,
  loggable,
  SIGNATURE_HEADER,
  signatureMatches,
} from "../deploy-on-push/signature";
import { pushSourceOf, repositoryFullName } from "../deploy-on-push/source";
import type { Operations } from "../operations/operations";
import { ProviderRequestError } from "../connections/providers";
import { commitOfRef } from "../deploy-on-push/requested-commits";
import type { SecretCipher } from "../lib/cipher";
import type { ResourceRow } from "../services/records";
import { HttpError } from "./errors";
import { conflict, invalidFields, notFound } from "../lib/errors";
import { findEnvironment } from "./environments";
import { permit } from "./permissions";
import { currentUser } from "./auth";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { documentRoutes } from "./documented";

const idSchema = z.guid();
/** The longest commit message line kept: the history shows one line. */
const MESSAGE_MAX = 200;

/**
 * Deploy on push's settings, under .../environments/:environmentId/infrastructure/:resourceId (signed in): whether
 * pushes deploy, the hook's address and, once when it is made or rotated, its secret.
 */
export function deployOnPushRoutes({
  db,
  secrets,
  publicUrl,
  engine,
}: {
  db: Database;
  secrets: SecretCipher;
  /** The platform's public origin, where GitHub posts to. */
  publicUrl: string;
  engine: Pick<Operations, "pushes" | "runner" | "now">;
}) {
  const now = engine.now;
  const routes = new Hono<OrganizationEnv>();

  async function applicationOf(c: Context<OrganizationEnv>, tx: Database = db): Promise<ResourceRow> {
    const environment = await findEnvironment(
      tx,
      currentOrganization(c).tenantId,
      c.req.param("environmentId") ?? "",
    );
    const resourceId = c.req.param("resourceId") ?? "";
    const [row] = idSchema.safeParse(resourceId).success
      ? await tx
          .select()
          .from(resources)
          .where(and(eq(resources.id, resourceId), eq(resources.environmentId, environment.id)))
      : [];
    if (!row) throw notFound(serviceErrorMessages.notFound);
    return row;
  }

  async function viewOf(tx: Database, hook: DeployHookRow, application: ResourceRow): Promise<DeployOnPush> {
    const source = pushSourceOf(application.config);
    const repository = source ? await repositoryFullName(tx, source) : null;
    const [lastPush] = await tx
      .select()
      .from(deployPushes)
      .where(eq(deployPushes.resourceId, application.id))
      .orderBy(desc(deployPushes.receivedAt), desc(deployPushes.id))
      .limit(1);
    return {
      enabled: hook.enabled,
      webhookUrl: `${publicUrl}/api${deployOnPushPaths.webhook(hook.id)}`,
      repository,
      branch: source?.branch ?? null,
      secretCreatedAt: hook.secretCreatedAt.toISOString(),
      lastPush: lastPush
        ? {
            sha: lastPush.sha,
            message: lastPush.message,
            author: lastPush.author,
            branch: lastPush.branch,
            receivedAt: lastPush.receivedAt.toISOString(),
            historyId: lastPush.historyId,
          }
        : null,
    };
  }

  routes.get("/:resourceId/deploy-on-push", permit("organization.view"), async (c) => {
    const application = await applicationOf(c);
    const hook = await hookOfResource(db, application.id);
    return sendJson(c, deployOnPushResponseSchema, {
      deployOnPush: hook ? await viewOf(db, hook, application) : null,
    });
  });

  /** Switches deploy on push on or off; the first time makes the hook, whose secret is answered this once. */
  routes.put("/:resourceId/deploy-on-push", permit("services.configure"), async (c) => {
    const { enabled } = await readJsonBody(c, updateDeployOnPushRequestSchema);
    const answer = await db.transaction(async (tx) => {
      const application = await applicationOf(c, tx);
      if (enabled && !pushSourceOf(application.config)) {
        throw invalidFields({ enabled: [deployOnPushMessages.notGitHub] });
      }
      const existing = await hookOfResource(tx, application.id);
      if (!existing) {
        const { hook, secret } = await createHook(
          tx,
          secrets,
          { resourceId: application.id, enabled },
          now(),
        );
        return { deployOnPush: await viewOf(tx, hook, application), secret };
      }
      const [hook] = await tx
        .update(deployHooks)
        .set({ enabled })
        .where(eq(deployHooks.id, existing.id))
        .returning();
      return { deployOnPush: await viewOf(tx, hook ?? existing, application) };
    });
    return sendJson(c, deployOnPushChangeResponseSchema, answer);
  });

  /** A new secret, answered this once: GitHub's hook must be given it. */
  routes.post("/:resourceId/deploy-on-push/secret", permit("services.configure"), async (c) => {
    const answer = await db.transaction(async (tx) => {
      const application = await applicationOf(c, tx);
      const existing = await hookOfResource(tx, application.id);
      if (!existing) throw notFound(deployOnPushMessages.noHook);
      const { hook, secret } = await rotateHookSecret(tx, secrets, existing, now());
      return { deployOnPush: await viewOf(tx, hook, application), secret };
    });
    return sendJson(c, deployOnPushChangeResponseSchema, answer);
  });

  /**
   * Deploys the commit a SHA, branch or tag names (the CLI's `deploy --ref`), resolved by GitHub before anything is
   * recorded (no transaction waits for it), then taken as a push of the caller's: queued, joining the queued
   * deployment, or waiting for the running one.
   */
  routes.post("/:resourceId/deploy-commit", permit("services.deploy"), async (c) => {
    const { ref } = await readJsonBody(c, deployCommitRequestSchema);
    const application = await applicationOf(c);
    const source = pushSourceOf(application.config);
    if (!source) throw invalidFields({ ref: [deployOnPushMessages.commitNeedsGitHub] });
    if (!application.deployedAt) throw conflict(deployOnPushMessages.neverDeployed);
    let commit: Awaited<ReturnType<typeof commitOfRef>>;
    try {
      commit = await commitOfRef(db, secrets, {
        organizationId: currentOrganization(c).organizationId,
        source,
        ref,
      });
    } catch (error) {
      if (error instanceof ProviderRequestError) throw new HttpError(502, { message: error.message });
      throw error;
    }
    if ("unknown" in commit) throw invalidFields({ ref: [commit.unknown] });
    const answer = await db.transaction(async (tx) => {
      // Deleted meanwhile, or its source changed: as if it had been so before.
      const current = await applicationOf(c, tx);
      if (!pushSourceOf(current.config))
        throw invalidFields({ ref: [deployOnPushMessages.commitNeedsGitHub] });
      return engine.pushes.requested(
        tx,
        { resourceId: current.id, ref, sha: commit.sha, message: commit.message, actor: currentUser(c).name },
        now(),
      );
    });
    engine.runner.wake();
    return sendJson(
      c,
      deployCommitResponseSchema,
      { ...answer, commit: { sha: commit.sha, message: commit.message } },
      202,
    );
  });

  documentRoutes(routes, {
    "POST /:resourceId/deploy-commit": {
      body: deployCommitRequestSchema,
      responses: { 202: deployCommitResponseSchema },
    },
    "GET /:resourceId/deploy-on-push": { responses: { 200: deployOnPushResponseSchema } },
    "PUT /:resourceId/deploy-on-push": {
      body: updateDeployOnPushRequestSchema,
      responses: { 200: deployOnPushChangeResponseSchema },
    },
    "POST /:resourceId/deploy-on-push/secret": { responses: { 200: deployOnPushChangeResponseSchema } },
  });
  return routes;
}

function unauthorizedPayload(message: string): HttpError {
  return new HttpError(401, { message, code: apiErrorCodes.unauthorized });
}

/** The push event in a JSON body, or in the `payload` field of a form body (GitHub offers both). */
function pushEventOf(body: Uint8Array, contentType: string | undefined): PushEvent {
  const text = Buffer.from(body).toString("utf8");
  const json = contentType?.startsWith("application/x-www-form-urlencoded")
    ? (new URLSearchParams(text).get("payload") ?? "")
    : text;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new HttpError(400, { message: deployOnPushMessages.notJson, code: apiErrorCodes.invalidJson });
  }
  const parsed = pushEventSchema.safeParse(value);
  if (!parsed.success) {
    throw new HttpError(400, { message: deployOnPushMessages.notJson, code: apiErrorCodes.validationFailed });
  }
  return parsed.data;
}

/**
 * POST /webhooks/github/:hookId, outside the signed-in API: GitHub's deliveries for an application's hook. Nothing
 * is read from the database before the signature is checked but the hook itself, and a hook that does not exist
 * is answered like a wrong signature (after as long a check), so the address tells a stranger nothing. A refused
 * payload is logged with its hook and delivery id, never the signature or the secret.
 */
export function webhookRoutes({
  db,
  secrets,
  engine,
  log = console.warn,
}: {
  db: Database;
  secrets: SecretCipher;
  engine: Pick<Operations, "pushes" | "runner" | "now">;
  log?: (message: string) => void;
}) {
  const routes = new Hono();

  routes.post("/webhooks/github/:hookId", async (c) => {
    const hookId = c.req.param("hookId");
    const delivery = c.req.header("X-GitHub-Delivery");
    const refuse = (message: string) => {
      log(`deploy on push: refused delivery ${loggable(delivery)} to hook ${loggable(hookId)}: ${message}`);
      return unauthorizedPayload(message);
    };
    const body = new Uint8Array(await c.req.arrayBuffer());
    const signature = c.req.header(SIGNATURE_HEADER);
    if (!signature) throw refuse(deployOnPushMessages.unsigned);
    const [hook] = idSchema.safeParse(hookId).success
      ? await db.select().from(deployHooks).where(eq(deployHooks.id, hookId))
      : [];
    const signed = hook
      ? signatureMatches(secretOf(secrets, hook), body, signature)
      : decoySignatureCheck(body, signature);
    if (!hook || !signed) throw refuse(deployOnPushMessages.badSignature);

    const answer = (status: 200 | 202, value: WebhookAnswer) =>
      c.json(webhookAnswerSchema.parse(value), status);
    const ignored = (message: string) => answer(202, { outcome: "ignored", message });
    const event = c.req.header("X-GitHub-Event");
    if (event === "ping") {
      return answer(200, { outcome: "pong", message: "The webhook's secret matches: pushes can deploy." });
    }
    if (event !== "push") return ignored(`Only push events deploy; this was ${loggable(event)}.`);
    const push = pushEventOf(body, c.req.header("Content-Type"));
    const [application] = await db.select().from(resources).where(eq(resources.id, hook.resourceId));
    if (!application) throw unauthorizedPayload(deployOnPushMessages.badSignature);
    const source = pushSourceOf(application.config);
    if (!hook.enabled) return ignored("Deploy on push is off for this application.");
    if (!source) return ignored("The application is no longer built from a GitHub repository.");
    const repository = await repositoryFullName(db, source);
    if (push.repository.full_name.toLowerCase() !== repository.toLowerCase()) {
      return ignored(`The application builds ${repository}, not ${push.repository.full_name}.`);
    }
    if (push.ref !== `refs/heads/${source.branch}`) {
      return ignored(`The application deploys the branch ${source.branch}; this push was to ${push.ref}.`);
    }
    if (push.deleted || /^0+$/.test(push.after)) return ignored(`The branch ${source.branch} was deleted.`);
    if (application.stage === "STAGE_DRAFT" && !application.deployedAt) {
      return ignored("The application has not been deployed yet: deploy it once from the console.");
    }

    const now = engine.now();
    const result = await db.transaction(async (tx) => {
      // One push of an application at a time: the burst rule reads what the previous one queued.
      const [locked] = await tx.select().from(deployHooks).where(eq(deployHooks.id, hook.id)).for("update");
      if (!locked?.enabled)
        return { outcome: "ignored", message: "Deploy on push is off for this application." };
      const deliveryId = delivery ?? push.after;
      const timestamp = push.head_commit?.timestamp;
      const commit = {
        resourceId: application.id,
        branch: source.branch,
        sha: push.after,
        committedAt: timestamp ? new Date(timestamp) : null,
      };
      const alreadyReceived = {
        outcome: "already-received",
        message: "This delivery was received before; it deploys once.",
      } as const;
      // A redelivery (same delivery id) is told so; another delivery of a commit already pushed is a replay.
      const [received] = await tx
        .select({ id: deployPushes.id })
        .from(deployPushes)
        .where(and(eq(deployPushes.resourceId, application.id), eq(deployPushes.deliveryId, deliveryId)));
      if (received) return alreadyReceived;
      const stale = await staleCommitReason(tx, commit);
      if (stale) return { outcome: "ignored", message: stale } as const;
      const [recorded] = await tx
        .insert(deployPushes)
        .values({
          ...commit,
          deliveryId,
          message: (push.head_commit?.message.split("\n")[0] ?? "").slice(0, MESSAGE_MAX),
          author:
            push.pusher?.name ??
            push.head_commit?.author?.username ??
            push.head_commit?.author?.name ??
            "GitHub",
          receivedAt: now,
        })
        .onConflictDoNothing({ target: [deployPushes.resourceId, deployPushes.deliveryId] })
        .returning();
      if (!recorded) return alreadyReceived;
      return engine.pushes.receive(tx, recorded, now);
    });
    engine.runner.wake();
    return answer(202, webhookAnswerSchema.parse(result));
  });

  return routes;
}
