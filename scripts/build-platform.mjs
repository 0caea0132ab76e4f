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
