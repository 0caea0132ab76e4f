// Runs `node scripts/start.mjs` (which builds first when the sources changed) as its own process group, with its
// output in a log file, and stops the whole group again. start.mjs says over an IPC channel when the stack answers,
// and the ids of the app's and the platform's processes (scripts/lib/processes.mjs): nothing here guesses them.
import { spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { waitForReady } from "../lib/processes.mjs";

/** Variables that would point the stack elsewhere (external platform, PostgreSQL, another data dir): not passed on. */
const OVERRIDDEN = [
  "DATABASE_URL",
  "PLATFORM_API_URL",
  "PLATFORM_PUBLIC_URL",
  "AUTH0_DOMAIN",
  "AUTH0_CLIENT_ID",
  "AUTH0_CLIENT_SECRET",
  "AUTH0_AUDIENCE",
  "APP_URL",
  "APP_BASE_DOMAIN",
  "SESSION_SECRET",
  "DATA_DIR",
  "PORT",
  "PLATFORM_PORT",
  "SEED_DEMO_DATA",
];

/**
 * Starts the stack in `cwd` (the repository by default). `ready` resolves to `{ app, platform }`, the ids of the
 * processes start.mjs started, once both answer; it rejects when the stack exits first or after `readyTimeoutMs`.
 */
export function startStack({ dataDir, appPort, platformPort, logFile, readyTimeoutMs, cwd = process.cwd() }) {
  const env = { ...process.env };
  for (const name of OVERRIDDEN) delete env[name];
  Object.assign(env, { DATA_DIR: dataDir, PORT: String(appPort), PLATFORM_PORT: String(platformPort) });
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const ready = waitForReady(child, readyTimeoutMs);
  // Whoever awaits `ready` hears of a failure; nobody else should.
  ready.catch(() => {});
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let stopped = false;

  return {
    child,
    ready,
    exited,
    /** The last lines of the stack's output, for error messages. */
    tail(lines = 40) {
      try {
        return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
      } catch {
        return "";
      }
    },
    /** SIGTERM to the process group (start.mjs stops its children), SIGKILL after 10 s. */
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const signalGroup = (signal) => {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      };
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
      // start.mjs exits once its children have; anything left in the group is killed.
      signalGroup("SIGKILL");
    },
  };
}

/** Fails when something listens on `port` already: its answers would be measured instead of this stack's. */
export async function ensurePortFree(port, variable) {
  await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error) =>
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `port ${port} is in use (another stack or benchmark?): choose another with ${variable}`
            : `port ${port}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, () => server.close(resolve));
  });
}
