// `npm test`: every test. Typecheck and lint (side by side), vitest (the unit tests, and the platform suite on a
// throwaway PostgreSQL 15 with a PGlite parity set where PostgreSQL is installed, else all of it on PGlite), the
// production build and its first-visit byte budget, the production-image check, then the end-to-end tests in
// Debian's Chromium against the real stack. Ends with a table: layer, tests, seconds.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { postgresInstalled, startThrowawayPostgres } from "./lib/postgres.mjs";
import { printLayerTable } from "./lib/layer-table.mjs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const reports = mkdtempSync(path.join(tmpdir(), "test-reports-"));
const layers = [];
let postgres;

function finish(exitCode) {
  postgres?.stop();
  rmSync(reports, { recursive: true, force: true });
  printLayerTable(layers);
  process.exit(exitCode);
}

/** Runs one layer with its output on the terminal; `tests` reads the count of tests it ran from its report. */
function layer(name, command, args, { env, tests } = {}) {
  console.info(`\n> ${[command, ...args].join(" ")}`);
  const startedAt = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const entry = { name, seconds: (Date.now() - startedAt) / 1000, tests: undefined };
  layers.push(entry);
  try {
    entry.tests = tests?.();
  } catch {
    // No report: the layer stopped before writing it.
  }
  if (result.status !== 0) finish(result.status ?? 1);
}

/** Runs several commands at once (each is single-threaded), printing each one's output when it ends. */
async function layersSideBySide(commands) {
  const results = await Promise.all(
    commands.map(
      ({ name, command, args }) =>
        new Promise((resolve) => {
          const startedAt = Date.now();
          const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
          let output = "";
          child.stdout.on("data", (chunk) => (output += chunk));
          child.stderr.on("data", (chunk) => (output += chunk));
          child.on("close", (code) => {
            console.info(`\n> ${[command, ...args].join(" ")}\n${output}`);
            layers.push({ name, seconds: (Date.now() - startedAt) / 1000 });
            resolve(code);
          });
        }),
    ),
  );
  const failed = results.find((code) => code !== 0);
  if (failed !== undefined) finish(failed ?? 1);
}

function ensureChromium() {
  if (existsSync(chromium)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing at ${chromium}. Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH, then run npm test again.`,
    );
    finish(1);
  }
  console.info("Chromium is missing: installing Debian's chromium package");
  layer("install chromium", "sh", ["-c", "apt-get update -qq && apt-get install -y -qq chromium"]);
}

function countOf(file, read) {
  return read(JSON.parse(readFileSync(path.join(reports, file), "utf8")));
}

await layersSideBySide([
  { name: "typecheck", command: "npm", args: ["run", "-s", "typecheck"] },
  { name: "lint (ESLint + Prettier)", command: "npm", args: ["run", "-s", "lint"] },
]);

if (process.env.TEST_DATABASE_URL) {
  console.info(`\nThe platform suite runs on the PostgreSQL server of TEST_DATABASE_URL.`);
} else if (postgresInstalled()) {
  postgres = await startThrowawayPostgres();
  console.info(
    `\nThe platform suite runs on a throwaway PostgreSQL 15 (${postgres.url}), its parity set on PGlite.`,
  );
} else {
  console.info(
    `\nPostgreSQL 15 is not installed: the platform suite runs on PGlite only (.ci/run installs it).`,
  );
}
layer(
  "vitest: unit, platform, PGlite parity",
  "npx",
  [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${path.join(reports, "vitest.json")}`,
  ],
  {
    env: postgres ? { TEST_DATABASE_URL: postgres.url } : {},
    tests: () => countOf("vitest.json", (report) => report.numTotalTests),
  },
);
postgres?.stop();
postgres = undefined;

ensureChromium();
layer("production build", "npm", ["run", "-s", "build"]);
layer("first-visit byte budget", "node", ["scripts/check-first-visit-bytes.mjs"]);
layer("production-image check", "node", ["scripts/check-production.mjs"]);
layer("end-to-end (Playwright, Chromium)", "npx", ["playwright", "test", "--reporter=list,json"], {
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "playwright.json") },
  tests: () => countOf("playwright.json", (report) => report.stats.expected + report.stats.flaky),
});
finish(0);
