// The app server's gate (app-gate.mjs) with the app's own checks, in front of a Remix build whose actions report how
// much of their body they read, served over HTTP the way scripts/app-server.mjs serves it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SERVERLESS_UPLOAD_BODY_MAX_BYTES } from "#contract/service-catalogue";
import { bodyLimitOf, bodyTooLarge, FORM_BODY_MAX_BYTES } from "../../app/body-limit.server";
import { crossOriginRefusal, isCrossOriginWrite } from "../../app/cross-origin.server";
import * as envModule from "../../app/env.server";
import { completeSecurityHeaders } from "../../app/security-headers.server";
import { createAppGate } from "./app-gate.mjs";

const CHUNK_BYTES = 256 * 1024;
/** Over a real socket the client sends ahead of what the server reads, into both sides' buffers. */
const SOCKET_BUFFERS_BYTES = 16 * 1024 * 1024;
const appUrl = "http://localhost:3000";

/** An action that reads its whole body and answers how many bytes it got. */
const countingAction = async ({ request }: { request: Request }) =>
  new Response(String((await request.arrayBuffer()).byteLength));

let directory: string;
let server: Server;
let origin: string;
beforeAll(async () => {
  vi.spyOn(envModule, "getEnv").mockReturnValue(
    envModule.parseAppEnv({ APP_URL: appUrl, SESSION_SECRET: "s".repeat(32), AUTH0_CLIENT_SECRET: "c" }),
  );
  directory = mkdtempSync(path.join(tmpdir(), "app-gate-"));
  mkdirSync(path.join(directory, "public/build"), { recursive: true });
  writeFileSync(path.join(directory, "public/build/entry-ABC123.js"), "export {};");
  writeFileSync(path.join(directory, "public/robots.txt"), "User-agent: *");
  const build = {
    future: { v3_singleFetch: true },
    publicPath: "/build/",
    assetsBuildDirectory: path.join(directory, "public/build"),
    mode: "production",
    assets: {
      version: "stub",
      url: "/build/manifest-stub.js",
      entry: { module: "/build/entry.js", imports: [] },
      routes: {},
    },
    routes: {
      root: { id: "root", path: "", module: {} },
      "routes/form": {
        id: "routes/form",
        parentId: "root",
        path: "form",
        module: { action: countingAction },
      },
      "routes/upload": {
        id: "routes/upload",
        parentId: "root",
        path: "env/:environmentName/services/serverless-upload",
        module: { action: countingAction },
      },
    },
    entry: {
      module: {
        default: () => new Response("document"),
        appServerHooks: {
          isCrossOriginWrite,
          crossOriginRefusal,
          bodyLimitOf,
          bodyTooLarge,
          completeSecurityHeaders,
        },
      },
    },
  };
  const app = createAppGate(build, { publicDirectory: path.join(directory, "public") });
  server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise((resolve) => server.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

/** A chunked body made on demand, counting how much of it the server pulled. */
function lazyBody(totalBytes: number) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= totalBytes) return controller.close();
      pulled.bytes += CHUNK_BYTES;
      controller.enqueue(new Uint8Array(CHUNK_BYTES).fill(0x61));
    },
  });
  return { stream, pulled };
}

function post(pathname: string, body: BodyInit) {
  return fetch(`${origin}${pathname}`, {
    method: "POST",
    body,
    headers: { Origin: appUrl, "Content-Type": "application/x-www-form-urlencoded" },
    duplex: "half",
  } as RequestInit);
}

/**
 * Announces a body of `declaredBytes` but sends only its first chunk, then waits for the answer: a server that
 * waited for the rest would never answer.
 */
function postAnnounced(pathname: string, declaredBytes: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(`${origin}${pathname}`, {
      method: "POST",
      headers: {
        Origin: appUrl,
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": String(declaredBytes),
      },
    });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    request.on("error", reject);
    request.write(new Uint8Array(CHUNK_BYTES));
  });
}

describe("request bodies", () => {
  it("refuses a form body announced over 1 MB with 413 at once, without waiting for it", async () => {
    const answer = await postAnnounced("/form", 150 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toBe("The request is too large: at most 1 MB may be sent.");
  });

  it("stops reading a chunked form body once it passes 1 MB", async () => {
    const { stream, pulled } = lazyBody(150 * 1024 * 1024);
    const response = await post("/form", stream);
    expect(response.status).toBe(413);
    // What the sockets' buffers took besides the megabyte read.
    expect(pulled.bytes).toBeLessThan(FORM_BODY_MAX_BYTES + SOCKET_BUFFERS_BYTES);
  });

  it("passes a body within the limit to the action whole, chunked or not", async () => {
    const { stream } = lazyBody(FORM_BODY_MAX_BYTES - CHUNK_BYTES);
    expect(await (await post("/form", stream)).text()).toBe(String(FORM_BODY_MAX_BYTES - CHUNK_BYTES));
    expect(await (await post("/form", "name=ops")).text()).toBe("8");
  });

  it("lets the archive upload take up to the archive's own limit, and no more", async () => {
    const { stream } = lazyBody(4 * 1024 * 1024);
    const within = await post("/env/production/services/serverless-upload", stream);
    expect(await within.text()).toBe(String(4 * 1024 * 1024));
    const over = lazyBody(SERVERLESS_UPLOAD_BODY_MAX_BYTES + 4 * CHUNK_BYTES);
    const response = await post("/env/production/services/serverless-upload", over.stream);
    expect(response.status).toBe(413);
    expect(over.pulled.bytes).toBeLessThan(SERVERLESS_UPLOAD_BODY_MAX_BYTES + SOCKET_BUFFERS_BYTES);
  });

  it("answers a submission from Remix's client with the error response its error boundary shows", async () => {
    const response = await post("/form.data", new Uint8Array(FORM_BODY_MAX_BYTES + 1));
    expect(response.status).toBe(413);
    expect(response.headers.get("X-Remix-Response")).toBe("yes");
    const decoded = await decode(response.body as ReadableStream<Uint8Array>, {
      plugins: [
        (type: string, ...rest: unknown[]) =>
          type === "ErrorResponse" ? { value: { status: rest[1], data: rest[0] } } : undefined,
      ],
    });
    expect(decoded.value).toEqual({
      error: { status: 413, data: "The request is too large: at most 1 MB may be sent." },
    });
  });
});

describe("static files", () => {
  it("caches fingerprinted build output for good and other public files for an hour", async () => {
    const asset = await fetch(`${origin}/build/entry-ABC123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const robots = await fetch(`${origin}/robots.txt`);
    expect(robots.headers.get("Cache-Control")).toBe("public, max-age=3600");
  });
});
