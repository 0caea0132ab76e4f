import { endpoint, jsonOf, providerFetch } from "../http";
import type { Credentials, Provider, Repository, Tag } from "../providers";
import { failedCheck, linkTarget, asProviderRequest, ProviderRefusal } from "../refusals";

/**
 * Docker registries and the GitHub Container Registry (issue 13), through the Docker Registry HTTP API v2 as
 * `docker login` speaks it: GET /v2/ answers 401 with a challenge; a Bearer challenge names a token service (realm)
 * that trades USERNAME:TOKEN (Basic) for a bearer token per scope; a Basic challenge takes the credentials directly.
 * Docker Hub's registry keeps its catalog closed, so its repositories come from hub.docker.com's API instead.
 */

/** Pages of 100 and at most 10 of them: a listing for a picker, not an export. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;
/** Tags whose digest is read (one HEAD each, a few at a time); later tags come without it. */
const DIGESTED_TAGS = 50;
const DIGEST_CONCURRENCY = 5;

/** What a HEAD of a manifest accepts, so the registry answers the digest of what `docker pull` would get. */
const manifestMediaTypes = [
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
  "application/vnd.docker.distribution.manifest.v2+json",
  "application/vnd.oci.image.manifest.v1+json",
].join(", ");

/** The distribution spec's repository name grammar (path components of lowercase letters, digits, separators). */
const repositoryName = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;

type Challenge = { scheme: string; params: Record<string, string> };

/** `Bearer realm="…",service="…",scope="a:b:pull,push"` into its scheme and parameters. */
export function parseChallenge(header: string | null): Challenge | undefined {
  const match = /^\s*(\w+)\s*(.*)$/s.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const params: Record<string, string> = {};
  for (const [, name = "", quoted, bare] of (match[2] ?? "").matchAll(
    /(\w+)\s*=\s*(?:"([^"]*)"|([^,\s]*))/g,
  )) {
    params[name.toLowerCase()] = quoted ?? bare ?? "";
  }
  return { scheme: match[1].toLowerCase(), params };
}

/** Docker Hub's two addresses: its registry (BASE_URL) and the API that lists an account's repositories. */
export type DockerHub = { registryUrl: string; apiUrl: string };
export const dockerHub: DockerHub = {
  registryUrl: "https://registry-1.docker.io",
  apiUrl: "https://hub.docker.com",
};

function refusedCredentials(host: string) {
  return new ProviderRefusal(
    `The registry refused the username or token (${host}): check both, and that the token may read the registry.`,
    "TOKEN",
  );
}

type Session = {
  host: string;
  /** The connection's USERNAME and TOKEN, for a container engine's pull. */
  username: string;
  token: string;
  /** Whether the registry asked for the credentials at all. */
  authenticated: () => boolean;
  request: (
    target: string | URL,
    options?: { method?: "GET" | "HEAD"; scope?: string; accept?: string },
  ) => Promise<Response>;
};

