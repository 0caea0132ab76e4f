import type { ApplicationSources } from "../cloud/driver";
import { CloudStepError } from "../cloud/driver";
import { ProviderUnreachableError, providerFetch } from "../connections/http";
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

    async githubArchive(connectionId, { owner, name, commit }) {
      const credentials = await connectionOf(connectionId);
      const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/tarball/${encodeURIComponent(commit)}`;
      try {
        let response = await githubGet(credentials, path, { timeoutMs: ARCHIVE_TIMEOUT_MS });
        // GitHub answers 302 to codeload.github.com, whose URL carries a short-lived token of its own: each hop
        // goes through the egress policy, and the connection's token is sent to GitHub's API only.
        for (let hop = 0; hop < MAX_REDIRECTS && [301, 302, 303, 307, 308].includes(response.status); hop++) {
          const location = response.headers.get("location");
          if (!location) break;
          const next = new URL(location, response.url);
          await response.body?.cancel();
          response =
            next.origin === new URL(response.url).origin
              ? await githubGet(credentials, next, { timeoutMs: ARCHIVE_TIMEOUT_MS })
              : await providerFetch(next, {}, { timeoutMs: ARCHIVE_TIMEOUT_MS });
        }
        if (!response.ok && new URL(response.url).origin !== apiOrigin(credentials)) {
          await response.body?.cancel();
          throw new CloudStepError(
            `GitHub's archive host ${new URL(response.url).host} answered ${response.status} for ${owner}/${name} at ${commit.slice(0, 12)}.`,
            { transient: response.status >= 500 },
          );
        }
        if (!response.ok) {
          throw await githubRefusal(credentials, response, {
            notFound: `GitHub has no commit ${commit} in ${owner}/${name}, or the token cannot see it.`,
          });
        }
        return await boundedBody(response, `The archive of ${owner}/${name} at ${commit.slice(0, 12)}`);
      } catch (error) {
        if (error instanceof CloudStepError) throw error;
        return asStepError(error);
      }
    },
  };
}

const apiOrigin = (credentials: Credentials) =>
  new URL(credentials.fields.BASE_URL ?? "https://api.github.com").origin;

/** A repository's archive may take a while to download, and is held in memory to be built: both are bounded. */
const ARCHIVE_TIMEOUT_MS = 5 * 60_000;
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
const MAX_REDIRECTS = 3;

/** The body of `response`, refused once it grows past MAX_ARCHIVE_BYTES. */
async function boundedBody(response: Response, what: string): Promise<Uint8Array> {
  const tooLarge = () =>
    new CloudStepError(
      `${what} is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MB: too large to build here.`,
      { transient: false },
    );
  if (Number(response.headers.get("content-length")) > MAX_ARCHIVE_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    size += read.value.byteLength;
    if (size > MAX_ARCHIVE_BYTES) {
      await reader?.cancel();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

/** A provider's refusal fails the deployment in its words; an unreachable host is worth another try. */
function asStepError(error: unknown): never {
  if (error instanceof ProviderUnreachableError) throw new CloudStepError(error.message, { transient: true });
  if (error instanceof ProviderRequestError) throw new CloudStepError(error.message, { transient: false });
  throw error;
}
