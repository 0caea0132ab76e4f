import { Agent } from "node:https";
import Docker from "dockerode";
import { checkedContainerSocket } from "../../lib/container-sockets";
import { checkedAddress, policyLookup } from "../../lib/egress";
import { CloudStepError } from "../driver";

/**
 * The container engine a `containers` environment deploys to (issue 26): anything that speaks the Docker Engine
 * API, Docker on a user's server or Podman's `podman system service` here. DOCKER_HOST names it as Docker's CLI
 * does: `unix:///run/podman/podman.sock` (this machine), `tcp://host:2375` (a Docker host), or a host over TLS
 * (`https://host:2376`, or `tcp://host:2376` with certificates, as `dockerd --tlsverify` serves it). A tcp or https
 * host is an address the tenant typed: it goes through the egress policy like any other (docs/decisions/042), and
 * the client connects to the address the policy checked (its certificate still verified against the name typed).
 * A unix socket is opened only when the operator lists it in CONTAINER_SOCKETS (platform/lib/container-sockets.ts):
 * a socket taken off the list stops deployments too.
 */

/** The Engine API version asked for: Docker 20.10 and Podman 4 both speak it. */
const API_VERSION = "v1.41";
/** A single engine call gives up after this long without a word (builds and pulls connect without it). */
const CALL_TIMEOUT_MS = 60_000;

export type Engine = Docker;

/** Docker's DOCKER_CERT_PATH files as PEM text: the CA of the host's certificate (else the public CAs), ours. */
export type EngineTls = { ca?: string; cert: string; key: string };

/**
 * A client of the engine at `dockerHost`; refuses a socket the operator has not listed (a failed step, in the
 * list's words) and a tcp host the egress policy refuses.
 */
export async function connectEngine(
  dockerHost: string,
  {
    timeoutMs = CALL_TIMEOUT_MS,
    tls,
  }: {
    /** How long a call may stay silent (CALL_TIMEOUT_MS); null: never given up (a build, a pull). */
    timeoutMs?: number | null;
    /** The certificates of a host that wants a client certificate (the connection's "URL with TLS" method). */
    tls?: EngineTls | undefined;
  } = {},
): Promise<Engine> {
  const url = parseDockerHost(dockerHost);
  const timeout = timeoutMs ?? undefined;
  if (url.protocol === "unix:") {
    let socketPath: string;
    try {
      socketPath = checkedContainerSocket(url.pathname);
    } catch (error) {
      throw new CloudStepError(error instanceof Error ? error.message : String(error), { transient: false });
    }
    return new Docker({ socketPath, version: API_VERSION, timeout });
  }
  const host = await checkedAddress(url.hostname);
  const overTls = url.protocol === "https:" || tls !== undefined;
  if (!overTls)
    return new Docker({ host, port: url.port || "2375", protocol: "http", version: API_VERSION, timeout });
  // Over TLS the client connects by the name typed, resolved under the policy: the host's certificate names it and
  // a proxy in front of dockerd may route on it (Host must match the TLS name when it asks client certificates).
  const agent = new Agent({
    ...(tls?.ca ? { ca: tls.ca } : {}),
    ...(tls ? { cert: tls.cert, key: tls.key } : {}),
    lookup: policyLookup,
  });
  // docker-modem takes the agent (dockerode hands it every option); its types leave it out.
  const options: Docker.DockerOptions & { agent: Agent } = {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port || "2376",
    protocol: "https",
    version: API_VERSION,
    timeout,
    agent,
  };
  return new Docker(options);
}

/**
 * Where the platform reaches the ports an engine publishes: this machine's loopback for a socket, the host's name
 * (or address) for a Docker host on a network.
 */
export function hostAddressOf(dockerHost: string): string {
  const url = parseDockerHost(dockerHost);
  return url.protocol === "unix:" ? "127.0.0.1" : url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** DOCKER_HOST read: a unix socket's path or a tcp host and port, else an error saying what is accepted. */
export function parseDockerHost(dockerHost: string): URL {
  const invalid = () =>
    new Error(
      `DOCKER_HOST ${JSON.stringify(dockerHost)} is neither unix:///path/to/docker.sock nor tcp://host:port nor https://host:port`,
    );
  let url: URL;
  try {
    url = new URL(dockerHost);
  } catch {
    throw invalid();
  }
  if (url.protocol === "unix:" && url.pathname.startsWith("/")) return url;
  if ((url.protocol === "tcp:" || url.protocol === "https:") && url.hostname) return url;
  throw invalid();
}

/** An error of the engine's client: the HTTP status and the engine's own message (docker-modem's shape). */
type ModemError = Error & { statusCode?: number; json?: { message?: unknown } | null; code?: unknown };

const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ENOENT", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH"]);

/**
 * What the user reads when the engine refused `action` (`Creating the container failed: the container engine
 * answered 404: no such image`): its status and message kept; an engine that did not answer, or failed on its
 * side (5xx), is worth trying again.
 */
export function engineStepError(action: string, error: unknown): CloudStepError {
  if (error instanceof CloudStepError) return error;
  const { statusCode, json, code, message } = (error ?? {}) as ModemError;
  if (typeof statusCode === "number") {
    const said = typeof json?.message === "string" ? json.message : message;
    return new CloudStepError(`${action} failed: the container engine answered ${statusCode}: ${said}`, {
      transient: statusCode >= 500,
    });
  }
  if (typeof code === "string" && UNREACHABLE.has(code)) {
    return new CloudStepError(`${action} failed: the container engine did not answer (${code}: ${message})`, {
      transient: true,
    });
  }
  return new CloudStepError(`${action} failed: ${error instanceof Error ? error.message : String(error)}`, {
    transient: false,
  });
}
