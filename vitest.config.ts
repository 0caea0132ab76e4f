import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const platformTests = "platform/**/*.test.ts";
const engineTests = "platform/**/*.engine.test.ts";
const databaseTemplate = "platform/testing/db-template.ts";
/** The egress policy lets the tests' stand-in servers on loopback through (platform/lib/egress.ts). */
const outboundToLoopback = "platform/testing/egress.ts";
/**
 * When the platform suite runs on PostgreSQL (TEST_DATABASE_URL, as `npm test` does where PostgreSQL 15 is
 * installed), these also run on PGlite, the embedded default: the migrations, the job runner's locking, a restart
 * from a data dir, and the API end to end with tenant isolation.
 */
const pgliteParity = [
  "platform/**/jobs.test.ts",
  "platform/**/cloning.restart.test.ts",
  "platform/**/app.test.ts",
  "platform/**/tenant-isolation.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "#contract": fileURLToPath(new URL("./contract", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Vitest's default is one fewer than the cores: a single worker on a 2-core machine.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["{app,contract,scripts,tests/unit}/**/*.test.{ts,tsx}"] },
      },
      {
        extends: true,
        test: {
          name: "platform",
          include: [platformTests],
          exclude: [engineTests],
          globalSetup: [databaseTemplate],
          setupFiles: [outboundToLoopback],
        },
      },
      {
        // The command-line client against the embedded platform, served on a port (cli/cli.test.ts).
        extends: true,
        test: {
          name: "cli",
          include: ["cli/**/*.test.ts"],
          globalSetup: [databaseTemplate],
          setupFiles: [outboundToLoopback],
        },
      },
      {
        // The tests on a real container engine: each file starts its own podman service, but all of them share
        // root's one image store, where two files at once have made podman fail a build ("layer not known") or
        // forget a registry is plain HTTP. They run one file at a time, in one process, beside the other projects.
        extends: true,
        test: {
          name: "platform-engine",
          include: [engineTests],
          globalSetup: [databaseTemplate],
          setupFiles: [outboundToLoopback],
          poolOptions: { forks: { singleFork: true } },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: "platform-pglite",
                include: pgliteParity,
                globalSetup: [databaseTemplate],
                setupFiles: [outboundToLoopback],
                env: { TEST_DATABASE_URL: "" },
              },
            },
          ]
        : []),
    ],
  },
});
