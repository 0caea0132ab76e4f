/* global AbortController, Request, Response, TransformStream */
// The app server's request handling (scripts/app-server.mjs): static files and the Remix handler behind one gate
// that refuses cross-origin writes, refuses a body over its limit before anything reads it, and completes the security headers of every answer, static files and redirects
// included. The checks themselves live in the app, reached through the build's entry (`appServerHooks`).
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler } from "@remix-run/node";
import { Hono } from "hono";
import { compress } from "hono/compress";

const IMMUTABLE = "public, max-age=31536000, immutable";
const ONE_HOUR = "public, max-age=3600";

/**
 * The Hono app that answers every request of a Remix server build. `publicDirectory` holds the files served as they
 * are (favicon, robots.txt); the build's own assets come from its assetsBuildDirectory.
 */
export function createAppGate(build, { mode = "production", publicDirectory = "public" } = {}) {
  const { isCrossOriginWrite, crossOriginRefusal, bodyLimitOf, bodyTooLarge, completeSecurityHeaders } =
    build.entry.module.appServerHooks;
  const handleRemixRequest = createRequestHandler(build, mode);
  const app = new Hono();
  app.use(compress());
  app.use(async (c, next) => {
    if (isCrossOriginWrite(c.req.raw)) {
      c.res = crossOriginRefusal();
    } else {
      await limitBody(c, next, { bodyLimitOf, bodyTooLarge });
    }
    // Answers built from another response (a fetch, a static file) can have immutable headers.
    c.res = new Response(c.res.body, c.res);
    completeSecurityHeaders(c.res.headers);
  });
  // Fingerprinted build output is immutable; other public files may change with a deploy.
  app.use(
    `${build.publicPath}*`,
    cached(
      IMMUTABLE,
      serveStatic({
        root: path.resolve(build.assetsBuildDirectory),
        rewriteRequestPath: (requestPath) => requestPath.slice(build.publicPath.length - 1),
      }),
    ),
  );
  app.use("*", cached(ONE_HOUR, serveStatic({ root: path.resolve(publicDirectory) })));
  app.all("*", (c) => handleRemixRequest(c.req.raw));
  return app;
}

/**
 * A static file handler whose found files carry `cacheControl`. (serveStatic's onFound runs after the answer is
 * built, so a header it sets never reaches the answer.)
 */
function cached(cacheControl, serve) {
  return async (c, next) => {
    let notFound = false;
    const answer = await serve(c, () => {
      notFound = true;
      return next();
    });
    if (!notFound) answer.headers.set("Cache-Control", cacheControl);
    return answer;
  };
}

/**
 * Refuses a request body over its limit (the app's bodyLimitOf) before any action has it whole: at once when its Content-Length says so
 * (node's parser never delivers more than announced), else by counting a chunked body as the action reads it and
 * cutting it off at the limit, so nothing holds more than the limit in memory. The cut-off request is aborted, which
 * Remix takes as the client gone rather than an error to report, and the answer is the 413 whatever the action did.
 * (hono's bodyLimit buffers a chunked body and rebuilds the request from @hono/node-server's lightweight one, which
 * the global Request cannot read.)
 */
async function limitBody(c, next, { bodyLimitOf, bodyTooLarge }) {
  const request = c.req.raw;
  if (!request.body) return next();
  const limit = bodyLimitOf(request);
  const declared = request.headers.get("Content-Length");
  if (declared !== null && !request.headers.has("Transfer-Encoding")) {
    if (Number(declared) > limit) c.res = refusal(bodyTooLarge(request, limit));
    else await next();
    return;
  }
  const cutOff = new AbortController();
  request.signal.addEventListener("abort", () => cutOff.abort(request.signal.reason));
  let bytes = 0;
  const counted = request.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes <= limit) return controller.enqueue(chunk);
        const error = new Error(`The request body is over ${limit} bytes`);
        cutOff.abort(error);
        controller.error(error);
      },
    }),
  );
  c.req.raw = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: counted,
    duplex: "half",
    signal: cutOff.signal,
  });
  await next();
  if (bytes > limit) c.res = refusal(bodyTooLarge(request, limit));
}

/** A 413 that closes the connection: the rest of the body is not worth receiving. */
function refusal(response) {
  response.headers.set("Connection", "close");
  return response;
}
