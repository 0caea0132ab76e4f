// `npm test`: typecheck, lint, unit tests, the production build and its first-visit byte budget, then the end-to-end
// tests in Debian's Chromium against the real stack.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(command, args) {
  console.info(`\n> ${[command, ...args].join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function ensureChromium() {
  if (existsSync(chromium)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing at ${chromium}. Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH, then run npm test again.`,
    );
    process.exit(1);
  }
  console.info("Chromium is missing: installing Debian's chromium package");
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "chromium"]);
}

run("npm", ["run", "-s", "typecheck"]);
run("npm", ["run", "-s", "lint"]);
run("npx", ["vitest", "run"]);
ensureChromium();
run("npm", ["run", "-s", "build"]);
run("node", ["scripts/check-first-visit-bytes.mjs"]);
run("node", ["scripts/check-production.mjs"]);
run("npx", ["playwright", "test"]);
