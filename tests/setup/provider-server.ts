import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a provider's test server received. */
export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

export type ProviderServer = {
  /** http://127.0.0.1:{port}, reachable by the platform the e2e config starts on the same machine. */
  url: string;
  received: ReceivedRequest[];
  close: () => Promise<void>;
};

/** JSON `body`, or plain `text` (a Slack webhook answers "ok"). */
type Answer = { status: number; body?: unknown; text?: string };

/**
 * A real HTTP server standing in for a provider (Datadog, a Slack webhook): it answers each request with what
 * `answer` returns, and keeps every request so a test can wait for what the platform sent.
 */
export async function startProviderServer(
  answer: (request: ReceivedRequest) => Answer,
): Promise<ProviderServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const one: ReceivedRequest = {
        method: request.method ?? "GET",
        path: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(one);
      const { status, body, text } = answer(one);
      if (text !== undefined) {
        response.writeHead(status, { "Content-Type": "text/plain" });
        response.end(text);
        return;
      }
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(body === undefined ? "" : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A Datadog site: /api/v1/validate accepts only `apiKey`; every other call is answered 202 (an intake). */
export function datadogAnswers(apiKey: string) {
  return (request: ReceivedRequest): Answer => {
    if (request.path.startsWith("/api/v1/validate")) {
      return request.headers["dd-api-key"] === apiKey
        ? { status: 200, body: { valid: true } }
        : { status: 403, body: { errors: ["Forbidden"] } };
    }
    return request.headers["dd-api-key"] === apiKey
      ? { status: 202, body: { errors: [] } }
      : { status: 403, body: { errors: ["Forbidden"] } };
  };
}
