import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { expect, vi } from "vitest";

/** A provider's stand-in for a test: a real HTTP server on a free loopback port. */
export async function listen(
  handler: (request: IncomingMessage, body: string, response: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      Promise.resolve(handler(request, Buffer.concat(chunks).toString("utf8"), response)).catch(
        (error: unknown) => {
          response.writeHead(500, { "Content-Type": "text/plain" }).end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

/**
 * Runs `call` and asserts that none of `secrets` appears in what it returns or throws, nor in anything it wrote
 * to the console; then returns (or rethrows) its outcome.
 */
export async function expectingNoLeak<T>(secrets: () => string[], call: () => Promise<T>): Promise<T> {
  const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation(() => undefined),
  );
  try {
    const outcome = await call().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const shown = "error" in outcome ? String(outcome.error) : JSON.stringify(outcome.value);
    const written = spies
      .flatMap((spy) => spy.mock.calls.flat())
      .map((argument) => (typeof argument === "string" ? argument : inspect(argument, { depth: 6 })))
      .join("\n");
    for (const secret of secrets()) {
      expect(secret.length).toBeGreaterThan(8);
      expect(shown).not.toContain(secret);
      expect(written).not.toContain(secret);
    }
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
