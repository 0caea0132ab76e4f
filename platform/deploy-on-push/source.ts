import { githubSourceSchema } from "#contract/application-config";

/**
 * What deploy on push needs of an application: the GitHub repository and branch it builds. The one place that reads
 * an application's GitHub source (contract/application-config.ts).
 */
export type PushSource = { connectionId: string; repository: string; branch: string };

/** The application's GitHub source, or null when it is not built from GitHub. */
export function pushSourceOf(config: unknown): PushSource | null {
  const source = (config as { source?: unknown } | null)?.source;
  const parsed = githubSourceSchema.safeParse(source);
  if (!parsed.success) return null;
  const { connectionId, repository, branch } = parsed.data;
  return { connectionId, repository, branch };
}
