// `npm run bench`: seeds an environment with 1,000 services and 100,000 log lines, starts the stack on it and
// measures, through the app's server, the services list page, a details page and a log search (p50 and p95) both as
// the HTML document and as the `.data` requests of a client navigation and of polling, the same calls made directly
// to the platform API (the app's overhead as a ratio), and the JavaScript and CSS a first visit to the list page
// downloads (gzip). docs/benchmarks.md explains the figures and the settings below.
//
//   BENCH_ITERATIONS (50)  BENCH_WARMUP (5)  BENCH_APP_PORT (3610)  BENCH_PLATFORM_PORT (4610)
//   BENCH_SERVICES (1000)  BENCH_LOG_LINES (100000)  BENCH_SEARCH_TEXT (timeout)  BENCH_KEEP_DATA (false)
//   BENCH_ROUTES (list,details,search,cost)  BENCH_COST (true: also time the cost overview's query on a year of usage of
//   1,000 services, scripts/bench/cost.ts, before the stack starts; its own settings are BENCH_COST_SERVICES (1000),
//   BENCH_COST_DAYS (365), BENCH_COST_ITERATIONS (50), BENCH_COST_WARMUP (5); goal p95 ≤ 200 ms)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { URLSearchParams } from "node:url";
import { describe, isRedirect, request } from "./bench/http.mjs";
import { firstVisitBytes } from "./bench/assets.mjs";
import { platformAccessToken, signInToApp } from "./bench/sign-in.mjs";
import { ensurePortFree, startStack } from "./bench/stack.mjs";

const settings = {
  iterations: positiveInteger("BENCH_ITERATIONS", 50),
  warmup: positiveInteger("BENCH_WARMUP", 5, { allowZero: true }),
  appPort: positiveInteger("BENCH_APP_PORT", 3610),
  platformPort: positiveInteger("BENCH_PLATFORM_PORT", 4610),
  searchText: process.env.BENCH_SEARCH_TEXT ?? "timeout",
  keepData: process.env.BENCH_KEEP_DATA === "true",
  cost: process.env.BENCH_COST !== "false",
  /** Which of list, details, search and cost to measure. */
  routes: (process.env.BENCH_ROUTES || "list,details,search,cost").split(",").map((route) => route.trim()),
};
const DEMO_EMAIL = "ada@example.com";
const DEMO_PASSWORD = "password";
const CLIENT_ID = "cloud-console";
/** The first start builds when the sources changed, which takes a while. */
const START_TIMEOUT_MS = 10 * 60_000;

const ROUTES = ["list", "details", "search", "cost"];

/** Remix route ids (app/routes file names), for the `_routes` parameter of single-fetch `.data` requests. */
const ROUTE_IDS = {
  root: "root",
  shell: "routes/_app",
  list: "routes/_app.env.$environmentName_.services._index",
  details: "routes/_app.env.$environmentName_.services.$serviceId._index",
  cost: "routes/_app.cost._index",
};
/**
 * The routes whose loaders the browser asks for, as Remix's client decides from the routes' shouldRevalidate:
 * - a client navigation to the page from another page of the environment: the root (it reads the flash toast on
 *   every navigation) and the page; the shell's params do not change, so it is not asked again;
 * - the 5-second poll (useRevalidator) while a service is busy: what the routes' shouldRevalidate let through for a
 *   revalidation of the same URL. `null` is every route (no `_routes` parameter).
 * Keep these in step with app/root.tsx's and app/routes/_app.tsx's shouldRevalidate.
 */
const navigationRoutes = (leaf) => [ROUTE_IDS.root, leaf];
const pollRoutes = (leaf) => [ROUTE_IDS.root, leaf];
const unknownRoute = settings.routes.find((route) => !ROUTES.includes(route));
if (unknownRoute) {
  console.error(`bench: BENCH_ROUTES takes ${ROUTES.join(", ")}, not ${unknownRoute}`);
  process.exit(2);
}

