import type { ConnectionFieldName } from "#contract/connections";
import { endpoint, jsonOf, providerFetch } from "../http";
import type { Branch, CheckResult, Credentials, Provider, ProviderContext, Repository } from "../providers";
import { failedCheck, linkTarget, asProviderRequest, ProviderRefusal } from "../refusals";

/**
 * GitHub repositories (VERSION_CONTROL_TYPE_GITHUB, issue 13) through GitHub's REST API at BASE_URL
 * (https://api.github.com, or https://{host}/api/v3 for GitHub Enterprise Server), with the organization's token.
 * Dependabot reads alerts through the same calls with a GitHub connection's credentials.
 */

const DEFAULT_API_URL = "https://api.github.com";
/** Pages of 100 and at most 10 of them: a listing for a picker, not an export. */
const PER_PAGE = 100;
const MAX_PAGES = 10;

/** A GitHub owner or repository name: letters, digits, '.', '-', '_' (never '.' or '..'). */
const nameSegment = /^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;

/** GET a path of GitHub's API (or a Link header's URL) as GitHub asks clients to call it. */
export function githubGet(
  credentials: Credentials,
  target: string | URL,
  options?: { timeoutMs?: number },
): Promise<Response> {
  const url =
    typeof target === "string" ? endpoint(credentials.fields.BASE_URL ?? DEFAULT_API_URL, target) : target;
  return providerFetch(
    url,
    {
      headers: {
        Accept: "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        Authorization: `Bearer ${credentials.secrets.TOKEN ?? ""}`,
        "User-Agent": "cloud-deploy-platform",
      },
    },
    options,
  );
}

/** POST or PATCH a JSON body to a path of GitHub's API with the connection's token (previews' comments and deployments). */
export function githubWrite(
  credentials: Credentials,
  method: "POST" | "PATCH",
  path: string,
  body: unknown,
): Promise<Response> {
  return providerFetch(endpoint(credentials.fields.BASE_URL ?? DEFAULT_API_URL, path), {
    method,
    headers: {
      Accept: "application/vnd.github+json",
      "Content-Type": "application/json",
      "X-GitHub-Api-Version": "2022-11-28",
      Authorization: `Bearer ${credentials.secrets.TOKEN ?? ""}`,
      "User-Agent": "cloud-deploy-platform",
    },
    body: JSON.stringify(body),
  });
}

function apiHost(credentials: Credentials) {
  return new URL(credentials.fields.BASE_URL ?? DEFAULT_API_URL).host;
}

/** "14:05 UTC (in 12 minutes)" for an epoch second. */
function resetTime(epochSeconds: number, now = Date.now()) {
  const at = new Date(epochSeconds * 1000);
  const minutes = Math.max(Math.ceil((at.getTime() - now) / 60_000), 1);
  return `${at.toISOString().slice(11, 16)} UTC (in ${minutes} minute${minutes === 1 ? "" : "s"})`;
}

/**
 * What GitHub's refusal means, in plain words. `notFound` explains a 404 (GitHub answers 404, not 403, for what
 * the token may not see); `tokenField` and `notFoundField` are the fields to fix for a refused token and a 404.
 */
export async function githubRefusal(
  credentials: Credentials,
  response: Response,
  {
    notFound,
    tokenField = "TOKEN",
    notFoundField,
  }: { notFound: string; tokenField?: ConnectionFieldName; notFoundField?: ConnectionFieldName },
): Promise<ProviderRefusal> {
  const body = (await jsonOf(response)) as { message?: string } | undefined;
  const host = apiHost(credentials);
  if (response.status === 401) {
    return new ProviderRefusal(
      `GitHub (${host}) refused the token: it is wrong, expired or revoked.`,
      tokenField,
    );
  }
  const reset = Number(response.headers.get("x-ratelimit-reset"));
  if (
    (response.status === 403 || response.status === 429) &&
    response.headers.get("x-ratelimit-remaining") === "0" &&
    reset > 0
  ) {
    return new ProviderRefusal(
      `GitHub's rate limit for this token is used up; it resets at ${resetTime(reset)}. Try again then.`,
    );
  }
  const retryAfter = Number(response.headers.get("retry-after"));
  if ((response.status === 403 || response.status === 429) && retryAfter > 0) {
    return new ProviderRefusal(`GitHub asks to slow down: try again in ${retryAfter} seconds.`);
  }
  if (response.status === 403) {
    return new ProviderRefusal(
      `GitHub refused the request${body?.message ? `: ${body.message}` : "."}`,
      tokenField,
    );
  }
  if (response.status === 404 && body?.message) return new ProviderRefusal(notFound, notFoundField);
  if (!body) {
    // An HTML page or nothing: the URL is not GitHub's API (GitHub Enterprise serves it under /api/v3).
    return new ProviderRefusal(
      `${host} does not answer like GitHub's API (HTTP ${response.status}): check the API URL (GitHub Enterprise Server: https://{host}/api/v3).`,
      "BASE_URL",
    );
  }
  return new ProviderRefusal(`GitHub answered ${response.status}${body.message ? `: ${body.message}` : "."}`);
}

