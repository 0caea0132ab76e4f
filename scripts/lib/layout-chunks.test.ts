import { rollup, type OutputChunk, type Plugin } from "rollup";
import { describe, expect, it } from "vitest";
import { layoutChunks, type ChunkRoute } from "./layout-chunks";

// A small app in memory, as Remix's browser build sees one: entry.client and every route module are entries.
const files: Record<string, string> = {
  "/app/entry.client.tsx": `import "./root.tsx"; console.log("hydrate");`,
  "/app/root.tsx": `import { x } from "/lib/index.js"; import { render } from "/node_modules/react/index.js";
    import { helper } from "/helpers.js"; export default () => [x(), render(), helper()];`,
  // React, and a helper that it and the app import (as Vite's CommonJS helpers are).
  "/node_modules/react/index.js": `import { helper } from "/helpers.js"; export const render = () => helper();`,
  "/helpers.js": `export const helper = () => console.log("helper");`,
  "/app/routes/_app.tsx": `import { y } from "/lib/index.js"; import { shell } from "/app/shell.js";
    import { shared } from "/app/shared.js"; import { both } from "/app/both.js";
    export default () => [y(), shell(), shared(), both()];`,
  "/app/routes/_app.a.tsx": `import { shared } from "/app/shared.js"; export default () => shared();`,
  "/app/routes/_app.b.tsx": `import { page } from "/app/page.js"; export default () => page();`,
  "/app/routes/outside.tsx": `import { z } from "/lib/index.js"; import { both } from "/app/both.js";
    export default () => [z(), both()];`,
  // A package's index that only re-exports, as @mantine/core's does.
  "/lib/index.js": `export { x } from "./x.js"; export { y } from "./y.js"; export { z } from "./z.js";`,
  "/lib/x.js": `export const x = () => console.log("x");`,
  "/lib/y.js": `export const y = () => console.log("y");`,
  "/lib/z.js": `export const z = () => console.log("z");`,
  "/app/shell.js": `export const shell = () => console.log("shell");`,
  "/app/shared.js": `export const shared = () => console.log("shared by the layout and a page");`,
  "/app/both.js": `export const both = () => console.log("in the shell and outside it");`,
  "/app/page.js": `export const page = () => console.log("page");`,
};
const routes: Record<string, ChunkRoute> = {
  root: { id: "root", file: "root.tsx" },
  "routes/_app": { id: "routes/_app", parentId: "root", file: "routes/_app.tsx" },
  "routes/_app.a": { id: "routes/_app.a", parentId: "routes/_app", file: "routes/_app.a.tsx" },
  "routes/_app.b": { id: "routes/_app.b", parentId: "routes/_app", file: "routes/_app.b.tsx" },
  "routes/outside": { id: "routes/outside", parentId: "root", file: "routes/outside.tsx" },
};
const inMemory: Plugin = {
  name: "in-memory",
  resolveId: (source, importer) => new URL(source, `file://${importer ?? "/"}`).pathname,
  load: (id) => files[id],
};

async function build() {
  const bundle = await rollup({
    input: Object.keys(files).filter((id) => id.startsWith("/app/") && id.endsWith(".tsx")),
    plugins: [inMemory],
  });
  const { output } = await bundle.generate({
    format: "es",
    manualChunks: layoutChunks("/app", () => routes),
    onlyExplicitManualChunks: true,
  });
  const chunks = output.filter((file): file is OutputChunk => file.type === "chunk");
  const chunkOf = (id: string) => chunks.find((chunk) => id in chunk.modules)?.fileName;
  /** The modules a page's first visit runs: its chunk and every chunk that one imports, transitively. */
  const loadedBy = (fileNames: string[]) => {
    const seen = new Set<string>();
    const queue = [...fileNames];
    while (queue.length) {
      const fileName = queue.pop();
      const chunk = chunks.find((each) => each.fileName === fileName);
      if (!chunk || seen.has(chunk.fileName)) continue;
      seen.add(chunk.fileName);
      queue.push(...chunk.imports);
    }
    return chunks.filter((chunk) => seen.has(chunk.fileName)).flatMap((chunk) => Object.keys(chunk.modules));
  };
  return { chunks, chunkOf, loadedBy };
}

describe("layoutChunks", () => {
  it("keeps React's chunk with what React imports, so that no two chunks import each other", async () => {
    const { chunks, chunkOf } = await build();
    expect(chunkOf("/helpers.js")).toBe(chunkOf("/node_modules/react/index.js"));
    for (const chunk of chunks)
      for (const imported of chunk.imports)
        expect(chunks.find((other) => other.fileName === imported)?.imports).not.toContain(chunk.fileName);
  });

  it("puts what every page under a layout loads in one chunk with the layout, instead of one chunk per sharing", async () => {
    const { chunkOf } = await build();
    const shell = chunkOf("/app/routes/_app.tsx");
    expect(chunkOf("/app/shared.js")).toBe(shell);
    expect(chunkOf("/app/shell.js")).toBe(shell);
    expect(chunkOf("/lib/y.js")).toBe(shell);
    expect(chunkOf("/lib/x.js")).toBe(chunkOf("/app/root.tsx"));
    // Remix imports entry.client after the route modules: its top level must not run when they load.
    expect(chunkOf("/app/entry.client.tsx")).not.toBe(chunkOf("/app/root.tsx"));
  });

  it("follows a package's index to the exports taken, and loads no page with code it does not use", async () => {
    const { chunkOf, loadedBy } = await build();
    const outside = loadedBy([chunkOf("/app/entry.client.tsx")!, chunkOf("/app/routes/outside.tsx")!]);
    expect(outside).toContain("/lib/z.js");
    expect(outside).toContain("/app/both.js");
    expect(outside).not.toContain("/lib/y.js");
    expect(outside).not.toContain("/app/shell.js");
    const root = loadedBy([chunkOf("/app/entry.client.tsx")!]);
    expect(root).not.toContain("/lib/y.js");
    expect(root).not.toContain("/lib/z.js");
    // Used in the shell and outside it: in neither's chunk, loaded by both.
    expect(chunkOf("/app/both.js")).not.toBe(chunkOf("/app/routes/_app.tsx"));
  });
});