function positiveInteger(name, fallback, { allowZero = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    console.error(`bench: ${name} must be a ${allowZero ? "non-negative" : "positive"} integer, not ${raw}`);
    process.exit(2);
  }
  return value;
}

const log = (message) => console.info(`bench: ${message}`);
const workDir = mkdtempSync(path.join(tmpdir(), "cloud-console-bench-"));
const dataDir = path.join(workDir, "data");
const resultsFile = path.join(workDir, "bench-results.json");
const appUrl = `http://localhost:${settings.appPort}`;
const platformUrl = `http://localhost:${settings.platformPort}`;
let stack;

async function shutDown() {
  if (stack) await stack.stop();
  if (!settings.keepData) rmSync(dataDir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    console.error(`bench: ${signal}, stopping`);
    shutDown().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** Nearest-rank percentile of sorted milliseconds. */
function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    mean,
  };
}

/** Calls `url` warm-up + iterations times, one at a time; any answer other than 200 stops the benchmark. */
async function measure(label, url, options) {
  const samples = [];
  let bytes = 0;
  let body = "";
  for (let round = 0; round < settings.warmup + settings.iterations; round++) {
    const result = await request(url, options);
    if (result.status !== 200) {
      const hint = isRedirect(result.status)
        ? " (a redirect: is the page there, and is the session still valid?)"
        : "";
      throw new Error(`${label}: ${describe(url, result)}${hint}`);
    }
    if (round >= settings.warmup) samples.push(result.ms);
    bytes = result.bytes.length;
    body = result.text();
  }
  return { result: { url: url.replace(/^https?:\/\/[^/]+/, ""), bytes, ...summarize(samples) }, body };
}

/**
 * Calls each of `calls` once per round, in turn, for warm-up + iterations rounds, so a swing of the machine's load
 * hits the app and the platform alike (timed in separate blocks, they gave impossible ratios under load). A call's
 * `status` is the answer it expects; one whose `retag` is set holds an ETag and takes a 200 (something changed
 * meanwhile, e.g. the engine's drift check) as its new ETag, that round's time uncounted.
 */
async function measureTogether(calls) {
  const samples = calls.map(() => []);
  const last = calls.map(() => ({ bytes: 0, body: "" }));
  for (let round = 0; round < settings.warmup + settings.iterations; round++) {
    for (const [index, call] of calls.entries()) {
      const result = await request(call.url, call.options);
      if (call.retag && result.status === 200) {
        call.options.headers["If-None-Match"] = result.response.headers.get("ETag");
        continue;
      }
      if (result.status !== (call.status ?? 200)) {
        const hint = isRedirect(result.status)
          ? " (a redirect: is the page there, and is the session still valid?)"
          : "";
        throw new Error(`${call.label}: ${describe(call.url, result)}${hint}`);
      }
      if (round >= settings.warmup) samples[index].push(result.ms);
      last[index] = { bytes: result.bytes.length, body: result.text() };
    }
  }
  return calls.map((call, index) => ({
    result: {
      url: call.url.replace(/^https?:\/\/[^/]+/, ""),
      bytes: last[index].bytes,
      ...summarize(samples[index]),
    },
    body: last[index].body,
  }));
}

/** A page's text as a reader sees it: entities decoded, React's text separators gone. */
function pageText(html) {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** A `.data` answer's strings as text: turbo-stream escapes them as JSON does. */
function jsonText(body) {
  return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escaped) =>
    escaped.length === 5 ? String.fromCharCode(parseInt(escaped.slice(1), 16)) : JSON.parse(`"\\${escaped}"`),
  );
}

