// `npm run load`: many signed-in browsers keeping a service's details page open. Each session revalidates the page
// the way the page's polling does (GET <page>.data, Remix's single-fetch request) every few seconds for a bounded
// time, against the embedded stack on loopback, started on a fresh data dir with the demo data. It prints the
// latency percentiles, the errors and the resident memory of the app and the platform at the start and the end.
// docs/benchmarks.md explains the figures and the settings below.
//
//   LOAD_SESSIONS (200)  LOAD_INTERVAL_SECONDS (5)  LOAD_DURATION_SECONDS (600)  LOAD_SIGN_IN_CONCURRENCY (4)
//   LOAD_APP_PORT (3620)  LOAD_PLATFORM_PORT (4620)
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { describe, request } from "./bench/http.mjs";
import {
  cpuSeconds,
  integerSetting,
  percentile,
  residentBytes,
  serviceIdOf,
  startFreshStack,
} from "./bench/run.mjs";
import { signInToApp } from "./bench/sign-in.mjs";

const TOOL = "load";
const settings = {
  sessions: integerSetting(TOOL, "LOAD_SESSIONS", 200),
  intervalSeconds: integerSetting(TOOL, "LOAD_INTERVAL_SECONDS", 5),
  durationSeconds: integerSetting(TOOL, "LOAD_DURATION_SECONDS", 600),
  signInConcurrency: integerSetting(TOOL, "LOAD_SIGN_IN_CONCURRENCY", 4),
  appPort: integerSetting(TOOL, "LOAD_APP_PORT", 3620),
  platformPort: integerSetting(TOOL, "LOAD_PLATFORM_PORT", 4620),
};
/** A revalidation slower than this counts as an error (a timeout), as a browser user would give up on it. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Every session is this demo user, signed in once per session: each has its own session cookie. */
const DEMO_EMAIL = "ada@example.com";
const DEMO_PASSWORD = "password";
const ORGANIZATION = "org_acme";
const ENVIRONMENT = "production";
const SERVICE = "orders-db";
/** The run's goals (issue 11 §4): any miss makes the exit code non-zero. */
const GOALS = { errors: 0, p95Ms: 250, rssGrowthPercent: 10 };

