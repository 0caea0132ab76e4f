// What a first visit to a page downloads besides the document: the scripts and style sheets its HTML names
// (<script src>, <link rel="modulepreload">, <link rel="stylesheet">) and the modules those scripts import statically
// (which a browser fetches before running them), each counted once, gzip-compressed with zlib's default level.
import { gzipSync } from "node:zlib";
import { describe, request } from "./http.mjs";

const attribute = (tag, name) =>
  new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined)
    ?.replace(/&amp;/g, "&");

/** The scripts and style sheets an HTML document links to, as absolute URLs. */
export function linkedAssets(html, pageUrl) {
  const scripts = new Set();
  const styles = new Set();
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, "src");
    if (src) scripts.add(new URL(src, pageUrl).href);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(tag, "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attribute(tag, "href");
    if (!href) continue;
    if (rel.includes("modulepreload")) scripts.add(new URL(href, pageUrl).href);
    if (rel.includes("stylesheet")) styles.add(new URL(href, pageUrl).href);
  }
  // Inline module scripts (Remix's entry) import the route modules and the manifest by URL.
  for (const [, body] of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const specifier of staticImports(body)) scripts.add(new URL(specifier, pageUrl).href);
  }
  return { scripts, styles };
}

/** Specifiers of static `import ... from "x"` / `import "x"` / `export ... from "x"` in (minified) JavaScript. */
export function staticImports(source) {
  const specifiers = [];
  for (const [, specifier] of source.matchAll(
    /(?:\bimport|\bexport)\s*(?:[\w*{}\s,$]*?\bfrom\s*)?["']([^"']+)["']/g,
  )) {
    if (/^(\.{0,2}\/|https?:)/.test(specifier) && /\.m?js(\?|$)/.test(specifier)) specifiers.push(specifier);
  }
  return specifiers;
}

/**
 * Fetches every script and style sheet of the page at `pageUrl` once (following static imports), and totals raw and
 * gzip bytes per kind. `jar` carries the session: the page itself needs a signed-in user.
 */
export async function firstVisitBytes(pageUrl, { jar, origin }) {
  const page = await request(pageUrl, { jar });
  if (page.status !== 200) throw new Error(`assets: ${describe(pageUrl, page)}`);
  const { scripts, styles } = linkedAssets(page.text(), pageUrl);
  const totals = {
    document: { count: 1, bytes: page.bytes.length, gzipBytes: gzipSync(page.bytes).length },
    js: { count: 0, bytes: 0, gzipBytes: 0, files: [] },
    css: { count: 0, bytes: 0, gzipBytes: 0, files: [] },
  };
  const seen = new Set();
  const queue = [...[...scripts].map((url) => ["js", url]), ...[...styles].map((url) => ["css", url])];
  while (queue.length) {
    const [kind, url] = queue.shift();
    if (seen.has(url)) continue;
    seen.add(url);
    const asset = await request(url, { jar });
    if (asset.status !== 200) throw new Error(`assets: ${describe(url, asset)}`);
    const gzipBytes = gzipSync(asset.bytes).length;
    const total = totals[kind];
    total.count += 1;
    total.bytes += asset.bytes.length;
    total.gzipBytes += gzipBytes;
    total.files.push({
      path: url.startsWith(origin) ? url.slice(origin.length) : url,
      bytes: asset.bytes.length,
      gzipBytes,
    });
    if (kind === "js") {
      for (const specifier of staticImports(asset.text())) queue.push(["js", new URL(specifier, url).href]);
    }
  }
  for (const kind of ["js", "css"]) totals[kind].files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return totals;
}
