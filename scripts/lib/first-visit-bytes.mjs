// What a first visit to each page downloads besides the document, computed from the production build instead of
// over HTTP: Remix's <Scripts> preloads the entry module and, for every route the URL matches, the route module and
// the chunks it imports (the assets manifest lists them); <Links> adds each matched route's `css` and the style sheets
// its `links()` names. Every file is counted once, gzip-compressed with zlib's default level, as
// scripts/bench/assets.mjs counts a visit over HTTP. No server runs, so the figures are the same on every machine.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { staticImports } from "../bench/assets.mjs";

/** 1 KB = 1024 bytes, as in docs/benchmarks.md. */
export const KB = 1024;

/**
 * The pages of a Remix build: every route that renders (has a default export) and is what a URL ends on, i.e. not a
 * pathless layout and not a layout whose index route renders in its place. Each page lists its route chain from root.
 */
export function pagesOf(assets, routes) {
  const renders = (id) => typeof routes[id]?.module?.default === "function";
  const manifestRoutes = Object.values(assets.routes);
  const hasIndexChild = (id) =>
    manifestRoutes.some((route) => route.parentId === id && route.index && renders(route.id));
  const chainOf = (id) => {
    const chain = [];
    for (let route = assets.routes[id]; route; route = assets.routes[route.parentId]) chain.unshift(route);
    return chain;
  };
  return manifestRoutes
    .filter((route) => renders(route.id) && route.id !== "root")
    .filter((route) => route.index || (route.path !== undefined && !hasIndexChild(route.id)))
    .map((route) => {
      const chain = chainOf(route.id);
      const pattern = chain
        .map((entry) => entry.path)
        .filter(Boolean)
        .join("/");
      return { id: route.id, url: `/${pattern}`, chain: chain.map((entry) => entry.id) };
    })
    .sort((a, b) => a.url.localeCompare(b.url));
}

/** The style sheets a route adds to the document: its bundled `css` and the stylesheet links of `links()`. */
function styleSheetsOf(manifestRoute, routeModule) {
  const linked = (routeModule?.links?.() ?? [])
    .filter((link) => link.rel === "stylesheet" && typeof link.href === "string")
    .map((link) => link.href);
  return [...(manifestRoute.css ?? []), ...linked];
}

/**
 * Gzip bytes of the JavaScript and CSS a first visit to every page downloads. `buildDirectory` is the project root
 * holding `build/server/index.js`, whose assetsBuildDirectory holds what its publicPath serves.
 */
export async function firstVisitBytes(buildDirectory = process.cwd()) {
  const serverBuild = path.join(buildDirectory, "build/server/index.js");
  // Importing the server build validates the app's configuration (app/entry.server.tsx). Nothing here signs a cookie
  // or calls the platform, so throwaway secrets satisfy it when none are configured.
  process.env.SESSION_SECRET ??= "first-visit-bytes-".padEnd(32, "0");
  process.env.AUTH0_CLIENT_SECRET ??= "first-visit-bytes";
  const { assets, routes, publicPath, assetsBuildDirectory } = await import(pathToFileURL(serverBuild).href);
  const files = new Map();
  const fileOf = (href) => {
    if (!href.startsWith(publicPath)) throw new Error(`first visit: ${href} is not served by the app`);
    if (!files.has(href)) {
      const bytes = readFileSync(
        path.join(buildDirectory, assetsBuildDirectory, href.slice(publicPath.length)),
      );
      files.set(href, {
        href,
        bytes: bytes.length,
        gzipBytes: gzipSync(bytes).length,
        text: bytes.toString(),
      });
    }
    return files.get(href);
  };

  return pagesOf(assets, routes).map((page) => {
    const scripts = new Set();
    const queue = [assets.entry.module, ...assets.entry.imports];
    const styles = new Set();
    for (const id of page.chain) {
      const route = assets.routes[id];
      queue.push(route.module, ...(route.imports ?? []));
      for (const href of styleSheetsOf(route, routes[id]?.module)) styles.add(href);
    }
    // The manifest lists a route's chunks; following their static imports as well keeps the count right should a
    // chunk import one the manifest leaves out.
    while (queue.length) {
      const href = queue.shift();
      if (scripts.has(href)) continue;
      scripts.add(href);
      for (const specifier of staticImports(fileOf(href).text)) {
        queue.push(new URL(specifier, `http://app${href}`).pathname);
      }
    }
    const total = (hrefs) => {
      const list = [...hrefs].map(fileOf);
      return {
        count: list.length,
        gzipBytes: list.reduce((sum, file) => sum + file.gzipBytes, 0),
        files: list
          .map(({ href, gzipBytes }) => ({ href, gzipBytes }))
          .sort((a, b) => b.gzipBytes - a.gzipBytes),
      };
    };
    const js = total(scripts);
    // The style sheets' text, for the check that each Mantine component the page renders has its styles.
    const css = { ...total(styles), text: [...styles].map((href) => fileOf(href).text).join("\n") };
    return { ...page, js, css, gzipBytes: js.gzipBytes + css.gzipBytes };
  });
}