/** One conversation with a registry: bearer tokens are fetched once per scope, as the registry's challenges ask. */
function registrySession(credentials: Credentials, defaultBaseUrl: string): Session {
  const baseUrl = credentials.fields.BASE_URL ?? defaultBaseUrl;
  const host = new URL(baseUrl).host;
  const basic = `Basic ${Buffer.from(`${credentials.fields.USERNAME ?? ""}:${credentials.secrets.TOKEN ?? ""}`).toString("base64")}`;
  const authorizations = new Map<string, string>();
  let challenged = false;

  const refused = () => refusedCredentials(host);

  async function bearerToken(challenge: Challenge, scope: string | undefined): Promise<string> {
    const realm = challenge.params.realm;
    let url: URL;
    try {
      url = new URL(realm ?? "");
    } catch {
      throw new ProviderRefusal(
        `${host} asked for a token without naming a valid token service.`,
        "BASE_URL",
      );
    }
    if (challenge.params.service) url.searchParams.set("service", challenge.params.service);
    if (scope) url.searchParams.set("scope", scope);
    const response = await providerFetch(url, {
      headers: { Accept: "application/json", Authorization: basic },
    });
    const body = (await jsonOf(response)) as { token?: string; access_token?: string } | undefined;
    if (response.status === 401 || response.status === 403) throw refused();
    const token = body?.token ?? body?.access_token;
    if (!response.ok || !token) {
      throw new ProviderRefusal(
        `The registry's token service (${url.host}) answered ${response.status} without a token.`,
        "BASE_URL",
      );
    }
    return token;
  }

  return {
    host,
    username: credentials.fields.USERNAME ?? "",
    token: credentials.secrets.TOKEN ?? "",
    authenticated: () => challenged,
    async request(target, { method = "GET", scope, accept = "application/json" } = {}) {
      const url = typeof target === "string" ? endpoint(baseUrl, target) : target;
      const send = (authorization: string | undefined) =>
        providerFetch(url, {
          method,
          headers: { Accept: accept, ...(authorization ? { Authorization: authorization } : {}) },
        });
      const cached = authorizations.get(scope ?? "") ?? authorizations.get("basic");
      const first = await send(cached);
      if (first.status !== 401) return first;
      const challenge = parseChallenge(first.headers.get("www-authenticate"));
      if (!challenge) return first;
      await first.body?.cancel();
      challenged = true;
      if (challenge.scheme === "basic") {
        if (cached === basic) throw refused();
        authorizations.set("basic", basic);
        return send(basic);
      }
      if (challenge.scheme !== "bearer") {
        throw new ProviderRefusal(
          `${host} asks for ${challenge.scheme} authentication, which registries do not use.`,
        );
      }
      const authorization = `Bearer ${await bearerToken(challenge, scope ?? challenge.params.scope)}`;
      authorizations.set(scope ?? "", authorization);
      return send(authorization);
    },
  };
}

/** The body's error codes and messages, as the registry API puts them ({errors: [{code, message}]}). */
async function registryErrors(
  response: Response,
  { codes = false }: { codes?: boolean } = {},
): Promise<string> {
  const body = (await jsonOf(response)) as
    | { errors?: Array<{ code?: string; message?: string }> }
    | undefined;
  if (codes) {
    // As the Docker CLI prints them: "MANIFEST_UNKNOWN: manifest unknown".
    return (body?.errors ?? [])
      .map((error) => [error.code, error.message].filter(Boolean).join(": "))
      .join(", ");
  }
  const errors = (body?.errors ?? []).map((error) => error.message ?? error.code).filter(Boolean);
  return errors.length ? `: ${errors.join(", ")}` : "";
}

function isDockerHub(session: Session, hub: DockerHub) {
  return session.host === new URL(hub.registryUrl).host;
}

async function catalog(session: Session): Promise<Repository[]> {
  const names: string[] = [];
  let target: string | URL = `/v2/_catalog?n=${PAGE_SIZE}`;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await session.request(target, { scope: "registry:catalog:*" });
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      throw new ProviderRefusal(
        `${session.host} does not list its repositories to this account (its catalog answered ${response.status}): name the repository to see its tags.`,
      );
    }
    if (!response.ok) {
      throw new ProviderRefusal(
        `${session.host} answered ${response.status} to the repository listing${await registryErrors(response)}`,
      );
    }
    const next = linkTarget(response, "next", new URL(response.url));
    const body = (await jsonOf(response)) as { repositories?: string[] } | undefined;
    names.push(...(body?.repositories ?? []));
    if (!next) break;
    target = next;
  }
  return names.map((name) => ({ name, description: null, updatedAt: null }));
}

