import * as z from "zod";

/**
 * What deploy on push needs of an application: the GitHub repository and branch it builds. The one place that reads
 * an application's GitHub source; at the merge with issue 15's application config (contract/services.ts, helper E)
 * it reads that config's GitHub source, which until then an application carries as
 * `config.source = { type: "github", connectionId, repository, branch, ... }`.
 */
export type PushSource = { connectionId: string; repository: string; branch: string };

const githubSourceSchema = z.object({
  source: z.object({
    type: z.literal("github"),
    connectionId: z.string(),
    repository: z.string(),
    branch: z.string(),
  }),
});

/** The application's GitHub source, or null when it is not built from GitHub. */
export function pushSourceOf(config: unknown): PushSource | null {
  const parsed = githubSourceSchema.safeParse(config);
  if (!parsed.success) return null;
  const { connectionId, repository, branch } = parsed.data.source;
  return { connectionId, repository, branch };
}