const log = (message) => console.info(`${TOOL}: ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Signs in `count` sessions, `concurrency` at a time. The first posts the password on the identity provider's form;
 * the others go through the same authorization-code flow with the provider's session cookie of the first, so the
 * provider answers without the form (single sign-on), and the app makes each its own session (token exchange,
 * cookie), as it would for the same person signing in from many browsers.
 */
async function signInSessions(appUrl, count, concurrency) {
  const signIn = (jar) =>
    signInToApp({ appUrl, email: DEMO_EMAIL, password: DEMO_PASSWORD, organization: ORGANIZATION, jar });
  const first = await signIn();
  const jars = [first];
  let next = 1;
  const worker = async () => {
    while (next < count) {
      next += 1;
      jars.push(await signIn(first.copy({ without: ["__session"] })));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return jars;
}

/**
 * One browser tab: from `offsetMs` on, a revalidation every interval until `endAt`. Like the page's polling, a tick
 * that comes while the previous request is still out is skipped (and counted).
 */
async function session({ jar, url, serviceId, offsetMs, endAt, results }) {
  await sleep(offsetMs);
  const intervalMs = settings.intervalSeconds * 1000;
  let due = performance.now();
  while (due < endAt) {
    try {
      const result = await request(url, { jar, timeoutMs: REQUEST_TIMEOUT_MS });
      if (result.status !== 200)
        results.errors.push(`${result.status}: ${describe(url, result).slice(0, 200)}`);
      else if (!result.text().includes(serviceId))
        results.errors.push("200 without the service in the answer");
      else results.samples.push(result.ms);
    } catch (error) {
      results.errors.push(error?.name === "TimeoutError" ? "timeout" : String(error?.message ?? error));
    }
    due += intervalMs;
    while (due < performance.now()) {
      results.skipped += 1;
      due += intervalMs;
    }
    await sleep(due - performance.now());
  }
}

function memory(pids) {
  return { app: residentBytes(pids.app), platform: residentBytes(pids.platform) };
}

async function main() {
  const startedAt = Date.now();
  const machine = { cpus: cpus().length, loadAverageAtStart: loadavg()[0] };
  if (machine.loadAverageAtStart > machine.cpus) {
    console.warn(
      `${TOOL}: warning: load average ${machine.loadAverageAtStart.toFixed(1)} on ${machine.cpus} CPUs: ` +
        "other work on this machine will inflate the times",
    );
  }
  const run = await startFreshStack({
    tool: TOOL,
    appPort: settings.appPort,
    platformPort: settings.platformPort,
    appPortVariable: "LOAD_APP_PORT",
    platformPortVariable: "LOAD_PLATFORM_PORT",
  });
  try {
    log(`stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    const signInStarted = performance.now();
    const jars = await signInSessions(run.appUrl, settings.sessions, settings.signInConcurrency);
    const signInSeconds = (performance.now() - signInStarted) / 1000;
    log(`signed in ${jars.length} sessions of ${DEMO_EMAIL} in ${signInSeconds.toFixed(1)} s`);
    const serviceId = await serviceIdOf(run.appUrl, jars[0], ENVIRONMENT, SERVICE);
    // What the details page's polling requests (no search: the Overview tab): the page's URL with .data, and the
    // routes whose loaders Remix's client asks for on a revalidation of the same URL (the shell's shouldRevalidate
    // leaves it out): the root and the page (as scripts/bench.mjs's pollRoutes).
    const routes = ["root", "routes/_app.env.$environmentName_.services.$serviceId._index"];
    const url = `${run.appUrl}/env/${ENVIRONMENT}/services/${serviceId}.data?_routes=${routes.join(",")}`;

    const { pids } = run;
    const rssAtStart = memory(pids);
    const cpuAtStart = { app: cpuSeconds(pids.app), platform: cpuSeconds(pids.platform) };
    const rssPeak = { ...rssAtStart };
    const sampler = setInterval(() => {
      const now = memory(pids);
      rssPeak.app = Math.max(rssPeak.app, now.app);
      rssPeak.platform = Math.max(rssPeak.platform, now.platform);
    }, 5_000);
    const results = { samples: [], errors: [], skipped: 0 };
    const intervalMs = settings.intervalSeconds * 1000;
    const loadStarted = performance.now();
    const endAt = loadStarted + settings.durationSeconds * 1000;
    log(
      `${settings.sessions} sessions revalidating ${SERVICE}'s details page every ${settings.intervalSeconds} s ` +
        `for ${settings.durationSeconds} s, staggered over the interval`,
    );
    const progress = setInterval(() => {
      const elapsed = Math.round((performance.now() - loadStarted) / 1000);
      log(`${elapsed} s: ${results.samples.length} answers, ${results.errors.length} errors`);
    }, 60_000);
    await Promise.all(
      jars.map((jar, index) =>
        session({
          jar,
          url,
          serviceId,
          offsetMs: (index * intervalMs) / jars.length,
          endAt,
          results,
        }),
      ),
    );
    clearInterval(progress);
    clearInterval(sampler);
    const rssAtEnd = memory(pids);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    // Share of one CPU each process kept busy: which side saturates first.
    const cpuPercent = (side) => ((cpuSeconds(pids[side]) - cpuAtStart[side]) / loadSeconds) * 100;
    const cpu = { app: cpuPercent("app"), platform: cpuPercent("platform") };
    // CPU milliseconds each process spent per revalidation asked (answered or given up on: both cost the work).
    const asked = results.samples.length + results.errors.length;
    const cpuMsPer = (side) => ((cpuSeconds(pids[side]) - cpuAtStart[side]) * 1000) / asked;
    const cpuPerRevalidation = { app: cpuMsPer("app"), platform: cpuMsPer("platform") };

    const sorted = [...results.samples].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50) ?? NaN;
    const p95 = percentile(sorted, 95) ?? NaN;
    const growth = (side) => ((rssAtEnd[side] - rssAtStart[side]) / rssAtStart[side]) * 100;
    const errorKinds = {};
    for (const error of results.errors) errorKinds[error] = (errorKinds[error] ?? 0) + 1;
    const report = {
      at: new Date().toISOString(),
      node: process.version,
      machine: { ...machine, loadAverageAtEnd: loadavg()[0] },
      settings: { ...settings, requestTimeoutMs: REQUEST_TIMEOUT_MS },
      signInSeconds,
      url: url.slice(run.appUrl.length),
      requests: results.samples.length + results.errors.length,
      skippedTicks: results.skipped,
      errors: results.errors.length,
      errorKinds,
      latencyMs: { p50, p95, max: sorted.at(-1) ?? NaN },
      rss: { start: rssAtStart, end: rssAtEnd, peak: rssPeak },
      rssGrowthPercent: { app: growth("app"), platform: growth("platform") },
      cpuPercentOfOneCore: cpu,
      cpuMsPerRevalidation: cpuPerRevalidation,
    };
    const resultsFile = path.join(run.workDir, "load-results.json");
    writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);

    console.info("");
    console.info(
      `${settings.sessions} sessions, one revalidation each every ${settings.intervalSeconds} s for ` +
        `${settings.durationSeconds} s: ${report.requests} requests, ${report.errors} errors, ` +
        `${results.skipped} ticks skipped (previous request still out)`,
    );
    console.info(
      `latency: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${report.latencyMs.max.toFixed(1)} ms`,
    );
    for (const side of ["app", "platform"]) {
      console.info(
        `${side.padEnd(8)} RSS: ${mb(rssAtStart[side])} at the start, ${mb(rssAtEnd[side])} at the end ` +
          `(${growth(side) >= 0 ? "+" : ""}${growth(side).toFixed(1)} %), peak ${mb(rssPeak[side])}; ` +
          `CPU ${cpu[side].toFixed(0)} % of one core, ${cpuPerRevalidation[side].toFixed(1)} ms per revalidation`,
      );
    }
    for (const [kind, count] of Object.entries(errorKinds)) console.info(`error ×${count}: ${kind}`);
    console.info(
      `load average: ${machine.loadAverageAtStart.toFixed(1)} at the start, ${report.machine.loadAverageAtEnd.toFixed(1)} at the end (${machine.cpus} CPUs)`,
    );
    const misses = [
      report.errors > GOALS.errors && `${report.errors} errors`,
      !(p95 <= GOALS.p95Ms) && `p95 ${p95.toFixed(1)} ms above ${GOALS.p95Ms} ms`,
      ...["app", "platform"].map(
        (side) =>
          growth(side) > GOALS.rssGrowthPercent &&
          `${side} RSS grew ${growth(side).toFixed(1)} % (more than ${GOALS.rssGrowthPercent} %)`,
      ),
    ].filter(Boolean);
    console.info("");
    for (const miss of misses) console.warn(`${TOOL}: goal missed: ${miss}`);
    log(`results in ${resultsFile} (${((Date.now() - startedAt) / 1000).toFixed(0)} s in all)`);
    return misses.length ? 1 : 0;
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
