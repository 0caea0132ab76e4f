// `npm run lighthouse`: Lighthouse's accessibility and best-practices audits (desktop preset) on the environments
// list, the services list and a service's details, signed in as the demo user, against the embedded stack started on
// a fresh data dir. Prints each page's scores and the audits that fail; the exit code is non-zero below 100.
// docs/benchmarks.md explains the settings below.
//
//   LIGHTHOUSE_APP_PORT (3630)  LIGHTHOUSE_PLATFORM_PORT (4630)  CHROMIUM_PATH (/usr/bin/chromium)
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { integerSetting, serviceIdOf, startFreshStack } from "./bench/run.mjs";
import { signInToApp } from "./bench/sign-in.mjs";

const TOOL = "lighthouse";
const settings = {
  appPort: integerSetting(TOOL, "LIGHTHOUSE_APP_PORT", 3630),
  platformPort: integerSetting(TOOL, "LIGHTHOUSE_PLATFORM_PORT", 4630),
  chromium: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
};
const CATEGORIES = ["accessibility", "best-practices"];
const ENVIRONMENT = "production";
const SERVICE = "orders-db";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const log = (message) => console.info(`${TOOL}: ${message}`);

/** Runs the Lighthouse CLI on `url` with the session cookie; returns its JSON report. */
function audit(url, cookie, outputPath) {
  const run = spawnSync(
    process.execPath,
    [
      "node_modules/lighthouse/cli/index.js",
      url,
      "--preset=desktop",
      `--only-categories=${CATEGORIES.join(",")}`,
      `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
      `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
      "--output=json",
      `--output-path=${outputPath}`,
      "--quiet",
    ],
    { env: { ...process.env, CHROME_PATH: settings.chromium }, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (run.status !== 0)
    throw new Error(`lighthouse failed on ${url} (${run.signal ?? `exit code ${run.status}`})`);
  return JSON.parse(readFileSync(outputPath, "utf8"));
}

/** The audits of a category that count and do not pass. */
function failingAudits(report, category) {
  return report.categories[category].auditRefs
    .filter(({ weight }) => weight > 0)
    .map(({ id }) => report.audits[id])
    .filter((result) => result.score !== null && result.score < 1);
}

async function main() {
  const run = await startFreshStack({
    tool: TOOL,
    appPort: settings.appPort,
    platformPort: settings.platformPort,
    appPortVariable: "LIGHTHOUSE_APP_PORT",
    platformPortVariable: "LIGHTHOUSE_PLATFORM_PORT",
  });
  try {
    const jar = await signInToApp({
      appUrl: run.appUrl,
      email: "ada@example.com",
      password: "password",
      organization: "org_acme",
    });
    const serviceId = await serviceIdOf(run.appUrl, jar, ENVIRONMENT, SERVICE);
    const pages = [
      { name: "environments list", path: "/environments" },
      { name: "services list", path: `/env/${ENVIRONMENT}/services` },
      { name: "service details", path: `/env/${ENVIRONMENT}/services/${serviceId}` },
    ];
    let belowFull = false;
    const rows = [];
    for (const [index, page] of pages.entries()) {
      const url = `${run.appUrl}${page.path}`;
      log(`auditing the ${page.name} (${page.path})`);
      const report = audit(url, jar.header(url), path.join(run.workDir, `report-${index + 1}.json`));
      if (report.finalDisplayedUrl !== url) {
        throw new Error(`${page.name}: Lighthouse ended at ${report.finalDisplayedUrl}, not ${url}`);
      }
      const scores = CATEGORIES.map((category) => Math.round(report.categories[category].score * 100));
      rows.push({ page, scores });
      for (const category of CATEGORIES) {
        for (const failing of failingAudits(report, category)) {
          belowFull = true;
          console.warn(`${TOOL}: ${page.name}: ${category}: ${failing.id}: ${failing.title}`);
        }
      }
    }
    console.info("");
    console.info(`page               accessibility  best practices`);
    for (const { page, scores } of rows) {
      console.info(
        `${page.name.padEnd(17)}  ${String(scores[0]).padStart(13)}  ${String(scores[1]).padStart(14)}`,
      );
    }
    console.info("");
    log(`reports in ${run.workDir}`);
    return belowFull || rows.some(({ scores }) => scores.some((score) => score < 100)) ? 1 : 0;
  } finally {
    await run.stop();
  }
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`${TOOL}: failed: ${error instanceof Error ? error.message : error}`);
}
process.exit(exitCode);