const ms = (value) => value.toFixed(1);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows
    .map((row, index) => {
      const line = row.map((cell, column) =>
        column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]),
      );
      return index === 0
        ? `${line.join("  ")}\n${widths.map((width) => "-".repeat(width)).join("  ")}`
        : line.join("  ");
    })
    .join("\n");
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const startedAt = Date.now();
  log(`working in ${workDir}`);
  await ensurePortFree(settings.appPort, "BENCH_APP_PORT");
  await ensurePortFree(settings.platformPort, "BENCH_PLATFORM_PORT");
  const machine = { cpus: cpus().length, loadAverageAtStart: loadavg()[0] };
  if (machine.loadAverageAtStart > machine.cpus) {
    console.warn(
      `bench: warning: load average ${machine.loadAverageAtStart.toFixed(1)} on ${machine.cpus} CPUs: ` +
        "other work on this machine will inflate the times",
    );
  }

  // 0. The cost overview's query on a year of usage (its own database), before the stack takes the CPU.
  let cost = null;
  if (settings.cost) {
    const costFile = path.join(workDir, "cost-bench.json");
    const costRun = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/cost.ts", costFile], {
      stdio: "inherit",
    });
    if (costRun.status !== 0 && costRun.status !== 1) {
      throw new Error(`the cost bench failed (${costRun.signal ?? `exit code ${costRun.status}`})`);
    }
    cost = JSON.parse(readFileSync(costFile, "utf8"));
  }

  // 1. Seed before the stack starts: PGlite's data directory is one process's at a time.
  const seedFile = path.join(workDir, "seed.json");
  const seeding = spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/bench/seed.ts", dataDir, seedFile],
    {
      stdio: "inherit",
    },
  );
  if (seeding.status !== 0)
    throw new Error(`seeding failed (${seeding.signal ?? `exit code ${seeding.status}`})`);
  const seed = JSON.parse(readFileSync(seedFile, "utf8"));

  // 2. The stack, on that data directory (start.mjs builds first when needed; the demo seed sees users and skips).
  log(
    `starting the stack: app ${appUrl}, platform ${platformUrl} (output in ${path.join(workDir, "stack.log")})`,
  );
  stack = startStack({
    dataDir,
    appPort: settings.appPort,
    platformPort: settings.platformPort,
    logFile: path.join(workDir, "stack.log"),
    readyTimeoutMs: START_TIMEOUT_MS,
  });
  try {
    await stack.ready;
  } catch (error) {
    throw new Error(`${error.message}\n--- stack output ---\n${stack.tail()}`);
  }
  log(`stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s since the start of the run`);

  // 3. Sign in as the demo user, through the app; a token of the same user for the platform.
  const { clientSecret } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  const jar = await signInToApp({
    appUrl,
    email: DEMO_EMAIL,
    password: DEMO_PASSWORD,
    organization: seed.organizationId,
  });
  const accessToken = await platformAccessToken({
    jar,
    platformUrl,
    appUrl,
    clientId: CLIENT_ID,
    clientSecret,
    audience: `${platformUrl}/api`,
    email: DEMO_EMAIL,
    password: DEMO_PASSWORD,
  });
  log(`signed in as ${DEMO_EMAIL}`);

  // 4. The three pages through the app, and the platform calls behind them.
  const { servicePaths, environmentPaths, costPaths } = await importContract();
  const { tenantId, environmentId, environmentName, hotService } = seed;
  const page = `${appUrl}/env/${encodeURIComponent(environmentName)}/services`;
  const scenarios = [
    {
      key: "list",
      name: "services list",
      routeId: ROUTE_IDS.list,
      app: page,
      platform: servicePaths.list(tenantId, environmentId, { page: 1, pageSize: 50 }),
      expect: (answer) => [answer.infrastructure?.[0]?.name],
    },
    {
      key: "details",
      name: "service details",
      routeId: ROUTE_IDS.details,
      app: `${page}/${hotService.id}`,
      platform: servicePaths.one(tenantId, environmentId, hotService.id),
      expect: (answer) => [answer.resource?.config?.source?.image],
    },
    {
      key: "search",
      name: "log search",
      routeId: ROUTE_IDS.details,
      app: `${page}/${hotService.id}?${new URLSearchParams({ tab: "logs", logType: "SEARCH", text: settings.searchText })}`,
      platform: servicePaths.logs(tenantId, environmentId, hotService.id, {
        logType: "SEARCH",
        text: settings.searchText,
        limit: 200,
      }),
      // Lines the driver wrote in between may be newer than the page's: any of the newest few will do.
      expect: (answer) => (answer.logs ?? []).slice(0, 5).map((line) => line.message),
    },
    {
      key: "cost",
      name: "cost overview",
      routeId: ROUTE_IDS.cost,
      // The organization's page (its 90 days of demo history), for the last 30 days as the page shows by default.
      app: `${appUrl}/cost`,
      platform: costPaths.overview(tenantId, { window: "30d" }),
      expect: (answer) => [answer.topServices?.[0]?.name],
    },
  ];
  const bearer = { headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" } };
  const results = [];
  const warnings = [];
  for (const scenario of scenarios.filter(({ key }) => settings.routes.includes(key))) {
    log(
      `measuring ${scenario.name}: ${settings.warmup} warm-up + ${settings.iterations} calls each of ` +
        "HTML page, navigation .data, poll .data, platform and platform 304, in turn each round",
    );
    // What a poll of an unchanged page costs the platform: the same call holding the answer's ETag (decision 065).
    const platformUrlOf = `${platformUrl}/api${scenario.platform}`;
    const etag = (await request(platformUrlOf, bearer)).response.headers.get("ETag");
    const calls = [
      {
        label: `${scenario.name} (app HTML)`,
        url: scenario.app,
        options: { jar, headers: { Accept: "text/html" } },
      },
      {
        label: `${scenario.name} (app navigation .data)`,
        url: singleFetchUrl(scenario.app, navigationRoutes(scenario.routeId)),
        options: { jar },
      },
      {
        label: `${scenario.name} (app poll .data)`,
        url: singleFetchUrl(scenario.app, pollRoutes(scenario.routeId)),
        options: { jar },
      },
      { label: `${scenario.name} (platform)`, url: platformUrlOf, options: bearer },
    ];
    if (etag) {
      calls.push({
        label: `${scenario.name} (platform, unchanged)`,
        url: platformUrlOf,
        options: { headers: { ...bearer.headers, "If-None-Match": etag } },
        status: 304,
        retag: true,
      });
    }
    const [html, navigation, poll, platform, unchanged = null] = await measureTogether(calls);
    // The app answers 200 even when a call behind a page fails (it shows the error on the page), so check that the
    // page and its data show what the platform answered.
    const expected = scenario.expect(JSON.parse(platform.body)).filter(Boolean);
    const answers = [
      ["page", pageText(html.body)],
      // turbo-stream writes strings as JSON does.
      ["navigation .data", jsonText(navigation.body)],
      ["poll .data", jsonText(poll.body)],
    ];
    for (const [what, text] of answers) {
      if (expected.length && !expected.some((value) => text.includes(value))) {
        warnings.push(
          `${scenario.name}: the app's ${what} does not show "${expected[0]}", which the platform answered`,
        );
      }
    }
    const ratio = (app) => app.result.p50 / platform.result.p50;
    results.push({
      name: scenario.name,
      app: html.result,
      navigation: navigation.result,
      poll: poll.result,
      platform: platform.result,
      unchanged: unchanged?.result ?? null,
      ratio: ratio(html),
      navigationRatio: ratio(navigation),
      pollRatio: ratio(poll),
    });
  }

  // Every page's other platform call: the environment names, to find the environment by name (before its own call).
  log(`measuring the environment names: ${settings.warmup} warm-up + ${settings.iterations} calls`);
  const environmentNames = (
    await measure(
      "environment names (platform)",
      `${platformUrl}/api${environmentPaths.list(tenantId, { totals: false })}`,
      bearer,
    )
  ).result;

  // 5. What a first visit to the list page downloads.
  const bytes = await firstVisitBytes(page, { jar, origin: appUrl });

  // 6. Report.
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    machine: { ...machine, loadAverageAtEnd: loadavg()[0] },
    settings: { iterations: settings.iterations, warmup: settings.warmup, searchText: settings.searchText },
    data: {
      services: seed.services,
      logLines: seed.logLines,
      detailsService: hotService,
      seededInMs: seed.seededInMs,
    },
    timings: results,
    cost,
    environmentNames,
    warnings,
    firstVisit: bytes,
    durationMs: Date.now() - startedAt,
  };
  writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);

  console.info("");
  console.info(
    `${seed.services} services and ${seed.logLines} log lines in environment "${environmentName}"; details and log search of ` +
      `${hotService.name} (${hotService.logLines} lines, ${hotService.timeoutLines} matching "${settings.searchText}"); ` +
      `${settings.iterations} calls after ${settings.warmup} warm-up, one at a time, times in ms; ` +
      `load average ${machine.loadAverageAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end ` +
      `(${machine.cpus} CPUs)`,
  );
  console.info("");
  console.info(
    table([
      ["route", "request", "p50", "p95", "× platform p50", "answer"],
      ...results.flatMap(
        ({ name, app, navigation, poll, platform, unchanged, ratio, navigationRatio, pollRatio }) => [
          [name, "HTML page", ms(app.p50), ms(app.p95), `${ratio.toFixed(1)}x`, kb(app.bytes)],
          [
            "",
            "navigation .data",
            ms(navigation.p50),
            ms(navigation.p95),
            `${navigationRatio.toFixed(1)}x`,
            kb(navigation.bytes),
          ],
          ["", "poll .data", ms(poll.p50), ms(poll.p95), `${pollRatio.toFixed(1)}x`, kb(poll.bytes)],
          ["", "platform", ms(platform.p50), ms(platform.p95), "", kb(platform.bytes)],
          ...(unchanged
            ? [["", "platform 304", ms(unchanged.p50), ms(unchanged.p95), "", kb(unchanged.bytes)]]
            : []),
        ],
      ),
    ]),
  );
  console.info(
    `platform: the environment names every page looks its environment up in (before its own call): ` +
      `p50 ${ms(environmentNames.p50)}, p95 ${ms(environmentNames.p95)} (${kb(environmentNames.bytes)})`,
  );
  console.info("");
  console.info(
    table([
      ["first visit to the list page", "files", "raw", "gzip"],
      ["JavaScript", bytes.js.count, kb(bytes.js.bytes), kb(bytes.js.gzipBytes)],
      ["CSS", bytes.css.count, kb(bytes.css.bytes), kb(bytes.css.gzipBytes)],
      ["HTML document", 1, kb(bytes.document.bytes), kb(bytes.document.gzipBytes)],
    ]),
  );
  console.info("");
  if (cost && !cost.met)
    warnings.push(`the cost overview's query missed its goal (p95 ≤ ${cost.goalP95Ms} ms)`);
  for (const warning of warnings) console.warn(`bench: warning: ${warning}`);
  console.info(`bench: results in ${resultsFile} (${((Date.now() - startedAt) / 1000).toFixed(0)} s in all)`);
}

