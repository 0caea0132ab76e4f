import * as z from "zod";
import { gitRefPattern } from "./application-config";
import { servicePaths } from "./services";

/**
 * Deploy on push (issue 15, docs/decisions/034-deploy-on-push-and-chart-indexes.md): an application built from a
 * GitHub repository deploys when its branch is pushed to. GitHub posts each push to the application's webhook
 * (outside the signed-in API), signed with the hook's secret; the settings say whether pushes deploy, where the hook
 * is, and the secret, shown once when it is made.
 */

export const pushedCommitSchema = z.object({
  sha: z.string(),
  /** The commit message's first line. */
  message: z.string(),
  author: z.string(),
  branch: z.string(),
  receivedAt: z.string(),
  /** The deployment (history entry) deploying it; null while it waits for a running deployment to end. */
  historyId: z.string().nullable(),
});
export type PushedCommit = z.infer<typeof pushedCommitSchema>;

export const deployOnPushSchema = z.object({
  enabled: z.boolean(),
  /** The Payload URL to paste into the repository's Settings → Webhooks (content type application/json). */
  webhookUrl: z.string(),
  /** What the application builds, from its GitHub source; null once it no longer builds from GitHub. */
  repository: z.string().nullable(),
  branch: z.string().nullable(),
  /** When the current secret was made (the secret itself is shown only then). */
  secretCreatedAt: z.string(),
  lastPush: pushedCommitSchema.nullable(),
});
export type DeployOnPush = z.infer<typeof deployOnPushSchema>;

/** GET .../deploy-on-push: null until deploy on push was first switched on. */
export const deployOnPushResponseSchema = z.object({ deployOnPush: deployOnPushSchema.nullable() });

export const updateDeployOnPushRequestSchema = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
});

/** PUT .../deploy-on-push and POST .../deploy-on-push/secret: `secret` only when one was just made. */
export const deployOnPushChangeResponseSchema = z.object({
  deployOnPush: deployOnPushSchema,
  secret: z.string().optional(),
});

/** What the webhook answers GitHub (shown in the repository's Recent Deliveries). */
export const webhookOutcomes = [
  "pong",
  "deployment-queued",
  "deployment-updated",
  "waiting-for-running-deployment",
  "already-received",
  "ignored",
] as const;
export const webhookAnswerSchema = z.object({
  outcome: z.enum(webhookOutcomes),
  message: z.string(),
  historyId: z.string().optional(),
});
export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>;

export const deployOnPushPaths = {
  settings: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/deploy-on-push`,
  secret: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/deploy-on-push/secret`,
  /** Under the API's base path (/api), like every other path. */
  webhook: (hookId: string) => `/webhooks/github/${encodeURIComponent(hookId)}`,
  /** A commit asked for by name (the CLI's `deploy --ref`), whether or not pushes deploy. */
  deployCommit: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/deploy-commit`,
};

/** A commit's full or abbreviated SHA, a branch or a tag, as `git checkout` takes it. */
export const deployCommitRequestSchema = z.object({
  ref: z
    .string({ error: "Give the commit, branch or tag to deploy" })
    .trim()
    .min(1, "Give the commit, branch or tag to deploy")
    .max(255, "A commit, branch or tag has at most 255 characters")
    .regex(gitRefPattern, "Give a commit SHA (e.g. 1a2b3c4), a branch or a tag"),
});

/**
 * POST .../deploy-commit: the commit GitHub resolved the ref to, and what became of it under deploy on push's burst
 * rule (queued, joined the queued deployment, or waiting for the running one; `historyId` once it has one).
 */
export const deployCommitResponseSchema = webhookAnswerSchema.extend({
  commit: z.object({ sha: z.string(), message: z.string() }),
});
export type DeployCommitResponse = z.infer<typeof deployCommitResponseSchema>;

/**
 * - GET .../infrastructure/{id}/deploy-on-push → deployOnPushResponseSchema (organization.view).
 * - PUT .../deploy-on-push {enabled} → deployOnPushChangeResponseSchema (services.configure); switching it on the
 *   first time makes the hook and its secret (answered once); 400 unless the application builds from GitHub.
 * - POST .../deploy-on-push/secret → deployOnPushChangeResponseSchema with the new secret (services.configure);
 *   GitHub's hook must be given it, payloads signed with the old one are refused from then on. 404 before the hook
 *   exists.
 * - POST .../deploy-commit {ref} → 202 deployCommitResponseSchema (services.deploy): the commit, branch or tag,
 *   resolved by GitHub through the application's connection, deployed as a push of the caller's would be; 400 (ref)
 *   unless the application builds from GitHub and GitHub knows the ref, 409 before its first deployment, 502 when
 *   GitHub does not answer.
 * - POST /webhooks/github/{hookId} (GitHub, no token): 401 unless X-Hub-Signature-256 is the HMAC-SHA256 of the
 *   body with the hook's secret (the same answer for a hook that does not exist); then webhookAnswerSchema: 200
 *   for ping, 202 for a push (queued, merged into the queued deployment, waiting, or ignored with the reason).
 */
export const deployOnPushMessages = {
  notGitHub: "Deploy on push needs an application built from a GitHub repository.",
  noHook: "Deploy on push was never switched on for this application.",
  unsigned: "The payload is not signed: set a secret on the webhook (X-Hub-Signature-256 is missing).",
  badSignature: "The payload's X-Hub-Signature-256 does not match this webhook's secret.",
  notJson: "The payload is not a GitHub push event in JSON or form encoding.",
  commitNeedsGitHub:
    "Only an application built from a GitHub repository deploys a commit: deploy an image to this one instead.",
  neverDeployed: "The application has not been deployed yet: deploy it once from the console.",
} as const;
