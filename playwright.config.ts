import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { READY_TIMEOUT_MS } from "./scripts/lib/processes.mjs";
import { engineSocketOf } from "./tests/setup/container-engine";
import { motoServerCommand } from "./tests/setup/moto-server";

// One fresh data dir per run, shared by the config's copies in the worker processes through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "cloud-console-e2e-"));
// The run's container engine (issue 26): its socket link and engine.json (tests/setup/container-engine-service.ts).
process.env.E2E_ENGINE_DIR ??= mkdtempSync(path.join(tmpdir(), "cloud-console-e2e-engine-"));
// The demo users' app sessions, signed in once a run by the global set-up and reused by signIn().
process.env.E2E_AUTH_DIR ??= mkdtempSync(path.join(tmpdir(), "cloud-console-e2e-auth-"));

const appPort = Number(process.env.E2E_APP_PORT ?? 3310);
const platformPort = Number(process.env.E2E_PLATFORM_PORT ?? 4310);
export const appUrl = `http://localhost:${appPort}`;
export const platformUrl = `http://localhost:${platformPort}`;
/** moto_server stands in for AWS: the platform assumes roles and scans accounts there (terraform-*.spec.ts). */
const motoPort = Number(process.env.E2E_MOTO_PORT ?? 5310);
export const motoEndpoint = `http://127.0.0.1:${motoPort}`;

export default defineConfig({
  testDir: "tests/e2e",
  // After the web servers are up: signs each demo user in once and saves the session (tests/setup/sign-in.ts).
  globalSetup: "./tests/setup/sign-in.global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  // Each container podman starts or stops adds or removes a network interface, and Chromium aborts the loads then in
  // flight (ERR_NETWORK_CHANGED): the specs that deploy on the run's engine run after all the others, by themselves.
  projects: [
    { name: "simulated", testIgnore: /(containers|previews)\.spec\.ts$/ },
    { name: "containers", testMatch: /(containers|previews)\.spec\.ts$/, dependencies: ["simulated"] },
  ],
  use: {
    baseURL: appUrl,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      command: `${motoServerCommand()} -H 127.0.0.1 -p ${motoPort}`,
      url: `${motoEndpoint}/moto-api/data.json`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "ignore",
    },
    {
      // A real container engine for the run (podman's service, a registry mirroring Docker Hub's nginx:1.27):
      // containers.spec.ts deploys on it. It stops, removing what it started, when the run ends.
      command: "node --import tsx tests/setup/container-engine-service.ts",
      wait: { stdout: /^engine: ready/m },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: "node scripts/start.mjs",
      // The app and the platform start at once; the script says "ready" once both answer.
      wait: { stdout: /^start: ready at /m },
      reuseExistingServer: false,
      // start.mjs itself waits as long for the app and the platform (a first start migrates and seeds), so it never
      // gives up first.
      timeout: READY_TIMEOUT_MS,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        DATA_DIR: process.env.E2E_DATA_DIR,
        PORT: String(appPort),
        PLATFORM_PORT: String(platformPort),
        // Terraform generation assumes the read-only role in moto, as it would in AWS.
        TERRAFORM_SCANNER: "assume-role",
        AWS_ENDPOINT_URL: motoEndpoint,
        AWS_ACCESS_KEY_ID: "testing",
        AWS_SECRET_ACCESS_KEY: "testing",
        AWS_REGION: "us-east-1",
        TERRAFORM_ROLE_POLL_SECONDS: "1",
        TERRAFORM_ROLE_WAIT_SECONDS: "120",
        // The stand-in providers the specs start (fake GitHub, Jira) listen on loopback: the egress policy lets
        // loopback through here only (decision 042).
        OUTBOUND_ALLOW: "127.0.0.0/8, ::1",
        // The run's engine, which a user may connect as "This machine" (containers.spec.ts). Acme gets no
        // connection to it from the seed: the other specs expect its environments on the simulated cloud.
        CONTAINER_SOCKETS: engineSocketOf(process.env.E2E_ENGINE_DIR),
        SEED_CONTAINER_HOST: "false",
        // A clone whose name contains fail-<step> fails there (environments-clone.spec.ts), and a service whose
        // name contains fail-deploy fails every deployment (services-operate.spec.ts).
        ENGINE_FAILURE_INJECTION: "true",
        // Deployments and clone steps at a fifth of their demo durations: a deploy takes seconds.
        ENGINE_TIME_SCALE: "0.2",
        // Busy pages look again every 500 ms instead of SPEC's 5 s: a state the engine reached shows at once.
        POLL_INTERVAL_MS: "500",
        // Usage accrued and budgets checked every 2 s (a minute by default): a new budget's alerts show at once.
        COST_ACCRUAL_INTERVAL_MS: "2000",
      },
    },
  ],
});
