// Proves what the Dockerfile's final stage holds is enough: the production build plus production-only
// dependencies start (embedded mode) and answer /healthz. No Docker engine is needed.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitForHttp } from "./lib/processes.mjs";

const image = mkdtempSync(path.join(tmpdir(), "cloud-console-production-"));
const appPort = 3320;
const platformPort = 4320;
const results = { passed: 0, failed: 0 };

function check(name, ok) {
  results[ok ? "passed" : "failed"] += 1;
  console.info(`${ok ? "✓" : "✗"} ${name}`);
}

for (const entry of ["package.json", "build", "public", "scripts", "platform/db/migrations"]) {
  cpSync(entry, path.join(image, entry), { recursive: true });
}
const install = spawnSync("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], {
  cwd: image,
  stdio: "inherit",
});
if (install.status !== 0) process.exit(install.status ?? 1);

const server = spawn(process.execPath, ["scripts/start.mjs"], {
  cwd: image,
  stdio: "inherit",
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    DATA_DIR: path.join(image, "data"),
    PORT: String(appPort),
    PLATFORM_PORT: String(platformPort),
  },
});

try {
  // The app and the platform start at once, so each is waited for.
  await waitForHttp(`http://localhost:${appPort}/healthz`, 90_000);
  check("the app answers /healthz", true);
  await waitForHttp(`http://localhost:${platformPort}/api/healthz`, 90_000);
  check("the embedded platform answers /api/healthz", true);
  const home = await fetch(`http://localhost:${appPort}/`, { redirect: "manual" });
  check(
    "a visitor is sent to sign in",
    home.status === 302 && home.headers.get("Location") === "/auth/login",
  );
} catch (error) {
  check(`start-up: ${error instanceof Error ? error.message : error}`, false);
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(image, { recursive: true, force: true });
}
console.info(`production build: ${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed ? 1 : 0);
