import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Small real HTTP servers that answer like Slack and Microsoft Teams (status codes, bodies and auth as they
 * document them), for tests of the chat providers and the delivery worker. Each records what it received.
 */

export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };
type Answer = { status: number; body: string; contentType?: string };

export type TestServer = {
  url: string;
  requests: ReceivedRequest[];
  /** Answers the next `count` requests with `answer` instead (an outage, a slow hand-over). */
  failNext: (count: number, answer?: Answer) => void;
  close: () => Promise<void>;
};

export async function startTestServer(answer: (request: ReceivedRequest) => Answer): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  let failures: { count: number; answer: Answer } = { count: 0, answer: { status: 503, body: "" } };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      let reply: Answer;
      if (failures.count > 0) {
        failures.count -= 1;
        reply = failures.answer;
      } else {
        reply = answer(request);
      }
      outgoing.writeHead(reply.status, { "Content-Type": reply.contentType ?? "text/plain; charset=utf-8" });
      outgoing.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(count, failure = { status: 503, body: "Service Unavailable" }) {
      failures = { count, answer: failure };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (status: number, body: unknown): Answer => ({
  status,
  body: JSON.stringify(body),
  contentType: "application/json; charset=utf-8",
});
const parse = (body: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A Slack workspace: incoming webhooks at /services/T0/B0/{hook} and chat.postMessage at /api/chat.postMessage.
 * `hooks` are the live webhooks; `revoked` answer invalid_token, `archived` channel_is_archived, others no_service.
 * `tokens` maps a bot token to the channels its app is a member of; `channels` are the workspace's channels.
 */
export async function startSlackServer({
  hooks = ["live-hook"],
  revoked = [],
  archived = [],
  tokens = { "xoxb-live-token": ["#deployments"] },
  channels = ["#deployments", "#general"],
}: {
  hooks?: string[];
  revoked?: string[];
  archived?: string[];
  tokens?: Record<string, string[]>;
  channels?: string[];
} = {}) {
  const delivered: Record<string, unknown>[] = [];
  const server = await startTestServer((request) => {
    const hook = /^\/services\/T0\/B0\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method === "POST" && hook !== undefined) {
      if (revoked.includes(hook)) return { status: 403, body: "invalid_token" };
      if (archived.includes(hook)) return { status: 410, body: "channel_is_archived" };
      if (!hooks.includes(hook)) return { status: 404, body: "no_service" };
      const body = parse(request.body);
      if (typeof body?.text !== "string" || !body.text) return { status: 400, body: "no_text" };
      delivered.push(body);
      return { status: 200, body: "ok" };
    }
    if (request.method === "POST" && request.path === "/api/chat.postMessage") {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (!token) return json(200, { ok: false, error: "not_authed" });
      const memberOf = tokens[token];
      if (!memberOf) return json(200, { ok: false, error: "invalid_auth" });
      const body = parse(request.body);
      const channel = typeof body?.channel === "string" ? body.channel : "";
      if (!channels.includes(channel)) return json(200, { ok: false, error: "channel_not_found" });
      if (!memberOf.includes(channel)) return json(200, { ok: false, error: "not_in_channel" });
      if (typeof body?.text !== "string") return json(200, { ok: false, error: "no_text" });
      delivered.push(body);
      return json(200, { ok: true, channel: "C0123456789", ts: "1700000000.000100" });
    }
    return { status: 404, body: "Not Found" };
  });
  return {
    ...server,
    webhookUrl: (hook: string) => `${server.url}/services/T0/B0/${hook}`,
    apiUrl: `${server.url}/api`,
    /** The bodies of the messages it accepted, in order. */
    delivered,
  };
}
export type SlackServer = Awaited<ReturnType<typeof startSlackServer>>;

/**
 * A Microsoft Teams tenant: connector webhooks at /webhookb2/{hook} and Graph's channel messages at
 * /v1.0/teams/{team}/channels/{channel}/messages. `tokens` maps a Graph token to whether it may send messages.
 */
export async function startTeamsServer({
  hooks = ["live-hook"],
  tokens = { "graph-live-token": true },
  channels = ["team-1/channel-1"],
}: {
  hooks?: string[];
  tokens?: Record<string, boolean>;
  channels?: string[];
} = {}) {
  const delivered: Record<string, unknown>[] = [];
  const server = await startTestServer((request) => {
    const hook = /^\/webhookb2\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method === "POST" && hook !== undefined) {
      if (!hooks.includes(hook)) return { status: 404, body: "Webhook not found" };
      const body = parse(request.body);
      if (body?.["@type"] !== "MessageCard" || (!body.summary && !body.text))
        return { status: 400, body: "Summary or Text is required." };
      delivered.push(body);
      return { status: 200, body: "1" };
    }
    const target = /^\/v1\.0\/teams\/([^/]+)\/channels\/([^/]+)\/messages$/.exec(request.path);
    if (request.method === "POST" && target) {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
      if (!(token in tokens)) {
        return json(401, {
          error: { code: "InvalidAuthenticationToken", message: "Access token validation failure." },
        });
      }
      if (!tokens[token]) {
        return json(403, {
          error: { code: "Forbidden", message: "Missing role permissions on the request." },
        });
      }
      const [, team, channel] = target.map((part) => decodeURIComponent(part));
      if (!channels.includes(`${team}/${channel}`)) {
        return json(404, { error: { code: "NotFound", message: "Resource not found." } });
      }
      const body = parse(request.body) as { body?: { content?: unknown } } | undefined;
      if (!body || typeof body.body?.content !== "string")
        return json(400, { error: { code: "BadRequest", message: "Missing body content." } });
      delivered.push(body);
      return json(201, { id: "1700000000000", body: body.body });
    }
    return { status: 404, body: "Not Found" };
  });
  return {
    ...server,
    webhookUrl: (hook: string) => `${server.url}/webhookb2/${hook}`,
    /** The bodies of the messages it accepted, in order. */
    delivered,
  };
}
export type TeamsServer = Awaited<ReturnType<typeof startTeamsServer>>;
