import { eq } from "drizzle-orm";
import { githubSourceSchema } from "#contract/application-config";
import type { Database } from "../db/index";
import { connections } from "../db/schema";

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

/**
 * The repository an application builds as GitHub names it in a push (`owner/name`): a source may name it alone,
 * in its GitHub connection's organization, as the create form's repository list does.
 */
export async function repositoryFullName(db: Database, source: PushSource): Promise<string> {
  if (source.repository.includes("/")) return source.repository;
  const [connection] = await db
    .select({ fields: connections.fields })
    .from(connections)
    .where(eq(connections.id, source.connectionId));
  const organization = connection?.fields.ORGANIZATION;
  return organization ? `${organization}/${source.repository}` : source.repository;
}
