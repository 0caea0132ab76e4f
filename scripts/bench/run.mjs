// What the load and Lighthouse runs share with the benchmark's way of working: settings read from the environment,
// a stack on a fresh temporary data dir (demo data seeded by the platform itself), signed in as a demo user, and
// the resident memory of the stack's processes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, request } from "./http.mjs";
import { ensurePortFree, startStack } from "./stack.mjs";

/** The first start builds when the sources changed, which takes a while (then start.mjs waits for both to answer). */
const START_TIMEOUT_MS = 10 * 60_000;

/** An integer setting from the environment; a bad value stops the run with a message naming the variable. */
export function integerSetting(tool, name, fallback, { min = 1 } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    console.error(`${tool}: ${name} must be an integer of at least ${min}, not ${raw}`);
    process.exit(2);
  }
  return value;
}

/** Nearest-rank percentile of sorted numbers. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Starts `node scripts/start.mjs` on a fresh data dir under a new temporary directory named after `tool`, and waits
 * until the platform and the app answer. `pids` are the app's and the platform's processes (`{ app, platform }`), as
 * start.mjs announces them. Stopping it (also on Ctrl-C) removes the data dir; the log stays.
 */
export async function startFreshStack({
  tool,
  appPort,
  platformPort,
  appPortVariable,
  platformPortVariable,
}) {
  await ensurePortFree(appPort, appPortVariable);
  await ensurePortFree(platformPort, platformPortVariable);
  const workDir = mkdtempSync(path.join(tmpdir(), `cloud-console-${tool}-`));
  const dataDir = path.join(workDir, "data");
  const logFile = path.join(workDir, "stack.log");
  const appUrl = `http://localhost:${appPort}`;
  const platformUrl = `http://localhost:${platformPort}`;
  console.info(`${tool}: starting the stack: app ${appUrl}, platform ${platformUrl} (output in ${logFile})`);
  const stack = startStack({ dataDir, appPort, platformPort, logFile, readyTimeoutMs: START_TIMEOUT_MS });
  const stop = async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      console.error(`${tool}: ${signal}, stopping`);
      stop().finally(() => process.exit(130));
    });
  }
  let pids;
  try {
    pids = await stack.ready;
  } catch (error) {
    await stop();
    throw new Error(`${error.message}\n--- stack output ---\n${stack.tail()}`);
  }
  return { stack, pids, workDir, appUrl, platformUrl, stop };
}

const clockTicksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU seconds (user and system) a process has used so far (/proc/<pid>/stat, fields 14 and 15). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
}

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status). */
export function residentBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (!kilobytes) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kilobytes) * 1024;
}

/** The id of the service `name` in `environment`, from its link on the app's services list. */
export async function serviceIdOf(appUrl, jar, environment, name) {
  const listUrl = `${appUrl}/env/${environment}/services`;
  const page = await request(listUrl, { jar, headers: { Accept: "text/html" } });
  if (page.status !== 200) throw new Error(`services list: ${describe(listUrl, page)}`);
  const link = new RegExp(
    `href="/env/${environment}/services/([0-9a-f-]{36})"[^>]*>(?:<[^>]+>)*${name}<`,
  ).exec(page.text());
  if (!link) throw new Error(`services list: no link to ${name}`);
  return link[1];
}
