// The app's bundler: Remix's Vite plugin (Rollup), which drops per route what a route does not use, Mantine's
// components included (decision 064). The Remix options stay in remix.config.js, the one place that says them.
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";
import { layoutChunks, type ChunkRoute } from "./scripts/lib/layout-chunks";

const { serverDependenciesToBundle, ...remixOptions } = remixConfig;
const appDirectory = new URL("./app", import.meta.url).pathname;

/** The routes as Remix resolved them, which the browser build's chunks follow (scripts/lib/layout-chunks.ts). */
let routes: Record<string, ChunkRoute | undefined> = {};

export default defineConfig(({ command, isSsrBuild }) => ({
  // Built assets under /build/, as before: scripts/lib/app-gate.mjs serves them immutable. The dev server serves the
  // app and its modules from the root.
  base: command === "build" ? "/build/" : "/",
  resolve: { alias: { "~": appDirectory } },
  ssr: { noExternal: serverDependenciesToBundle },
  build: {
    rollupOptions: {
      output: isSsrBuild
        ? {}
        : // Only the modules layoutChunks names go to its chunks; Rollup would otherwise add their imports too.
          { manualChunks: layoutChunks(appDirectory, () => routes), onlyExplicitManualChunks: true },
    },
  },
  plugins: [
    remix({
      ...remixOptions,
      buildDirectory: "build",
      presets: [
        {
          name: "layout-chunks",
          remixConfigResolved({ remixConfig: resolved }) {
            routes = resolved.routes;
          },
        },
      ],
    }),
  ],
}));
