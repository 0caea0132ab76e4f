/* global Response */
// The app's HTTP server (what remix-serve did, plus the checks every request needs): `node scripts/app-server.mjs
// build/server/index.js`. Static files and the Remix handler sit behind one gate that refuses cross-origin writes
// and completes the security headers of every answer, static files and redirects included. The checks themselves
// live in the app (app/cross-origin.server.ts, app/security-headers.server.ts), reached through the build's entry.
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler, installGlobals } from "@remix-run/node";
import { Hono } from "hono";
import { compress } from "hono/compress";

const mode = process.env.NODE_ENV ?? "production";
const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = await import(pathToFileURL(buildPath).href);
installGlobals({ nativeFetch: build.future.v3_singleFetch });
const { isCrossOriginWrite, crossOriginRefusal, completeSecurityHeaders } = build.entry.module.appServerHooks;
const handleRemixRequest = createRequestHandler(build, mode);

const app = new Hono();
app.use(compress());
app.use(async (c, next) => {
  if (isCrossOriginWrite(c.req.raw)) {
    c.res = crossOriginRefusal();
  } else {
    await next();
  }
  // Answers built from another response (a fetch, a static file) can have immutable headers.
  c.res = new Response(c.res.body, c.res);
  completeSecurityHeaders(c.res.headers);
});
// Fingerprinted build output is immutable; other public files may change with a deploy.
app.use(
  `${build.publicPath}*`,
  serveStatic({
    root: path.relative(process.cwd(), build.assetsBuildDirectory),
    rewriteRequestPath: (requestPath) => requestPath.slice(build.publicPath.length - 1),
    onFound: (_path, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
  }),
);
app.use(
  "*",
  serveStatic({ root: "public", onFound: (_path, c) => c.header("Cache-Control", "public, max-age=3600") }),
);
app.all("*", (c) => handleRemixRequest(c.req.raw));

const port = Number(process.env.PORT ?? 3000);
// The platform-side lightweight Request would reach the fetch of Remix's globals, which cannot read it.
const server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
server.listen(port, process.env.HOST, () => console.info(`app: listening on http://localhost:${port}`));
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
