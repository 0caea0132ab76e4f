import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import type { Credentials, ProviderContext } from "../connections/providers";
import { tarOf } from "./tar";

/**
 * Real HTTP servers for the connection tests (issue 13): each starts on port 0 in the test process and answers like
 * the provider it stands for (status codes, bodies, authentication challenges as the provider documents them), so
 * the providers' own fetch code runs unchanged against it through the connection's base URL. Only tests import it.
 */

export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
};

export type TestRequest = RecordedRequest & {
  /** The `:name` (one segment) and `:name+` (one or more segments) parts of the route, decoded. */
  params: Record<string, string>;
  /** This server's address, for absolute links (GitHub's Link headers, a registry's token realm). */
  origin: string;
};

/** `body`: a string or bytes are sent as they are, anything else as JSON. */
export type TestReply = { status?: number; headers?: Record<string, string>; body?: unknown };

export type RouteHandler = (request: TestRequest) => TestReply | Promise<TestReply>;

export type TestServer = {
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  close: () => Promise<void>;
};

type Route = { method: string; pattern: RegExp; names: string[]; handler: RouteHandler };

/** "GET /repos/:owner/:repo" and "GET /v2/:name+/tags/list" into a matcher. */
function compileRoute(key: string, handler: RouteHandler): Route {
  const [method = "", path = ""] = key.split(" ");
  const names: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      const param = /^:(\w+)(\+?)$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1] ?? "");
      return param[2] ? "(.+?)" : "([^/]+)";
    })
    .join("/");
  return { method, pattern: new RegExp(`^${source}$`), names, handler };
}

/**
 * Starts a server answering `routes` ("METHOD /path" → handler); HEAD falls back to the GET route without its body,
 * and anything else answers 404. Close it in afterAll.
 */
