// The app's bundler: Remix's Vite plugin (Rollup), which drops per route what a route does not use, Mantine's
// components included (decision 064). The Remix options stay in remix.config.js, the one place that says them.
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";

const { serverDependenciesToBundle, ...remixOptions } = remixConfig;

/** Shared libraries in a few chunks, each fetched once and cached across deploys of the app's own code. */
function vendorChunk(id: string): string | undefined {
  if (!id.includes("/node_modules/")) return undefined;
  if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return "react";
  if (/\/node_modules\/(@remix-run|react-router|react-router-dom|@remix-run\/router|turbo-stream)\//.test(id))
    return "remix";
  return undefined;
}

export default defineConfig(({ command }) => ({
  // Built assets under /build/, as before: scripts/lib/app-gate.mjs serves them immutable. The dev server serves the
  // app and its modules from the root.
  base: command === "build" ? "/build/" : "/",
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  ssr: { noExternal: serverDependenciesToBundle },
  build: { rollupOptions: { output: { manualChunks: vendorChunk, experimentalMinChunkSize: 1000 } } },
  plugins: [remix({ ...remixOptions, buildDirectory: "build" })],
}));
