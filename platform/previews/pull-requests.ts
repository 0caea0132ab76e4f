import * as z from "zod";

/**
 * What a `pull_request` event says, as much as previews need
 * (https://docs.github.com/webhooks/webhook-events-and-payloads#pull_request).
 */
export const pullRequestEventSchema = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    html_url: z.string(),
    user: z.object({ login: z.string() }),
    head: z.object({ ref: z.string(), sha: z.string().regex(/^[0-9a-f]{40}$/) }),
    merged: z.boolean().nullable().optional(),
    /** When the pull request last changed: a delivery older than the last one taken does not redeploy. */
    updated_at: z.iso.datetime({ offset: true }).optional(),
  }),
  repository: z.object({ full_name: z.string() }),
});
export type PullRequestEvent = z.infer<typeof pullRequestEventSchema>;
