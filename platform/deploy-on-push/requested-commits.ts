import type { Database } from "../db/index";
import type { SecretCipher } from "../lib/cipher";
import { credentialsOf, findConnection } from "../connections/records";
import { githubCommit } from "../connections/providers/github";
import { repositoryFullName, type PushSource } from "./source";

/**
 * The commit a ref names in the repository an application builds (a SHA, full or abbreviated, a branch or a tag),
 * asked of GitHub through the application's connection before anything is recorded: `unknown` says, in words, why
 * there is none. GitHub's other refusals and an unreachable host throw ProviderRequestError.
 */
export async function commitOfRef(
  db: Database,
  secrets: SecretCipher,
  { organizationId, source, ref }: { organizationId: string; source: PushSource; ref: string },
): Promise<{ sha: string; message: string } | { unknown: string }> {
  const connection = /^[0-9a-f-]{36}$/i.test(source.connectionId)
    ? await findConnection(db, organizationId, source.connectionId)
    : undefined;
  if (!connection) {
    return { unknown: "The GitHub connection this application builds from was deleted: choose another." };
  }
  const repository = await repositoryFullName(db, source);
  const commit = await githubCommit(credentialsOf(secrets, connection), repository, ref);
  return (
    commit ?? {
      unknown: `GitHub has no commit, branch or tag "${ref}" in ${repository}, or the token cannot see it.`,
    }
  );
}