/** Docker Hub: the account's repositories from hub.docker.com (its registry's catalog is closed to everyone). */
async function dockerHubRepositories(credentials: Credentials, hub: DockerHub): Promise<Repository[]> {
  const username = credentials.fields.USERNAME ?? "";
  const tokenResponse = await providerFetch(endpoint(hub.apiUrl, "/v2/auth/token"), {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify({ identifier: username, secret: credentials.secrets.TOKEN ?? "" }),
  });
  const token = (await jsonOf(tokenResponse)) as { access_token?: string } | undefined;
  if (tokenResponse.status === 401 || tokenResponse.status === 403) {
    throw new ProviderRefusal("Docker Hub refused the username or token: check both.", "TOKEN");
  }
  if (!tokenResponse.ok || !token?.access_token) {
    throw new ProviderRefusal(`Docker Hub answered ${tokenResponse.status} when signing in.`);
  }
  const repositories: Repository[] = [];
  let next: URL | undefined = endpoint(
    hub.apiUrl,
    `/v2/repositories/${encodeURIComponent(username)}/?page_size=${PAGE_SIZE}`,
  );
  for (let page = 0; page < MAX_PAGES && next; page++) {
    const response = await providerFetch(next, {
      headers: { Accept: "application/json", Authorization: `Bearer ${token.access_token}` },
    });
    if (response.status === 404) {
      throw new ProviderRefusal(`Docker Hub has no account or organization named "${username}".`, "USERNAME");
    }
    if (!response.ok)
      throw new ProviderRefusal(`Docker Hub answered ${response.status} to the repository listing.`);
    const body = (await jsonOf(response)) as
      | {
          next?: string | null;
          results?: Array<{
            name: string;
            namespace: string;
            description?: string;
            last_updated?: string | null;
          }>;
        }
      | undefined;
    for (const repository of body?.results ?? []) {
      repositories.push({
        name: `${repository.namespace}/${repository.name}`,
        description: repository.description || null,
        updatedAt: repository.last_updated ?? null,
      });
    }
    const requested: URL = next;
    next = body?.next ? new URL(body.next, requested) : undefined;
    if (next && next.origin !== requested.origin) next = undefined;
  }
  return repositories;
}

/** The digests of the first tags, a few HEAD requests at a time; a tag whose HEAD fails has none. */
async function digests(session: Session, name: string, tags: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const queue = tags.slice(0, DIGESTED_TAGS);
  const worker = async () => {
    for (let tag = queue.shift(); tag !== undefined; tag = queue.shift()) {
      const response = await session
        .request(`/v2/${name}/manifests/${encodeURIComponent(tag)}`, {
          method: "HEAD",
          scope: `repository:${name}:pull`,
          accept: manifestMediaTypes,
        })
        .catch(() => undefined);
      const digest = response?.ok ? response.headers.get("docker-content-digest") : null;
      if (digest) found.set(tag, digest);
    }
  };
  await Promise.all(Array.from({ length: DIGEST_CONCURRENCY }, worker));
  return found;
}

async function tagsOf(session: Session, repository: string, hub: DockerHub): Promise<Tag[]> {
  // Docker Hub's official images live under library/ ("nginx" is "library/nginx"), as `docker pull` assumes.
  const name = isDockerHub(session, hub) && !repository.includes("/") ? `library/${repository}` : repository;
  if (!repositoryName.test(name)) {
    throw new ProviderRefusal(
      `"${repository}" is not a repository name (lowercase letters, digits, . _ - and /).`,
    );
  }
  const scope = `repository:${name}:pull`;
  const tags: string[] = [];
  let target: string | URL = `/v2/${name}/tags/list?n=${PAGE_SIZE}`;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await session.request(target, { scope });
    if (response.status === 404) {
      throw new ProviderRefusal(
        `${session.host} has no repository "${name}"${await registryErrors(response)}.`,
      );
    }
    if (response.status === 401 || response.status === 403) {
      throw new ProviderRefusal(`${session.host} does not let this account pull "${name}".`, "TOKEN");
    }
    if (!response.ok) {
      throw new ProviderRefusal(
        `${session.host} answered ${response.status} to the tag listing${await registryErrors(response)}`,
      );
    }
    const next = linkTarget(response, "next", new URL(response.url));
    const body = (await jsonOf(response)) as { tags?: string[] | null } | undefined;
    tags.push(...(body?.tags ?? []));
    if (!next) break;
    target = next;
  }
  const digestOf = await digests(session, name, tags);
  return tags.map((tag) => ({ name: tag, digest: digestOf.get(tag) ?? null, pushedAt: null }));
}

/**
 * GET /v2/<name>/manifests/<tag> as `docker pull` does: the digest, or the registry's refusal in its own words
 * (`MANIFEST_UNKNOWN: manifest unknown`, `UNAUTHORIZED: authentication required`).
 */