/** Every page of a listing, following GitHub's Link header, up to MAX_PAGES. */
async function allPages<T>(
  credentials: Credentials,
  path: string,
  notFound: { message: string; field?: ConnectionFieldName },
): Promise<T[]> {
  const items: T[] = [];
  let target: string | URL = path;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await githubGet(credentials, target);
    if (!response.ok) {
      throw await githubRefusal(credentials, response, {
        notFound: notFound.message,
        notFoundField: notFound.field,
      });
    }
    const next = linkTarget(response, "next", new URL(response.url));
    items.push(...(((await jsonOf(response)) as T[] | undefined) ?? []));
    if (!next) break;
    target = next;
  }
  return items;
}

function organizationOf(credentials: Credentials) {
  return credentials.fields.ORGANIZATION ?? "";
}

/** "name" is a repository of the connection's organization; "owner/name" names its owner. */
function ownerAndName(credentials: Credentials, repository: string): { owner: string; name: string } {
  const parts = repository.split("/");
  const [owner, name] = parts.length === 1 ? [organizationOf(credentials), parts[0]] : parts;
  if (parts.length > 2 || !owner || !name || !nameSegment.test(owner) || !nameSegment.test(name)) {
    throw new ProviderRefusal(`"${repository}" is not a GitHub repository: give "name" or "owner/name".`);
  }
  return { owner, name };
}

/**
 * The commit a SHA (full or abbreviated), branch or tag names in the repository (GET /repos/{owner}/{repo}/commits/
 * {ref}): its full SHA and its message's first line; null when GitHub knows no such ref there (404, or 422 for a
 * SHA it cannot find). Any other refusal, or an unreachable host, throws ProviderRequestError.
 */
export function githubCommit(
  credentials: Credentials,
  repository: string,
  ref: string,
): Promise<{ sha: string; message: string } | null> {
  return asProviderRequest([credentials], async () => {
    const { owner, name } = ownerAndName(credentials, repository);
    const response = await githubGet(
      credentials,
      `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/commits/${encodeURIComponent(ref)}`,
    );
    if (response.status === 404 || response.status === 422) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      throw await githubRefusal(credentials, response, {
        notFound: `GitHub has no repository "${owner}/${name}", or the token cannot see it.`,
      });
    }
    const commit = (await jsonOf(response)) as { sha?: string; commit?: { message?: string } } | undefined;
    if (!commit?.sha)
      throw new ProviderRefusal(`GitHub answered no commit for "${ref}" in ${owner}/${name}.`);
    return { sha: commit.sha, message: commit.commit?.message?.split("\n")[0] ?? "" };
  });
}

const unknownOrganization = (organization: string) =>
  `GitHub has no organization "${organization}", or the token cannot see it.`;

export const github = {
  async check(credentials: Credentials): Promise<CheckResult> {
    const organization = organizationOf(credentials);
    const path = `/orgs/${encodeURIComponent(organization)}`;
    try {
      const orgResponse = await githubGet(credentials, path);
      if (!orgResponse.ok) {
        throw await githubRefusal(credentials, orgResponse, {
          notFound: unknownOrganization(organization),
          notFoundField: "ORGANIZATION",
        });
      }
      const org = (await jsonOf(orgResponse)) as { login?: string; name?: string | null } | undefined;
      // One repository per page: the "last" page's number is how many repositories the token sees.
      const reposResponse = await githubGet(credentials, `${path}/repos?per_page=1`);
      if (!reposResponse.ok) {
        throw await githubRefusal(credentials, reposResponse, {
          notFound: unknownOrganization(organization),
          notFoundField: "ORGANIZATION",
        });
      }
      const last = linkTarget(reposResponse, "last", new URL(reposResponse.url))?.searchParams.get("page");
      const firstPage = ((await jsonOf(reposResponse)) as unknown[] | undefined) ?? [];
      const count = last ? Number(last) : firstPage.length;
      const login = org?.login ?? organization;
      return {
        ok: true,
        message: `GitHub accepted the token for the organization ${login}.`,
        details: [
          `Organization: ${org?.name ? `${org.name} (${login})` : login}`,
          count === 0
            ? "Repositories the token can see: none yet (give the token access to the repositories to build from)"
            : `Repositories the token can see: ${count}`,
        ],
      };
    } catch (error) {
      return failedCheck(error, "BASE_URL", credentials);
    }
  },

  repositories: (credentials: Credentials) =>
    asProviderRequest([credentials], async () => {
      const organization = organizationOf(credentials);
      const repositories = await allPages<{
        name: string;
        description: string | null;
        updated_at: string | null;
      }>(credentials, `/orgs/${encodeURIComponent(organization)}/repos?per_page=${PER_PAGE}&sort=full_name`, {
        message: unknownOrganization(organization),
        field: "ORGANIZATION",
      });
      return repositories.map(
        (repository): Repository => ({
          name: repository.name,
          description: repository.description ?? null,
          updatedAt: repository.updated_at ?? null,
        }),
      );
    }),

  branches: (credentials: Credentials, _context: ProviderContext, repository: string) =>
    asProviderRequest([credentials], async () => {
      const { owner, name } = ownerAndName(credentials, repository);
      const branches = await allPages<{ name: string; commit?: { sha?: string } }>(
        credentials,
        `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/branches?per_page=${PER_PAGE}`,
        { message: `GitHub has no repository "${owner}/${name}", or the token cannot see it.` },
      );
      return branches.map((branch): Branch => ({ name: branch.name, commitSha: branch.commit?.sha ?? null }));
    }),
} satisfies Provider;