export async function startTestServer(routes: Record<string, RouteHandler>): Promise<TestServer> {
  const compiled = Object.entries(routes).map(([key, handler]) => compileRoute(key, handler));
  const requests: RecordedRequest[] = [];
  let origin = "";

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", origin);
      const recorded: RecordedRequest = {
        method: incoming.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const find = (method: string) =>
        compiled
          .filter((route) => route.method === method)
          .map((route) => ({ route, match: route.pattern.exec(url.pathname) }))
          .find((candidate) => candidate.match);
      const found = find(recorded.method) ?? (recorded.method === "HEAD" ? find("GET") : undefined);
      const reply = async (): Promise<TestReply> => {
        if (!found?.match) return { status: 404, body: "404 page not found\n" };
        const params = Object.fromEntries(
          found.route.names.map((name, index) => [name, decodeURIComponent(found.match?.[index + 1] ?? "")]),
        );
        return found.route.handler({ ...recorded, params, origin });
      };
      reply().then(
        ({ status = 200, headers = {}, body }) => {
          const bytes = body instanceof Uint8Array;
          const text =
            body === undefined ? "" : typeof body === "string" || bytes ? body : JSON.stringify(body);
          const contentType = bytes
            ? "application/octet-stream"
            : typeof body === "string"
              ? "text/plain; charset=utf-8"
              : "application/json; charset=utf-8";
          outgoing.writeHead(status, { "Content-Type": contentType, ...headers });
          outgoing.end(text);
        },
        (error: unknown) => {
          outgoing.writeHead(500, { "Content-Type": "text/plain" });
          outgoing.end(error instanceof Error ? error.message : "test server handler failed");
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An address where nothing listens (a port that was free a moment ago): the "connection refused" case. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A provider's context in tests: the organization's other connections (unsealed) by id. */
export function providerContext(connections: Record<string, Credentials> = {}): ProviderContext {
  return {
    awsExternalId: "test-external-id",
    organizationName: "Acme",
    appUrl: "http://localhost:3000",
    connection: async (id) => connections[id],
  };
}

/** The user and password of a Basic Authorization header, or undefined. */
export function basicCredentials(
  headers: IncomingHttpHeaders,
): { username: string; password: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? "")?.[1];
}

/** `items` from `after` (exclusive), `size` of them: the registry's `n`/`last` paging. */
function pageAfter<T extends string>(items: T[], after: string | null, size: number) {
  const start = after === null ? 0 : items.findIndex((item) => item > after);
  const from = start < 0 ? items.length : start;
  const page = items.slice(from, from + size);
  return { page, more: from + size < items.length };
}

// ---------------------------------------------------------------------------------------------------------------
// A Docker Registry HTTP API v2 (distribution, ghcr.io, registry-1.docker.io)

export type FakeRegistryOptions = {
  username: string;
  token: string;
  /** Repository name → its tags. */
  repositories: Record<string, string[]>;
  /** "bearer": the token handshake of distribution, Docker Hub and ghcr.io; "basic": Basic on every request. */
  auth?: "bearer" | "basic";
  /** false: the catalog is closed (Docker Hub answers 401 to /v2/_catalog whatever the token). */
  catalog?: boolean;
  /** The most entries a page holds whatever `n` asks (registries cap it), to see the paging. */
  pageSize?: number;
};

export type FakeRegistry = TestServer & {
  /** The digest the registry gives a tag's manifest. */
  digestOf: (repository: string, tag: string) => string;
};

const registryUnauthorized = {
  errors: [{ code: "UNAUTHORIZED", message: "authentication required", detail: null }],
};

export async function startFakeRegistry(options: FakeRegistryOptions): Promise<FakeRegistry> {
  const { username, token, repositories, auth = "bearer", catalog = true, pageSize = 1000 } = options;
  /** Issued bearer tokens and the scopes each grants. */
  const issued = new Map<string, string[]>();
  const digestOf = (repository: string, tag: string) =>
    `sha256:${createHash("sha256").update(`${repository}:${tag}`).digest("hex")}`;

  /** undefined when the request may go on, else the 401 with the challenge a real registry sends. */
  const refuse = (request: TestRequest, scope?: string): TestReply | undefined => {
    if (auth === "basic") {
      const given = basicCredentials(request.headers);
      if (given?.username === username && given.password === token) return undefined;
      return {
        status: 401,
        headers: { "WWW-Authenticate": 'Basic realm="fake-registry"' },
        body: registryUnauthorized,
      };
    }
    const granted = issued.get(bearerToken(request.headers) ?? "");
    if (granted && (!scope || granted.includes(scope))) return undefined;
    const challenge = `Bearer realm="${request.origin}/token",service="fake-registry"${scope ? `,scope="${scope}"` : ""}`;
    return { status: 401, headers: { "WWW-Authenticate": challenge }, body: registryUnauthorized };
  };

  const names = Object.keys(repositories).sort();
  const server = await startTestServer({
    "GET /v2/": (request) => refuse(request) ?? { body: {} },
    "GET /token": (request) => {
      const given = basicCredentials(request.headers);
      if (given?.username !== username || given.password !== token) {
        return { status: 401, body: { details: "incorrect username or password" } };
      }
      const bearer = randomBytes(16).toString("hex");
      issued.set(bearer, request.query.getAll("scope"));
      return {
        body: { token: bearer, access_token: bearer, expires_in: 300, issued_at: new Date().toISOString() },
      };
    },
    "GET /v2/_catalog": (request) => {
      const refused = refuse(request, "registry:catalog:*");
      if (refused) return refused;
      if (!catalog) return { status: 401, body: registryUnauthorized };
      const size = Math.min(Number(request.query.get("n")) || pageSize, pageSize);
      const { page, more } = pageAfter(names, request.query.get("last"), size);
      const next = more ? { Link: `</v2/_catalog?last=${page.at(-1)}&n=${size}>; rel="next"` } : undefined;
      return { headers: next, body: { repositories: page } };
    },
    "GET /v2/:name+/tags/list": (request) => {
      const name = request.params.name ?? "";
      const refused = refuse(request, `repository:${name}:pull`);
      if (refused) return refused;
      const tags = repositories[name];
      if (!tags) {
        return {
          status: 404,
          body: {
            errors: [
              { code: "NAME_UNKNOWN", message: "repository name not known to registry", detail: { name } },
            ],
          },
        };
      }
      const sorted = [...tags].sort();
      const size = Math.min(Number(request.query.get("n")) || pageSize, pageSize);
      const { page, more } = pageAfter(sorted, request.query.get("last"), size);
      const next = more
        ? { Link: `</v2/${name}/tags/list?last=${page.at(-1)}&n=${size}>; rel="next"` }
        : undefined;
      return { headers: next, body: { name, tags: page } };
    },
    "GET /v2/:name+/manifests/:reference": (request) => {
      const name = request.params.name ?? "";
      const refused = refuse(request, `repository:${name}:pull`);
      if (refused) return refused;
      const tag = request.params.reference ?? "";
      if (!repositories[name]?.includes(tag)) {
        return {
          status: 404,
          body: {
            errors: [{ code: "MANIFEST_UNKNOWN", message: "manifest unknown", detail: { Tag: tag } }],
          },
        };
      }
      const digest = digestOf(name, tag);
      return {
        headers: {
          "Content-Type": "application/vnd.docker.distribution.manifest.v2+json",
          "Docker-Content-Digest": digest,
        },
        body: {
          schemaVersion: 2,
          mediaType: "application/vnd.docker.distribution.manifest.v2+json",
          config: { mediaType: "application/vnd.docker.container.image.v1+json", size: 1469, digest },
          layers: [],
        },
      };
    },
    "HEAD /v2/:name+/manifests/:reference": (request) => {
      const name = request.params.name ?? "";
      const refused = refuse(request, `repository:${name}:pull`);
      if (refused) return { ...refused, body: undefined };
      const tag = request.params.reference ?? "";
      if (!repositories[name]?.includes(tag)) return { status: 404 };
      const accepted = request.headers.accept ?? "";
      const mediaType = accepted.includes("application/vnd.oci.image.index.v1+json")
        ? "application/vnd.oci.image.index.v1+json"
        : "application/vnd.docker.distribution.manifest.v2+json";
      return { headers: { "Content-Type": mediaType, "Docker-Content-Digest": digestOf(name, tag) } };
    },
  });
  return { ...server, digestOf };
}

// ---------------------------------------------------------------------------------------------------------------
// hub.docker.com's API (the repositories of a Docker Hub account)

export type FakeDockerHubOptions = {
  username: string;
  token: string;
  repositories: Array<{ name: string; description?: string; lastUpdated?: string }>;
  /** The most repositories a page holds whatever `page_size` asks (Docker Hub caps it at 100). */
  pageSize?: number;
};

export async function startFakeDockerHub(options: FakeDockerHubOptions): Promise<TestServer> {
  const accessTokens = new Set<string>();
  return startTestServer({
    "POST /v2/auth/token": (request) => {
      const body = JSON.parse(request.body || "{}") as { identifier?: string; secret?: string };
      if (body.identifier !== options.username || body.secret !== options.token) {
        return {
          status: 401,
          body: {
            errinfo: {},
            detail: "Incorrect authentication credentials",
            message: "Incorrect authentication credentials",
          },
        };
      }
      const accessToken = randomBytes(16).toString("hex");
      accessTokens.add(accessToken);
      return { body: { access_token: accessToken } };
    },
    "GET /v2/repositories/:namespace/": (request) => {
      if (!accessTokens.has(bearerToken(request.headers) ?? "")) {
        return { status: 401, body: { detail: "Authentication credentials were not provided." } };
      }
      if (request.params.namespace !== options.username) {
        return { status: 404, body: { message: "object not found", errinfo: {} } };
      }
      const cap = options.pageSize ?? 100;
      const size = Math.min(Number(request.query.get("page_size")) || 10, cap);
      const page = Number(request.query.get("page") ?? 1);
      const results = options.repositories.slice((page - 1) * size, page * size);
      const more = page * size < options.repositories.length;
      const link = (to: number) =>
        `${request.origin}/v2/repositories/${options.username}/?page=${to}&page_size=${size}`;
      return {
        body: {
          count: options.repositories.length,
          next: more ? link(page + 1) : null,
          previous: page > 1 ? link(page - 1) : null,
          results: results.map((repository) => ({
            name: repository.name,
            namespace: options.username,
            repository_type: "image",
            description: repository.description ?? "",
            is_private: false,
            last_updated: repository.lastUpdated ?? null,
          })),
        },
      };
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// GitHub's REST API

export type FakeGitHubRepository = {
  name: string;
  description?: string;
  updatedAt?: string;
  branches?: string[];
  /** The repository's files by path (the same on every branch), for the contents and tarball APIs. */
  files?: Record<string, string>;
  /** The files at other commits, by sha (a pushed commit), for the same APIs with that ref. */
  commits?: Record<string, Record<string, string>>;
};

export type FakeDependabotAlert = { number: number; repository: string; severity: string; summary: string };

export type FakeGitHubOptions = {
  token: string;
  organizations: Record<
    string,
    {
      name?: string;
      repositories: FakeGitHubRepository[];
      /** The open alerts, newest first; "forbidden": the token lacks the Dependabot alerts permission. */
      dependabotAlerts?: FakeDependabotAlert[] | "forbidden";
    }
  >;
  /** The epoch second the token's rate limit resets; while set, every call answers 403 as GitHub does. */
  rateLimitResetsAt?: number;
  /** Where the tarball API redirects (GitHub's codeload host); this server's own codeload route by default. */
  codeloadOrigin?: string;
};

/** What the test GitHub holds of pull requests: their comments and deployments with their statuses. */
export type FakeGitHubPullRequests = {
  comments: { id: number; repository: string; number: number; body: string; edits: number }[];
  deployments: {
    id: number;
    repository: string;
    ref: string;
    environment: string;
    statuses: { state: string; environment_url?: string; description?: string }[];
  }[];
};
export type FakeGitHub = TestServer & FakeGitHubPullRequests;

const deploymentStates = ["error", "failure", "inactive", "in_progress", "queued", "pending", "success"];

export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const held: FakeGitHubPullRequests = { comments: [], deployments: [] };
  let nextId = 1000;
  const documentation = "https://docs.github.com/rest";
  const notFound: TestReply = {
    status: 404,
    body: { message: "Not Found", documentation_url: documentation, status: "404" },
  };
  const guard = (request: TestRequest): TestReply | undefined => {
    if (request.headers["x-github-api-version"] !== "2022-11-28") {
      return { status: 400, body: { message: "Unsupported API version", documentation_url: documentation } };
    }
    if (bearerToken(request.headers) !== options.token) {
      return {
        status: 401,
        body: { message: "Bad credentials", documentation_url: documentation, status: "401" },
      };
    }
    if (options.rateLimitResetsAt !== undefined) {
      return {
        status: 403,
        headers: {
          "x-ratelimit-limit": "5000",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-used": "5000",
          "x-ratelimit-reset": String(options.rateLimitResetsAt),
        },
        body: {
          message: "API rate limit exceeded for user ID 1.",
          documentation_url: `${documentation}/overview/rate-limits-for-the-rest-api`,
        },
      };
    }
    return undefined;
  };
  /** GitHub's page/per_page paging with its Link header (first, prev, next, last: absolute URLs). */
  const paged = <T>(request: TestRequest, items: T[]): TestReply => {
    const perPage = Math.min(Number(request.query.get("per_page") ?? 30) || 30, 100);
    const page = Math.max(Number(request.query.get("page") ?? 1) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (to: number) => {
      const query = new URLSearchParams(request.query);
      query.set("page", String(to));
      return `<${request.origin}${request.path}?${query}>`;
    };
    const relations = [
      ...(page > 1 ? [`${link(1)}; rel="first"`, `${link(page - 1)}; rel="prev"`] : []),
      ...(page < last ? [`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`] : []),
    ];
    return {
      headers: relations.length ? { Link: relations.join(", ") } : {},
      body: items.slice((page - 1) * perPage, page * perPage),
    };
  };
  const codeloadToken = randomBytes(8).toString("hex");
  const branchesOf = (repository: FakeGitHubRepository) => repository.branches ?? ["main"];
  /** A branch's head sha: the same for the same repository and branch. */
  const headOf = (repository: FakeGitHubRepository, branch: string) =>
    createHash("sha1").update(`${repository.name}/${branch}`).digest("hex");
  /** The files at `ref`: a commit's of `commits`, else the repository's (the same at every other ref). */
  const filesAt = (repository: FakeGitHubRepository, ref: string | null) =>
    (ref ? repository.commits?.[ref] : undefined) ?? repository.files ?? {};
  const shaOf = (repository: FakeGitHubRepository, ref: string) =>
    branchesOf(repository).includes(ref) ? headOf(repository, ref) : ref;
  const repositoryOf = (request: TestRequest) =>
    options.organizations[request.params.owner ?? ""]?.repositories.find(
      (candidate) => candidate.name === request.params.repo,
    );
  /** GitHub's 422 for a body that misses what it requires. */
  const unprocessable = (message: string): TestReply => ({
    status: 422,
    body: { message: "Validation Failed", errors: [{ message }], documentation_url: documentation },
  });
  const jsonBody = (request: TestRequest): Record<string, unknown> => {
    try {
      return JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const fullName = (request: TestRequest) => `${request.params.owner}/${request.params.repo}`;
  const server = await startTestServer({
    "POST /repos/:owner/:repo/issues/:number/comments": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      if (!repositoryOf(request)) return notFound;
      const { body } = jsonBody(request);
      if (typeof body !== "string" || !body) return unprocessable("body is missing");
      const comment = {
        id: nextId++,
        repository: fullName(request),
        number: Number(request.params.number),
        body,
        edits: 0,
      };
      held.comments.push(comment);
      return { status: 201, body: { id: comment.id, body } };
    },
    "PATCH /repos/:owner/:repo/issues/comments/:id": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const comment = held.comments.find(
        (candidate) =>
          candidate.id === Number(request.params.id) && candidate.repository === fullName(request),
      );
      if (!comment) return notFound;
      const { body } = jsonBody(request);
      if (typeof body !== "string" || !body) return unprocessable("body is missing");
      comment.body = body;
      comment.edits += 1;
      return { body: { id: comment.id, body } };
    },
    "POST /repos/:owner/:repo/deployments": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      if (!repositoryOf(request)) return notFound;
      const { ref, environment } = jsonBody(request);
      if (typeof ref !== "string" || !ref) return unprocessable("ref is missing");
      const deployment = {
        id: nextId++,
        repository: fullName(request),
        ref,
        environment: typeof environment === "string" ? environment : "production",
        statuses: [],
      };
      held.deployments.push(deployment);
      return { status: 201, body: { id: deployment.id, ref, environment: deployment.environment } };
    },
    "POST /repos/:owner/:repo/deployments/:id/statuses": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const deployment = held.deployments.find(
        (candidate) =>
          candidate.id === Number(request.params.id) && candidate.repository === fullName(request),
      );
      if (!deployment) return notFound;
      const { state, environment_url, description } = jsonBody(request);
      if (typeof state !== "string" || !deploymentStates.includes(state))
        return unprocessable("state is not valid");
      if (
        environment_url !== undefined &&
        (typeof environment_url !== "string" || !/^https?:\/\//.test(environment_url))
      ) {
        return unprocessable("environment_url must be a URL");
      }
      deployment.statuses.push({
        state,
        ...(typeof environment_url === "string" ? { environment_url } : {}),
        ...(typeof description === "string" ? { description } : {}),
      });
      return { status: 201, body: { id: nextId++, state } };
    },
    "GET /orgs/:org": (request) => {
      const org = request.params.org ?? "";
      const organization = options.organizations[org];
      return (
        guard(request) ??
        (organization
          ? { body: { login: org, id: 1, name: organization.name ?? null, type: "Organization" } }
          : notFound)
      );
    },
    "GET /orgs/:org/repos": (request) => {
      const org = request.params.org ?? "";
      const organization = options.organizations[org];
      const refused = guard(request);
      if (refused) return refused;
      if (!organization) return notFound;
      return paged(
        request,
        organization.repositories.map((repository, index) => ({
          id: index + 1,
          name: repository.name,
          full_name: `${org}/${repository.name}`,
          owner: { login: org },
          description: repository.description ?? null,
          updated_at: repository.updatedAt ?? "2024-01-01T00:00:00Z",
        })),
      );
    },
    "GET /repos/:owner/:repo/branches": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const repository = options.organizations[request.params.owner ?? ""]?.repositories.find(
        (candidate) => candidate.name === request.params.repo,
      );
      if (!repository) return notFound;
      return paged(
        request,
        branchesOf(repository).map((name) => ({
          name,
          commit: { sha: headOf(repository, name) },
          protected: name === "main",
        })),
      );
    },
    "GET /repos/:owner/:repo/branches/:branch": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const repository = repositoryOf(request);
      const branch = request.params.branch ?? "";
      if (!repository || !branchesOf(repository).includes(branch)) {
        return {
          status: 404,
          body: { message: "Branch not found", documentation_url: documentation, status: "404" },
        };
      }
      const sha = headOf(repository, branch);
      return {
        body: {
          name: branch,
          commit: {
            sha,
            commit: { message: `Update ${repository.name} on ${branch}`, author: { name: "Ada" } },
          },
          protected: branch === "main",
        },
      };
    },
    // A branch's head, a commit of `commits` by its SHA or a prefix of at least 7; GitHub's 422 for others.
    "GET /repos/:owner/:repo/commits/:ref": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const repository = repositoryOf(request);
      if (!repository) return notFound;
      const ref = request.params.ref ?? "";
      if (branchesOf(repository).includes(ref)) {
        const message = `Update ${repository.name} on ${ref}`;
        return { body: { sha: headOf(repository, ref), commit: { message } } };
      }
      const sha = Object.keys(repository.commits ?? {}).find(
        (candidate) => candidate === ref || (ref.length >= 7 && candidate.startsWith(ref)),
      );
      if (!sha) {
        return {
          status: 422,
          body: {
            message: `No commit found for SHA: ${ref}`,
            documentation_url: documentation,
            status: "422",
          },
        };
      }
      return {
        body: { sha, commit: { message: `Change ${sha.slice(0, 7)} of ${repository.name}\n\nIts body.` } },
      };
    },
    "GET /repos/:owner/:repo/contents/:path+": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const repository = repositoryOf(request);
      const path = request.params.path ?? "";
      const content = repository && filesAt(repository, request.query.get("ref"))?.[path];
      if (!repository || content === undefined) return notFound;
      return {
        body: {
          type: "file",
          encoding: "base64",
          size: Buffer.byteLength(content),
          name: path.split("/").at(-1),
          path,
          sha: createHash("sha1").update(content).digest("hex"),
          content: Buffer.from(content).toString("base64"),
        },
      };
    },
    // The tarball API answers 302 to codeload with a short-lived token in the URL, as GitHub does.
    "GET /repos/:owner/:repo/tarball/:ref": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const { owner = "", repo = "", ref = "" } = request.params;
      const repository = repositoryOf(request);
      if (!repository) return notFound;
      const location = `${options.codeloadOrigin ?? request.origin}/codeload/${owner}/${repo}/legacy.tar.gz/${encodeURIComponent(ref)}`;
      return { status: 302, headers: { Location: `${location}?token=${codeloadToken}` } };
    },
    "GET /codeload/:owner/:repo/legacy.tar.gz/:ref": (request) => {
      if (request.query.get("token") !== codeloadToken) return { status: 404, body: "404: Not Found" };
      const { owner = "", repo = "", ref = "" } = request.params;
      const repository = repositoryOf(request);
      if (!repository) return { status: 404, body: "404: Not Found" };
      const files = filesAt(repository, ref);
      // Every entry under one top directory named after the repository and the commit, as GitHub's are.
      const top = `${owner}-${repo}-${shaOf(repository, ref).slice(0, 7)}/`;
      return {
        headers: { "Content-Type": "application/x-gzip" },
        body: gzipSync(
          tarOf(Object.entries(files).map(([path, content]) => ({ path: `${top}${path}`, content }))),
        ),
      };
    },
    "GET /orgs/:org/dependabot/alerts": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const organization = options.organizations[request.params.org ?? ""];
      if (!organization) return notFound;
      if (organization.dependabotAlerts === "forbidden") {
        return {
          status: 403,
          body: {
            message: "Resource not accessible by personal access token",
            documentation_url: `${documentation}/dependabot/alerts#list-dependabot-alerts-for-an-organization`,
            status: "403",
          },
        };
      }
      return paged(
        request,
        (organization.dependabotAlerts ?? []).map((alert) => ({
          number: alert.number,
          state: "open",
          repository: { name: alert.repository, full_name: `${request.params.org}/${alert.repository}` },
          security_advisory: { severity: alert.severity, summary: alert.summary },
        })),
      );
    },
  });
  return Object.assign(server, held);
}

