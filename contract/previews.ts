import * as z from "zod";
import { environmentPaths } from "./environments";

/**
 * Preview environments (issue 28, docs/decisions/069-preview-environments.md): an environment's preview setting
 * makes every pull request of a GitHub repository its own clone of the environment, with the chosen applications
 * built from the pull request's head. GitHub posts `pull_request` events to the setting's webhook (outside the
 * signed-in API), signed with its secret, shown once when it is made.
 */

/** `{number}` is the pull request's number; `{environment}` the source environment's name. */
export const PREVIEW_NAME_NUMBER = "{number}";
export const DEFAULT_PREVIEW_NAME_PATTERN = "pr-{number}";
export const MAX_PREVIEWS_LIMIT = 20;
export const MAX_IDLE_DAYS = 30;
/** As long as an application's pre-deploy command may be. */
export const MAX_SEED_COMMAND_LENGTH = 1024;

export const previewMessages = {
  namePattern: `The name pattern must contain ${PREVIEW_NAME_NUMBER}, and otherwise only lowercase letters, digits, hyphens and {environment}.`,
  repository: "Write the repository as owner/name.",
  maxPreviews: `Between 1 and ${MAX_PREVIEWS_LIMIT} previews at once.`,
  idleDays: `An idle preview lives between 1 and ${MAX_IDLE_DAYS} days.`,
  seedCommand: `Seed command must be at most ${MAX_SEED_COMMAND_LENGTH} characters`,
  notGitHubConnection: "Choose a GitHub connection of this organization.",
  noApplications: "Choose at least one application to build from the pull request.",
  notGitHubApplication: (name: string, repository: string) =>
    `${name} is not built from ${repository} on GitHub: only applications built from the repository can build its pull requests.`,
  unknownApplication: "One of the chosen applications is not in this environment.",
  notPreviewable: "A preview environment cannot have previews of its own.",
  noSetting: "This environment has no preview setting yet.",
  limitReached: (most: number) =>
    `No preview was made: this environment already has ${most} preview${most === 1 ? "" : "s"} running, the most its preview setting allows. Close a pull request, or raise the limit.`,
  unsigned: "The delivery is not signed: GitHub signs it with the webhook's secret (X-Hub-Signature-256).",
  badSignature: "The signature does not match the webhook's secret.",
  notJson: "The body is not a pull_request event GitHub sends.",
} as const;

const repositorySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, previewMessages.repository);

export const previewSettingsRequestSchema = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
  connectionId: z.uuid({ error: previewMessages.notGitHubConnection }),
  repository: repositorySchema,
  applicationIds: z.array(z.uuid()).min(1, previewMessages.noApplications).max(50),
  namePattern: z
    .string()
    .trim()
    .max(30, previewMessages.namePattern)
    .regex(/^(?:[a-z0-9-]|\{number\}|\{environment\})*$/, previewMessages.namePattern)
    .refine((value) => value.includes(PREVIEW_NAME_NUMBER), previewMessages.namePattern),
  maxPreviews: z
    .int(previewMessages.maxPreviews)
    .min(1, previewMessages.maxPreviews)
    .max(MAX_PREVIEWS_LIMIT, previewMessages.maxPreviews),
  idleDays: z
    .int(previewMessages.idleDays)
    .min(1, previewMessages.idleDays)
    .max(MAX_IDLE_DAYS, previewMessages.idleDays),
  /**
   * Optional (decision 073): run once with `sh -c`, in the preview's first deployment, by the first of the
   * applications built from the pull request (by name), after its pre-deploy command and before it starts, so it can
   * fill the fresh databases. Absent or "": none.
   */
  seedCommand: z.string().trim().max(MAX_SEED_COMMAND_LENGTH, previewMessages.seedCommand).default(""),
});
export type PreviewSettingsRequest = z.infer<typeof previewSettingsRequestSchema>;