async function manifestOf(session: Session, repository: string, tag: string, hub: DockerHub) {
  const name = isDockerHub(session, hub) && !repository.includes("/") ? `library/${repository}` : repository;
  const image = `${session.host}/${name}:${tag}`;
  let response: Response;
  try {
    response = await session.request(`/v2/${name}/manifests/${encodeURIComponent(tag)}`, {
      scope: `repository:${name}:pull`,
      accept: manifestMediaTypes,
    });
  } catch (error) {
    // The token service refused the credentials: what `docker pull` prints for it.
    if (error instanceof ProviderRefusal && error.field === "TOKEN") {
      throw new ProviderRefusal(
        `Failed to pull image "${image}": unauthorized: incorrect username or password`,
        "TOKEN",
      );
    }
    throw error;
  }
  if (!response.ok) {
    const said = await registryErrors(response, { codes: true });
    throw new ProviderRefusal(
      `Failed to pull image "${image}": ${said || `the registry answered ${response.status}`}`,
      response.status === 401 || response.status === 403 ? "TOKEN" : undefined,
    );
  }
  const digest = response.headers.get("docker-content-digest");
  await response.body?.cancel();
  if (!digest)
    throw new ProviderRefusal(`${session.host} answered the manifest of ${image} without its digest.`);
  // The engine pulls with the connection's own username and token, as `docker login` would give them.
  if (!session.username || !session.token) return { digest, image };
  return {
    digest,
    image,
    auth: { username: session.username, password: session.token, serveraddress: session.host },
  };
}

/** A registry provider; `hub` says where Docker Hub is (tests point it at their own servers). */
export function containerRegistry({
  label,
  defaultBaseUrl,
  hub = dockerHub,
}: {
  label: string;
  defaultBaseUrl: string;
  hub?: DockerHub;
}): Required<Pick<Provider, "check" | "repositories" | "tags" | "manifest">> {
  return {
    async check(credentials) {
      const session = registrySession(credentials, defaultBaseUrl);
      try {
        const response = await session.request("/v2/");
        if (response.status === 404) {
          throw new ProviderRefusal(
            `${session.host} does not answer as a Docker registry (GET /v2/ answered 404): check the registry URL.`,
            "BASE_URL",
          );
        }
        if (response.status === 401 && !session.authenticated()) {
          throw new ProviderRefusal(
            `${session.host} answered 401 without saying how to sign in (no WWW-Authenticate challenge), as no Docker registry does: check the registry URL.`,
            "BASE_URL",
          );
        }
        if (response.status === 401 || response.status === 403) throw refusedCredentials(session.host);
        if (!response.ok) {
          throw new ProviderRefusal(
            `${session.host} answered ${response.status} to GET /v2/${await registryErrors(response)}`,
            "BASE_URL",
          );
        }
        await response.body?.cancel();
        const details = [`Registry: ${session.host}`, `User: ${credentials.fields.USERNAME ?? ""}`];
        return session.authenticated()
          ? { ok: true, message: `${label} at ${session.host} accepted the username and token.`, details }
          : {
              ok: true,
              message: `${label} at ${session.host} answers without signing in: the username and token were not needed.`,
              details,
            };
      } catch (error) {
        return failedCheck(error, "BASE_URL", credentials);
      }
    },

    repositories: (credentials) =>
      asProviderRequest([credentials], async () => {
        const session = registrySession(credentials, defaultBaseUrl);
        return isDockerHub(session, hub) ? dockerHubRepositories(credentials, hub) : catalog(session);
      }),

    tags: (credentials, _context, repository) =>
      asProviderRequest([credentials], () =>
        tagsOf(registrySession(credentials, defaultBaseUrl), repository, hub),
      ),

    manifest: (credentials, _context, repository, tag) =>
      asProviderRequest([credentials], () =>
        manifestOf(registrySession(credentials, defaultBaseUrl), repository, tag, hub),
      ),
  };
}

export const dockerRegistry = containerRegistry({
  label: "The registry",
  defaultBaseUrl: dockerHub.registryUrl,
});

export const githubContainerRegistry = containerRegistry({
  label: "GitHub Container Registry",
  defaultBaseUrl: "https://ghcr.io",
});
