// `npm start`: builds when needed, then starts the embedded platform and the app (scripts/app-server.mjs) at once
// and reports ready when both answer: "start: ready at <url>" on stdout (Playwright waits for it) and, when started
// with an IPC channel (scripts/bench/stack.mjs), a message with the ids of the processes it started. It waits
// READY_TIMEOUT_MS (scripts/lib/processes.mjs, 180 s, as long as Playwright's web server allows) for both to answer.
// `npm run platform` (--platform-only): the embedded platform alone. With PLATFORM_API_URL and AUTH0_DOMAIN
// set (external platform and Auth0), only the app starts.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { containerSocketsForStart } from "./lib/container-engine.mjs";
import { containerProxyForStart } from "./lib/container-proxy.mjs";
import { embeddedEnvironments, isExternalMode } from "./lib/embedded.mjs";
import { announceReady, READY_TIMEOUT_MS, supervise, waitForHttp } from "./lib/processes.mjs";

const startedAt = Date.now();
const platformOnly = process.argv.includes("--platform-only");
const outputs = ["build/server/index.js", "build/platform/server.js"];
const sources = ["app", "contract", "platform", "remix.config.js", "vite.config.ts", "package.json"];

function newestChange(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((child) => newestChange(path.join(entry, child))));
}

function buildWhenNeeded() {
  // A production image ships the build without the sources: nothing to rebuild there.
  if (!existsSync("app")) return;
  const builtAt = Math.min(...outputs.map((output) => (existsSync(output) ? statSync(output).mtimeMs : 0)));
  if (builtAt > Math.max(...sources.map(newestChange))) return;
  console.info("start: building (sources changed since the last build)");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

buildWhenNeeded();
const processes = supervise();
const platformServer = ["--enable-source-maps", "build/platform/server.js"];
const appServer = ["--enable-source-maps", path.resolve("scripts/app-server.mjs"), "build/server/index.js"];

try {
  if (isExternalMode()) {
    const app = processes.start("app", process.execPath, appServer, {
      ...process.env,
      NODE_ENV: "production",
    });
    await waitForHttp(`http://localhost:${process.env.PORT ?? 3000}/healthz`, READY_TIMEOUT_MS);
    announceReady({ app: app.pid });
    console.info(
      `start: app ready in ${Date.now() - startedAt} ms (external platform ${process.env.PLATFORM_API_URL})`,
    );
  } else {
    const environments = embeddedEnvironments();
    // "This machine" (issue 26): the container engine sockets found here, unless the operator listed them.
    const containerSockets = await containerSocketsForStart(process.env, environments.platform.DATA_DIR);
    // Stable application addresses through Caddy, when this script chose the engine itself.
    const proxyAdminUrl = await containerProxyForStart(process.env, environments.platform.DATA_DIR, {
      engineDiscovered: process.env.CONTAINER_SOCKETS === undefined && containerSockets !== undefined,
    });
    const platform = processes.start("platform", process.execPath, platformServer, {
      ...environments.platform,
      ...(containerSockets === undefined ? {} : { CONTAINER_SOCKETS: containerSockets }),
      ...(proxyAdminUrl === undefined ? {} : { CONTAINER_PROXY_ADMIN_URL: proxyAdminUrl }),
      NODE_ENV: "production",
    });
    // The app boots without the platform (it calls it per request), so both start at once: ready when both are.
    const app = platformOnly
      ? undefined
      : processes.start("app", process.execPath, appServer, {
          ...environments.app,
          NODE_ENV: "production",
        });
    await Promise.all([
      waitForHttp(`${environments.platformUrl}/api/healthz`, READY_TIMEOUT_MS),
      app && waitForHttp(`${environments.appUrl}/healthz`, READY_TIMEOUT_MS),
    ]);
    announceReady({ platform: platform.pid, app: app?.pid });
    if (platformOnly) {
      console.info(`start: platform ready at ${environments.platformUrl} in ${Date.now() - startedAt} ms`);
    } else {
      console.info(`start: ready at ${environments.appUrl} in ${Date.now() - startedAt} ms`);
    }
  }
} catch (error) {
  console.error(`start: ${error instanceof Error ? error.message : error}`);
  processes.stopAll(1);
}
