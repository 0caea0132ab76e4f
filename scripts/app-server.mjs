// The app's HTTP server (what remix-serve did, plus the checks every request needs): `node scripts/app-server.mjs
// build/server/index.js`. What it does with each request is scripts/lib/app-gate.mjs.
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { installGlobals } from "@remix-run/node";
import { createAppGate } from "./lib/app-gate.mjs";

const mode = process.env.NODE_ENV ?? "production";
const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = await import(pathToFileURL(buildPath).href);
installGlobals({ nativeFetch: build.future.v3_singleFetch });
const app = createAppGate(build, { mode });

const port = Number(process.env.PORT ?? 3000);
// The platform-side lightweight Request would reach the fetch of Remix's globals, which cannot read it.
const server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
server.listen(port, process.env.HOST, () => console.info(`app: listening on http://localhost:${port}`));
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