// ---------------------------------------------------------------------------------------------------------------
// Jira Cloud's REST API v3

export type FakeJiraOptions = {
  email: string;
  token: string;
  displayName: string;
  projects: Array<{ key: string; name: string; issueTypes: string[] }>;
};

export type FakeJira = TestServer & {
  /** The issues created, as Jira stored their fields. */
  issues: Array<{ key: string; fields: Record<string, unknown> }>;
};

export async function startFakeJira(options: FakeJiraOptions): Promise<FakeJira> {
  const issues: FakeJira["issues"] = [];
  const issueTypeId = (projectIndex: number, typeIndex: number) =>
    String(10_000 + projectIndex * 100 + typeIndex);
  const projectOf = (key: string | undefined) => options.projects.find((project) => project.key === key);
  const noProject = (key: string | undefined): TestReply => ({
    status: 404,
    body: { errorMessages: [`No project could be found with key '${key}'.`], errors: {} },
  });
  /** Jira Cloud answers a wrong e-mail or API token with a plain-text 401. */
  const guard = (request: TestRequest): TestReply | undefined => {
    const given = basicCredentials(request.headers);
    if (given?.username === options.email && given.password === options.token) return undefined;
    return { status: 401, body: "Client must be authenticated to access this resource." };
  };
  const server = await startTestServer({
    "GET /rest/api/3/myself": (request) =>
      guard(request) ?? {
        body: {
          accountId: "5b10ac8d82e05b22cc7d4ef5",
          emailAddress: options.email,
          displayName: options.displayName,
          active: true,
        },
      },
    "GET /rest/api/3/project/:key": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const project = projectOf(request.params.key);
      return project
        ? { body: { id: "10000", key: project.key, name: project.name, projectTypeKey: "software" } }
        : noProject(request.params.key);
    },
    "GET /rest/api/3/issue/createmeta/:key/issuetypes": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const projectIndex = options.projects.findIndex((project) => project.key === request.params.key);
      const project = options.projects[projectIndex];
      if (!project) return noProject(request.params.key);
      return {
        body: {
          maxResults: 50,
          startAt: 0,
          total: project.issueTypes.length,
          issueTypes: project.issueTypes.map((name, index) => ({
            id: issueTypeId(projectIndex, index),
            name,
            subtask: false,
          })),
        },
      };
    },
    "POST /rest/api/3/issue": (request) => {
      const refused = guard(request);
      if (refused) return refused;
      const { fields = {} } = JSON.parse(request.body || "{}") as { fields?: Record<string, unknown> };
      const projectKey = (fields.project as { key?: string } | undefined)?.key;
      const projectIndex = options.projects.findIndex((project) => project.key === projectKey);
      const project = options.projects[projectIndex];
      const errors: Record<string, string> = {};
      if (!project) errors.project = "valid project is required";
      const typeId = (fields.issuetype as { id?: string } | undefined)?.id;
      if (project && !project.issueTypes.some((_, index) => issueTypeId(projectIndex, index) === typeId)) {
        errors.issuetype = "Specify a valid issue type";
      }
      if (typeof fields.summary !== "string" || !fields.summary.trim()) {
        errors.summary = "You must specify a summary of the issue.";
      } else if (fields.summary.length > 255) {
        errors.summary = "Summary must be less than 255 characters.";
      }
      const description = fields.description as { type?: string; version?: number } | undefined;
      if (description && (description.type !== "doc" || description.version !== 1)) {
        errors.description =
          "Operation value must be an Atlassian Document (see the Atlassian Document Format).";
      }
      const spaced = ((fields.labels as string[] | undefined) ?? []).find((label) => /\s/.test(label));
      if (spaced !== undefined) errors.labels = `The label '${spaced}' contains spaces which is invalid.`;
      if (Object.keys(errors).length) return { status: 400, body: { errorMessages: [], errors } };
      const key = `${projectKey}-${issues.length + 1}`;
      issues.push({ key, fields });
      return {
        status: 201,
        body: { id: String(10_000 + issues.length), key, self: `${request.origin}/rest/api/3/issue/${key}` },
      };
    },
  });
  return { ...server, issues };
}

// ---------------------------------------------------------------------------------------------------------------
// Middleware (middleware.io)

export type FakeMiddlewareOptions = { apiKey: string; projectUid: string };

/** The API key check Middleware's agents make (POST /api/v1/auth with the key as a bearer token). */
export async function startFakeMiddleware(options: FakeMiddlewareOptions): Promise<TestServer> {
  return startTestServer({
    "POST /api/v1/auth": (request) =>
      bearerToken(request.headers) === options.apiKey
        ? { body: { success: true, data: { account: options.projectUid, project_uid: options.projectUid } } }
        : { status: 401, body: { success: false, error: "invalid api key" } },
  });
}

/** The secrets found in what a provider returned or threw (a check result, a listing, an error): should be none. */
export function leakedSecrets(value: unknown, secrets: string[]): string[] {
  const text =
    value instanceof Error
      ? `${value.name} ${value.message} ${value.stack ?? ""} ${JSON.stringify(value)}`
      : JSON.stringify(value);
  return secrets.filter((secret) => text.includes(secret));
}
