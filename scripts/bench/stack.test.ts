// The bench, load and Lighthouse runs start the stack with startStack (scripts/bench/stack.mjs) and measure the app's
// and the platform's processes by the ids start.mjs announces. This starts the real scripts/start.mjs (and the real
// scripts/app-server.mjs) the same way, in a stand-in of a production image whose build is a stub that answers the
// health checks with its process id: a change to how start.mjs starts either side that loses the ids fails here.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../lib/processes.mjs";
import { residentBytes } from "./run.mjs";
import { startStack } from "./stack.mjs";

const scripts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A Remix server build with one route, /healthz, that answers the process id (app-server.mjs serves it). */
const appBuild = `
export const future = { v3_singleFetch: true };
export const publicPath = "/build/";
export const assetsBuildDirectory = "public/build";
export const mode = "production";
export const assets = { version: "stub", url: "/build/manifest-stub.js", entry: { module: "/build/entry.js", imports: [] }, routes: {} };
export const routes = {
  root: { id: "root", path: "", module: {} },
  "routes/healthz": {
    id: "routes/healthz",
    parentId: "root",
    path: "healthz",
    module: { loader: () => new Response(String(process.pid)) },
  },
};
export const entry = {
  module: {
    default: () => new Response("stub"),
    appServerHooks: {
      isCrossOriginWrite: () => false,
      crossOriginRefusal: () => new Response(null, { status: 403 }),
      bodyLimitOf: () => 1024 * 1024,
      bodyTooLarge: () => new Response(null, { status: 413 }),
      completeSecurityHeaders: () => {},
    },
  },
};
`;

/** The platform: /api/healthz answers the process id. */
const platformBuild = `
import { createServer } from "node:http";
createServer((request, response) => {
  response.writeHead(request.url === "/api/healthz" ? 200 : 404).end(String(process.pid));
}).listen(Number(process.env.PLATFORM_PORT));
`;

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let image: string;
let stack: ReturnType<typeof startStack> | undefined;

/** A production image's layout: no app/ sources (so start.mjs does not build), this repository's scripts. */
function makeImage({ withPlatform = true } = {}) {
  mkdirSync(path.join(image, "build/server"), { recursive: true });
  mkdirSync(path.join(image, "build/platform"), { recursive: true });
  mkdirSync(path.join(image, "public/build"), { recursive: true });
  symlinkSync(scripts, path.join(image, "scripts"));
  writeFileSync(path.join(image, "build/server/index.js"), appBuild);
  if (withPlatform) writeFileSync(path.join(image, "build/platform/server.js"), platformBuild);
}

async function start() {
  const [appPort, platformPort] = [await freePort(), await freePort()];
  stack = startStack({
    cwd: image,
    dataDir: path.join(image, "data"),
    appPort,
    platformPort,
    logFile: path.join(image, "stack.log"),
    readyTimeoutMs: 15_000,
  });
  return { appPort, platformPort, stack };
}

beforeEach(() => {
  image = mkdtempSync(path.join(tmpdir(), "cloud-console-stack-test-"));
});

afterEach(async () => {
  await stack?.stop();
  stack = undefined;
  rmSync(image, { recursive: true, force: true });
});

describe("startStack", () => {
  it("gets the ids of the processes that serve the app and the platform from start.mjs", async () => {
    makeImage();
    const { appPort, platformPort, stack } = await start();
    const pids = await stack.ready.catch((error) => {
      throw new Error(`${error.message}\n${stack.tail()}`);
    });

    const answer = async (url: string) => Number(await (await fetch(url)).text());
    expect(await answer(`http://localhost:${appPort}/healthz`)).toBe(pids.app);
    expect(await answer(`http://localhost:${platformPort}/api/healthz`)).toBe(pids.platform);
    // What load.mjs reads of them.
    expect(residentBytes(pids.app)).toBeGreaterThan(0);
    expect(residentBytes(pids.platform)).toBeGreaterThan(0);

    await stack.stop();
    expect(isRunning(pids.app)).toBe(false);
    expect(isRunning(pids.platform)).toBe(false);
  });

  it("fails with the stack's exit when start.mjs stops before it is ready", async () => {
    makeImage({ withPlatform: false });
    const { stack } = await start();
    await expect(stack.ready).rejects.toThrow(/the stack exited \(exit code \d+\) before it was ready/);
  });
});
