import type { ApplicationSources } from "../cloud/driver";
import { CloudStepError } from "../cloud/driver";
import { ProviderUnreachableError } from "../connections/http";
import { providers } from "../connections/provider-registry";
import { ProviderRequestError, type Credentials, type ProviderContext } from "../connections/providers";
import { githubGet, githubRefusal } from "../connections/providers/github";

/**
 * What an application's source reaches outside the cloud (issue 15, docs/decisions/033), read through the
 * organization's connections for the deploy drivers, which know no connection: a registry image's manifest (registry
 * v2 API, ECR's DescribeImages, Artifact Registry's tags) and a GitHub repository's commit and Dockerfile. A
 * provider's refusal fails the deployment in its words; an unreachable host is worth another try.
 */
export function connectionSources({
  connection,
  providerContext,
}: {
  /** The organization's connection `id`, unsealed; undefined when it was deleted. */
  connection: (id: string) => Promise<Credentials | undefined>;
  providerContext: ProviderContext;
}): Omit<ApplicationSources, "chartRepositoryUrl"> {
  /** The connection a source names, unsealed, or a refusal (it was deleted since the configuration was saved). */
  async function connectionOf(id: string) {
    const credentials = await connection(id);
    if (!credentials) {
      throw new CloudStepError(
        "The connection this application's source names was deleted: choose another.",
        {
          transient: false,
        },
      );
    }
    return credentials;
  }

  return {
    async registryImage(connectionId, repository, tag) {
      const credentials = await connectionOf(connectionId);
      const provider = providers[credentials.kind];
      try {
        if (provider.manifest) return await provider.manifest(credentials, providerContext, repository, tag);
        // Artifact Registry: its REST API lists the tags with their digests.
        const tags = (await provider.tags?.(credentials, providerContext, repository)) ?? [];
        const found = tags.find((candidate) => candidate.name === tag);
        if (!found?.digest) {
          throw new CloudStepError(
            `Failed to pull image "${repository}:${tag}": MANIFEST_UNKNOWN: manifest unknown`,
            { transient: false },
          );
        }
        return { digest: found.digest, image: `${repository}:${tag}` };
      } catch (error) {
        if (error instanceof CloudStepError) throw error;
        return asStepError(error);
      }
    },

    async githubSource(connectionId, { repository, branch, dockerfilePath, pushedCommit }) {
      const credentials = await connectionOf(connectionId);
      const [owner = "", name = ""] = repository.includes("/")
        ? repository.split("/")
        : [credentials.fields.ORGANIZATION ?? "", repository];
      const repo = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
      try {
        let commit = pushedCommit?.sha ?? "";
        let message = pushedCommit?.message ?? "";
        if (!pushedCommit) {
          const branchResponse = await githubGet(
            credentials,
            `${repo}/branches/${encodeURIComponent(branch)}`,
          );
          if (!branchResponse.ok) {
            throw await githubRefusal(credentials, branchResponse, {
              notFound: `GitHub has no branch "${branch}" in ${owner}/${name}, or the token cannot see it.`,
            });
          }
          const head = (await branchResponse.json()) as {
            commit?: { sha?: string; commit?: { message?: string } };
          };
          commit = head.commit?.sha ?? "";
          message = head.commit?.commit?.message ?? "";
        }
        const fileResponse = await githubGet(
          credentials,
          `${repo}/contents/${dockerfilePath.split("/").map(encodeURIComponent).join("/")}?ref=${encodeURIComponent(commit || branch)}`,
        );
        if (!fileResponse.ok) {
          throw await githubRefusal(credentials, fileResponse, {
            notFound: `GitHub answered 404 Not Found for ${dockerfilePath} on ${branch} of ${owner}/${name}: the repository has no such Dockerfile.`,
          });
        }
        const file = (await fileResponse.json()) as { content?: string; encoding?: string };
        const dockerfile = Buffer.from(
          file.content ?? "",
          file.encoding === "base64" ? "base64" : "utf8",
        ).toString("utf8");
        return { owner, name, commit, message, dockerfile };
      } catch (error) {
        return asStepError(error);
      }
    },
  };
}

/** A provider's refusal fails the deployment in its words; an unreachable host is worth another try. */
function asStepError(error: unknown): never {
  if (error instanceof ProviderUnreachableError) throw new CloudStepError(error.message, { transient: true });
  if (error instanceof ProviderRequestError) throw new CloudStepError(error.message, { transient: false });
  throw error;
}
