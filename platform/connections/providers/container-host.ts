import { request } from "node:http";
import * as z from "zod";
import { checkedContainerSocket, ContainerSocketRefusedError } from "../../lib/container-sockets";
import type { OutboundTls } from "../../lib/egress";
import { jsonOf, PROVIDER_TIMEOUT_MS } from "../http";
import type { CheckResult, Credentials, Provider } from "../providers";
import { checkWith, fetchOrRefuse, ProviderRefusal } from "../refusals";

/**
 * A container host (issue 26): a Docker or Podman engine environments run on, named by DOCKER_HOST as Docker's CLI
 * reads it. Saving it asks the engine's version (GET /version of the Docker Engine API), the call `docker version`
 * makes: it needs no credentials and changes nothing. A unix socket is this machine's own engine, opened only when
 * the operator lists it (CONTAINER_SOCKETS, platform/lib/container-sockets.ts); a tcp or https host is an address
 * a tenant typed, so it goes through the egress policy (providerFetch).
 */

/** How the network's words say a peer hung up (./http.ts's reasons). */
const hungUp = "it closed the connection without an answer";

/** What /version answers, Docker and Podman alike (Podman names itself in Components). */
const versionSchema = z.object({
  Version: z.string(),
  ApiVersion: z.string(),
  Os: z.string(),
  Arch: z.string(),
  Components: z.array(z.object({ Name: z.string(), Version: z.string() })).optional(),
});
type EngineVersion = z.infer<typeof versionSchema>;

type Answer = { status: number; body: unknown };

/** A socket's errors, in words the person who typed the path can act on. */
function socketRefusal(socketPath: string, error: NodeJS.ErrnoException): ProviderRefusal {
  const engine = "(the Docker daemon, or podman system service)";
  const closed = `${socketPath} did not answer as a container engine: the connection was closed without an answer.`;
  const words: Record<string, string> = {
    ENOENT: `There is no socket at ${socketPath}: check the path, and that the engine runs on this machine ${engine}.`,
    ECONNREFUSED: `Nothing listens on ${socketPath}: the file is there but no engine serves it; start one ${engine}.`,
    EACCES: `The platform may not open ${socketPath}: run it as a user of the socket's group (docker), or use a socket it may open.`,
    ECONNRESET: closed,
    // Closed before the request was even written.
    EPIPE: closed,
    ETIMEDOUT: `${socketPath} did not answer within ${PROVIDER_TIMEOUT_MS / 1000} seconds.`,
  };
  return new ProviderRefusal(
    words[error.code ?? ""] ?? `Could not open ${socketPath}: ${error.code ?? error.message}.`,
    "DOCKER_HOST",
  );
}

/** The socket's path when the operator listed it; a refusal naming the field otherwise (nothing is opened). */
function listedSocket(socketPath: string): string {
  try {
    return checkedContainerSocket(socketPath);
  } catch (error) {
    if (error instanceof ContainerSocketRefusedError) throw new ProviderRefusal(error.message, "DOCKER_HOST");
    throw error;
  }
}

/** GET `path` over a unix socket: node's http client speaks to it directly (fetch cannot). */
function getOverSocket(socketPath: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = request({ socketPath, path, timeout: PROVIDER_TIMEOUT_MS }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    call.on("timeout", () => call.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    call.on("error", (error: NodeJS.ErrnoException) => reject(socketRefusal(socketPath, error)));
    call.end();
  });
}

/** The engine's version from wherever DOCKER_HOST points; what it says otherwise, in words. */
async function versionOf(dockerHost: string, tls?: OutboundTls): Promise<EngineVersion> {
  const url = new URL(dockerHost);
  let where: string;
  let answer: Answer;
  if (url.protocol === "unix:") {
    where = url.pathname;
    answer = await getOverSocket(listedSocket(where), "/version");
  } else {
    // tcp:// is plain HTTP to the engine (Docker's convention) unless certificates come with it; https:// is TLS,
    // its certificate verified (against the connection's CA when it has one).
    const overTls = url.protocol === "https:" || tls !== undefined;
    const base = new URL(`${overTls ? "https:" : "http:"}//${url.host}`);
    if (!url.port) base.port = overTls ? "2376" : "2375";
    where = base.host;
    const response = await fetchOrRefuse(
      new URL("/version", base),
      {},
      "DOCKER_HOST",
      tls ? { tls } : {},
    ).catch((error: unknown) => {
      // dockerd --tlsverify (or a proxy asking client certificates) hangs up on a certificate it does not know.
      if (tls && error instanceof ProviderRefusal && error.message.endsWith(`${hungUp}.`)) {
        throw new ProviderRefusal(
          `${where} closed the connection without an answer: it refused the client certificate (one its CA did not sign?), or speaks no TLS on this port.`,
          "TLS_CLIENT_CERT",
        );
      }
      throw error;
    });
    answer = { status: response.status, body: await jsonOf(response) };
  }
  const version = versionSchema.safeParse(answer.body);
  if (answer.status !== 200 || !version.success) {
    throw new ProviderRefusal(
      `${where} answered, but not as a container engine (HTTP ${answer.status} to GET /version).`,
      "DOCKER_HOST",
    );
  }
  return version.data;
}

/** "Podman Engine 4.3.1", "Docker Engine 27.3.1": Docker calls its own component plainly "Engine". */
function engineName(version: EngineVersion): string {
  const [component] = version.Components ?? [];
  if (!component || component.Name === "Engine") return `Docker Engine ${version.Version}`;
  return `${component.Name} ${component.Version}`;
}

/** The check of a container host at `dockerHost`: also how the demo seed finds "This machine" (platform/seed/). */
export function checkDockerHost(dockerHost: string, tls?: OutboundTls): Promise<CheckResult> {
  return checkWith(async () => {
    const version = await versionOf(dockerHost, tls);
    const engine = engineName(version);
    const platform = `${version.Os}/${version.Arch}`;
    return {
      message: `The container engine answered: ${engine} (Docker Engine API ${version.ApiVersion}, ${platform}).`,
      details: [`Engine: ${engine}`, `Docker Engine API: ${version.ApiVersion}`, `Platform: ${platform}`],
    };
  });
}

/**
 * The certificates of a host saved with "URL with TLS certificates" (Docker's ca.pem, cert.pem and key.pem);
 * undefined for a socket or a plain tcp host.
 */
export function containerHostTls({
  method,
  fields,
  secrets,
}: Credentials): { ca?: string; cert: string; key: string } | undefined {
  if (method !== "docker-tls") return undefined;
  const ca = fields.TLS_CA_CERT;
  return { ...(ca ? { ca } : {}), cert: fields.TLS_CLIENT_CERT ?? "", key: secrets.TLS_CLIENT_KEY ?? "" };
}

export const containerHost: Provider = {
  check: (credentials: Credentials) =>
    checkDockerHost(credentials.fields.DOCKER_HOST ?? "", containerHostTls(credentials)),
};
