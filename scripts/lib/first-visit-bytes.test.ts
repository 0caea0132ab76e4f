import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { firstVisitBytes, pagesOf } from "./first-visit-bytes.mjs";

const page = () => null;
const manifest = {
  entry: { module: "/build/entry.js", imports: ["/build/_shared/react.js"] },
  routes: {
    root: { id: "root", path: "", module: "/build/root.js", imports: ["/build/_shared/ui.js"] },
    "routes/_app": { id: "routes/_app", parentId: "root", module: "/build/app.js" },
    "routes/_app.list": {
      id: "routes/_app.list",
      parentId: "routes/_app",
      path: "list",
      module: "/build/list.js",
    },
    "routes/_app.list.export": {
      id: "routes/_app.list.export",
      parentId: "routes/_app",
      path: "list/export",
      module: "/build/export.js",
    },
    "routes/env": { id: "routes/env", parentId: "root", path: "env", module: "/build/env.js" },
    "routes/env._index": {
      id: "routes/env._index",
      parentId: "routes/env",
      index: true,
      module: "/build/env-index.js",
    },
  },
};
const routes = {
  root: { module: { default: page, links: () => [{ rel: "stylesheet", href: "/build/_assets/app.css" }] } },
  "routes/_app": { module: { default: page } },
  "routes/_app.list": { module: { default: page } },
  // A resource route (no component): not a page.
  "routes/_app.list.export": { module: { loader: () => null } },
  "routes/env": { module: { default: page } },
  "routes/env._index": { module: { default: page } },
};

describe("pagesOf", () => {
  it("lists the URLs a visit can end on, each with its route chain, leaving out layouts and resource routes", () => {
    expect(pagesOf(manifest, routes)).toEqual([
      { id: "routes/env._index", url: "/env", chain: ["root", "routes/env", "routes/env._index"] },
      { id: "routes/_app.list", url: "/list", chain: ["root", "routes/_app", "routes/_app.list"] },
    ]);
  });
});

describe("firstVisitBytes", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "first-visit-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("counts the entry, each matched route's modules, their static imports and style sheets once, gzip", async () => {
    const files: Record<string, string> = {
      "entry.js": 'import "./_shared/react.js";',
      "_shared/react.js": "export const react = 'react'.repeat(50);",
      "_shared/ui.js": 'import { react } from "./react.js"; export const ui = react;',
      // Reached only through a static import the manifest does not list.
      "_shared/icons.js": "export const icons = 'icons'.repeat(20);",
      "root.js": 'import "/build/_shared/ui.js"; export default 1;',
      "app.js": 'import { icons } from "./_shared/icons.js"; export default icons;',
      "list.js": 'const lazy = () => import("./_shared/charts.js"); export default lazy;',
      "_shared/charts.js": "export const charts = 'charts'.repeat(500);",
      "env.js": "export default 1;",
      "env-index.js": "export default 1;",
      "_assets/app.css": "body { margin: 0 }",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(directory, "public/build", file)), { recursive: true });
      writeFileSync(path.join(directory, "public/build", file), text);
    }
    mkdirSync(path.join(directory, "build/server"), { recursive: true });
    writeFileSync(
      path.join(directory, "build/server/index.js"),
      `const page = () => null;
export const publicPath = "/build/";
export const assetsBuildDirectory = "public/build";
export const assets = ${JSON.stringify(manifest)};
export const routes = {
  root: { module: { default: page, links: () => [{ rel: "stylesheet", href: "/build/_assets/app.css" }] } },
  "routes/_app": { module: { default: page } },
  "routes/_app.list": { module: { default: page } },
  "routes/_app.list.export": { module: {} },
  "routes/env": { module: { default: page } },
  "routes/env._index": { module: { default: page } },
};`,
    );
    const gzip = (file: string) => gzipSync(files[file] ?? "").length;

    const pages = await firstVisitBytes(directory);
    const list = pages.find((entry: { url: string }) => entry.url === "/list");
    if (!list) throw new Error("no /list page");

    const scripts = [
      "entry.js",
      "_shared/react.js",
      "root.js",
      "_shared/ui.js",
      "app.js",
      "_shared/icons.js",
      "list.js",
    ];
    expect(list.js.files.map((file: { href: string }) => file.href).sort()).toEqual(
      scripts.map((file) => `/build/${file}`).sort(),
    );
    expect(list.js.gzipBytes).toBe(scripts.reduce((sum, file) => sum + gzip(file), 0));
    expect(list.css).toMatchObject({ count: 1, gzipBytes: gzip("_assets/app.css") });
    expect(list.gzipBytes).toBe(list.js.gzipBytes + list.css.gzipBytes);
  });
});