/**
 * The single-fetch URL of a page's loader data, as Remix's client builds it: `<path>.data`, the page's query, and
 * `_routes` when only some of the page's routes are asked for.
 */
function singleFetchUrl(pageUrl, routeIds) {
  const url = new URL(pageUrl);
  url.pathname = url.pathname === "/" ? "/_root.data" : `${url.pathname.replace(/\/$/, "")}.data`;
  if (routeIds) url.searchParams.set("_routes", routeIds.join(","));
  return url.href;
}

/** The contract's paths, so the platform calls are exactly the ones the app makes. */
async function importContract() {
  const { register } = await import("tsx/esm/api");
  register();
  const [{ servicePaths }, { environmentPaths }, { costPaths }] = await Promise.all([
    import("../contract/services.ts"),
    import("../contract/environments.ts"),
    import("../contract/cost.ts"),
  ]);
  return { servicePaths, environmentPaths, costPaths };
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  console.error(`bench: failed: ${error instanceof Error ? error.message : error}`);
  if (stack && !(error instanceof Error && error.message.includes("--- stack output ---"))) {
    console.error(
      `--- last lines of the stack's output (${path.join(workDir, "stack.log")}) ---\n${stack.tail(20)}`,
    );
  }
  exitCode = 1;
} finally {
  await shutDown();
}
process.exit(exitCode);