export const previewSettingsSchema = previewSettingsRequestSchema.extend({
  /** The Payload URL for the repository's Settings → Webhooks (content type application/json, pull requests). */
  webhookUrl: z.string(),
  secretCreatedAt: z.string(),
});
export type PreviewSettings = z.infer<typeof previewSettingsSchema>;

/** GET .../previews/settings: null until a setting was first saved. */
export const previewSettingsResponseSchema = z.object({ previewSettings: previewSettingsSchema.nullable() });
/** PUT .../previews/settings: `secret` only the first time, when the webhook is made. */
export const previewSettingsChangeResponseSchema = z.object({
  previewSettings: previewSettingsSchema,
  secret: z.string().optional(),
});

/**
 * Where a preview stands: OPENING while its environment is cloned, DEPLOYING while its applications deploy, READY
 * when they run, FAILED when a step failed (`message` says which), REMOVING while it is torn down, REMOVED once it
 * is gone, REFUSED when the preview setting's limit kept it from being made.
 */
export const previewStates = [
  "OPENING",
  "DEPLOYING",
  "READY",
  "FAILED",
  "REMOVING",
  "REMOVED",
  "REFUSED",
] as const;
export const previewStateSchema = z.enum(previewStates);
export type PreviewState = z.infer<typeof previewStateSchema>;

export const pullRequestSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  author: z.string(),
  url: z.string(),
});
export type PullRequest = z.infer<typeof pullRequestSchema>;

export const previewSchema = z.object({
  id: z.string(),
  /** The preview's environment; null before it is made and once it is removed. */
  environmentId: z.string().nullable(),
  environmentName: z.string(),
  source: z.object({ id: z.string(), name: z.string() }),
  pullRequest: pullRequestSchema,
  headSha: z.string(),
  state: previewStateSchema,
  message: z.string().nullable(),
  /** Where the preview's first chosen application answers, once deployed. */
  url: z.string().nullable(),
  lastActivityAt: z.string(),
});
export type Preview = z.infer<typeof previewSchema>;
export const previewListSchema = z.object({ previews: z.array(previewSchema) });
/** GET .../environments/{id}/preview: the pull request an environment is the preview of, or null. */
export const previewResponseSchema = z.object({ preview: previewSchema.nullable() });

export const previewWebhookOutcomes = [
  "pong",
  "opening",
  "redeploying",
  "removing",
  "refused",
  "already-received",
  "ignored",
] as const;
export const previewWebhookAnswerSchema = z.object({
  outcome: z.enum(previewWebhookOutcomes),
  message: z.string(),
  previewId: z.string().optional(),
});
export type PreviewWebhookAnswer = z.infer<typeof previewWebhookAnswerSchema>;

export const previewPaths = {
  settings: (t: string, e: string) => `${environmentPaths.one(t, e)}/previews/settings`,
  ofEnvironment: (t: string, e: string) => `${environmentPaths.one(t, e)}/preview`,
  /** The organization's previews that still have (or had) an environment, newest first. */
  list: (t: string) => `/v2/organizations/${encodeURIComponent(t)}/previews`,
  /** Under the API's base path (/api), like every other path. */
  webhook: (webhookId: string) => `/webhooks/github/previews/${encodeURIComponent(webhookId)}`,
};

/**
 * - GET .../environments/{id}/previews/settings → previewSettingsResponseSchema (organization.view).
 * - PUT .../previews/settings previewSettingsRequestSchema → previewSettingsChangeResponseSchema
 *   (environments.configure); 400 with field errors for a connection that is not the organization's GitHub one,
 *   applications not in the environment or not built from the repository, a preview environment, a seed command
 *   over 1,024 characters.
 * - GET /v2/organizations/{t}/previews → previewListSchema (organization.view).
 * - GET .../environments/{id}/preview → previewResponseSchema (organization.view).
 * - POST /webhooks/github/previews/{webhookId} (GitHub, no token): 401 unless X-Hub-Signature-256 is the HMAC-SHA256
 *   of the body with the setting's secret (the same answer for a webhook that does not exist); then
 *   previewWebhookAnswerSchema, 202.
 */
