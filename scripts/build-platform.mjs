// Bundles the embedded platform (platform/main.ts and what it imports from contract/) into build/platform/server.js.
// npm packages stay external: production installs them with `npm install --omit=dev`.
import { build } from "esbuild";

await build({
  entryPoints: ["platform/main.ts"],
  outfile: "build/platform/server.js",
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
});
console.info("platform: built build/platform/server.js");

// The command-line client (cli/main.ts) as one file with its packages inside: `node build/cli/cloud-console.mjs`
// runs wherever Node 20 does, with no npm install (a CI job can copy it out of the image).
await build({
  entryPoints: ["cli/main.ts"],
  outfile: "build/cli/cloud-console.mjs",
  bundle: true,
  // Packages written as CommonJS (yaml, under the contract's Helm values) require Node's modules.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
});
console.info("cli: built build/cli/cloud-console.mjs");
