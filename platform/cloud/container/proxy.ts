import { createServer } from "node:net";
import { CloudStepError } from "../driver";

/**
 * A stable address for each application on a container host (docs/decisions/063): Caddy in front, driven through
 * its admin API. Each application has a Caddy server of its own, listening on a port allocated once for the
 * service (kept in its state), whose one route proxies to the container that passed its health check. A rolling
 * update replaces that server in one admin request (Caddy loads the new config atomically and keeps the listener),
 * so the address never changes and never points at a container that has not passed its check.
 *
 * The admin URL is the operator's (CONTAINER_PROXY_ADMIN_URL), never a tenant's: it is called directly, not
 * through the egress policy; the upstreams are the ports the engine published for the driver (on this machine's
 * loopback, or on a Docker host the platform reaches under the policy).
 */
export type ContainerProxyConfig = {
  /** Caddy's admin API, e.g. `http://127.0.0.1:2019`. */
  adminUrl: string;
  /** The address Caddy listens on for the applications, and the host their URLs name (CONTAINER_PROXY_HOST). */
  host: string;
};

export type ContainerProxy = {
  /** A port free on the proxy's host now, for a service that has none yet. */
  allocatePort(): Promise<number>;
  /**
   * Points the service's address (`port`) at `upstream` (`127.0.0.1:PORT` on this machine, `host:PORT` on a Docker
   * host), creating its server if it has none.
   */
  route(serviceId: string, port: number, upstream: string): Promise<void>;
  /** Where the service's route leads (`127.0.0.1:PORT`), or null when the proxy has no route for it. */
  upstreamOf(serviceId: string): Promise<string | null>;
  /** Removes the service's server; one already gone is fine. */
  unroute(serviceId: string): Promise<void>;
  /** The URL of the service's address: `http://host:port`. */
  addressOf(port: number): string;
};

/** A single admin call gives up after this long (a config load takes milliseconds). */
const ADMIN_TIMEOUT_MS = 10_000;

/** The name of the service's server in Caddy's config, and its route's @id (for `GET /id/...`). */
export const proxyServerName = (serviceId: string) => `cloud-console-${serviceId}`;

export function containerProxy({ adminUrl, host }: ContainerProxyConfig): ContainerProxy {
  const base = adminUrl.replace(/\/+$/, "");
  // An IPv6 address is bracketed before its port, in Caddy's listen address as in a URL.
  const hostPort = (port: number) => `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const addressOf = (port: number) => `http://${hostPort(port)}`;

  async function call(method: string, path: string, body?: unknown, attempt = 1): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
      });
    } catch (error) {
      const { cause } = error as { cause?: { code?: string; message?: string } };
      // A kept-alive connection Caddy closed as it was reused (its admin server closes idle ones): asked again
      // once on a new one. Every call here sets, reads or deletes a key, so a second one changes nothing more.
      if (attempt === 1 && (cause?.code === "UND_ERR_SOCKET" || cause?.code === "ECONNRESET")) {
        return call(method, path, body, 2);
      }
      const said = cause?.code ?? cause?.message ?? String(error);
      throw new CloudStepError(`The reverse proxy's admin API at ${base} did not answer (${said}).`, {
        transient: true,
      });
    }
  }

  function refused(action: string, response: Response, text: string): CloudStepError {
    let said = text.trim();
    try {
      said = (JSON.parse(text) as { error?: string }).error ?? said;
    } catch {
      // Not Caddy's JSON error: its text as it is.
    }
    return new CloudStepError(
      `${action} failed: the reverse proxy's admin API at ${base} answered ${response.status}: ${said}`,
      { transient: response.status >= 500 },
    );
  }

  /** Creates `apps`, `apps/http` and `apps/http/servers` where missing (a fresh Caddy has no config at all). */
  async function ensureServers() {
    for (const [parent, key] of [
      ["", "apps"],
      ["/apps", "http"],
      ["/apps/http", "servers"],
    ] as const) {
      const response = await call("PUT", `/config${parent}/${key}`, {});
      const text = await response.text();
      // PUT creates only: "key already exists" (Caddy answers 500) means it was there.
      if (!response.ok && !text.includes("already exists")) {
        throw refused("Preparing the reverse proxy's config", response, text);
      }
    }
  }

  return {
    allocatePort: () =>
      new Promise((resolve, reject) => {
        const server = createServer();
        server.once("error", reject);
        server.listen(0, host, () => {
          const address = server.address();
          server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
        });
      }),

    async route(serviceId, port, upstream) {
      const name = proxyServerName(serviceId);
      const server = {
        listen: [hostPort(port)],
        // A plain HTTP port: no certificates to obtain, no redirect to HTTPS.
        automatic_https: { disable: true },
        routes: [
          {
            "@id": name,
            handle: [{ handler: "reverse_proxy", upstreams: [{ dial: upstream }] }],
          },
        ],
      };
      // POST sets or replaces the whole server: one atomic config load, whether it existed or not.
      let response = await call("POST", `/config/apps/http/servers/${name}`, server);
      let text = await response.text();
      if (!response.ok && text.includes("invalid traversal")) {
        await ensureServers();
        response = await call("POST", `/config/apps/http/servers/${name}`, server);
        text = await response.text();
      }
      if (!response.ok) throw refused(`Routing ${addressOf(port)}`, response, text);
    },

    async upstreamOf(serviceId) {
      const response = await call("GET", `/id/${proxyServerName(serviceId)}`);
      const text = await response.text();
      if (response.status === 404) return null;
      if (!response.ok) throw refused("Reading the application's route", response, text);
      const route = JSON.parse(text) as { handle?: { upstreams?: { dial?: string }[] }[] };
      return route.handle?.[0]?.upstreams?.[0]?.dial ?? null;
    },

    async unroute(serviceId) {
      // Caddy answers 200 for a key that is not there; a config without apps/http answers "invalid traversal".
      const response = await call("DELETE", `/config/apps/http/servers/${proxyServerName(serviceId)}`);
      const text = await response.text();
      if (!response.ok && !text.includes("invalid traversal")) {
        throw refused("Removing the application's route", response, text);
      }
    },

    addressOf,
  };
}
