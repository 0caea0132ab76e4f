import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { ServerResponse } from "node:http";

/**
 * Inter for the sign-in and sign-up pages, as the app uses it (SPEC §9): the latin subset of the two weights the
 * pages use (about 24 KB each), served by the provider itself so its content security policy stays 'self' only.
 */
export const FONT_WEIGHTS = [400, 600] as const;
type FontWeight = (typeof FONT_WEIGHTS)[number];

export function fontPath(weight: FontWeight): string {
  return `/assets/inter-latin-${weight}-normal.woff2`;
}

const require = createRequire(import.meta.url);
const fontFiles = new Map(
  FONT_WEIGHTS.map((weight) => [
    fontPath(weight),
    require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff2`),
  ]),
);
const loaded = new Map<string, Promise<Buffer>>();

/** Answers a font path with its file (read once), or returns false for any other path. */
export async function serveFont(pathname: string, res: ServerResponse): Promise<boolean> {
  const file = fontFiles.get(pathname);
  if (!file) return false;
  let font = loaded.get(pathname);
  if (!font) {
    font = readFile(file);
    loaded.set(pathname, font);
  }
  const body = await font;
  res.writeHead(200, {
    "Content-Type": "font/woff2",
    "Content-Length": String(body.byteLength),
    // The file belongs to the pinned @fontsource/inter version: a day's caching spans any sign-in.
    "Cache-Control": "public, max-age=86400",
  });
  res.end(body);
  return true;
}
