// The browser build's chunks (decision 064). Rollup treats every route module as an entry of its own, so a module
// that a layout and some of its pages import becomes a small chunk apart, gzipped apart, although Remix always loads
// a page together with every layout above it. Here what every page under a layout loads anyway goes into one chunk
// with that layout: fewer files, and not one byte more on any page. The rest is Rollup's.
import path from "node:path";
import type { ManualChunkMeta, ModuleInfo } from "rollup";

/** A route of the Remix config: its id, its parent's id, its file under the app directory. */
export type ChunkRoute = { id: string; parentId?: string; file: string };

/** The few ESTree nodes read here: a module's top-level import and export statements. */
type Name = { type: string; name?: string; value?: unknown };
type Specifier = { type: string; imported?: Name; local: Name; exported?: Name };
type Statement = {
  type: string;
  source?: { value: unknown } | null;
  specifiers?: Specifier[];
  exported?: Name | null;
};

/** React and Remix: loaded by every page, changed only by an upgrade, so cached across deploys of the app. */
const VENDOR =
  /\/node_modules\/(react|react-dom|scheduler|@remix-run|react-router|react-router-dom|turbo-stream)\//;

const EVERYTHING = "*";
const nameOf = (node: Name) => (node.type === "Identifier" ? String(node.name) : String(node.value));
const statementsOf = (info: ModuleInfo) => (info.ast?.body ?? []) as unknown as Statement[];

/** Each import source of a module with the id it resolved to (Rollup lists them in the order they appear). */
function resolvedSources(info: ModuleInfo): Map<string, string> | undefined {
  const sources: string[] = [];
  for (const statement of statementsOf(info)) {
    const source = statement.source?.value;
    if (typeof source === "string" && !sources.includes(source)) sources.push(source);
  }
  if (sources.length !== info.importedIds.length) return undefined;
  return new Map(sources.map((source, index) => [source, info.importedIds[index] ?? ""]));
}

/** A module that only passes other modules' exports on, as `@mantine/core`'s index and a route's client module do. */
function isReExporter(info: ModuleInfo): boolean {
  return statementsOf(info).every(
    (statement) =>
      (statement.type === "ExportNamedDeclaration" && statement.source) ||
      statement.type === "ExportAllDeclaration" ||
      (statement.type === "ImportDeclaration" && statement.specifiers?.length === 0),
  );
}

/**
 * The modules that loading `starts` runs: their static imports, transitively, and with `dynamic` their dynamic
 * imports too. Through a module that only re-exports (a package's index) only the names asked for are followed:
 * taking `Button` from `@mantine/core` loads Button, not all of Mantine. A module whose imports cannot be matched to
 * their sources counts with all of them: a module too many is only less merging, never a wrong build.
 */
export function modulesLoadedBy(
  meta: Pick<ManualChunkMeta, "getModuleInfo">,
  starts: Iterable<string>,
  dynamic = false,
): Set<string> {
  const loaded = new Set<string>();
  const namesAsked = new Map<string, Set<string>>();
  const queue: Array<[id: string, name: string]> = [...starts].map((id) => [id, EVERYTHING]);
  const ask = (id: string | undefined, name: string) => {
    if (id) queue.push([id, name]);
  };
  while (queue.length) {
    const [id, name] = queue.pop()!;
    if (loaded.has(id)) continue;
    const info = meta.getModuleInfo(id);
    if (!info) continue;
    const sources = resolvedSources(info);
    if (sources && name !== EVERYTHING && isReExporter(info)) {
      const asked = namesAsked.get(id) ?? new Set();
      namesAsked.set(id, asked);
      if (asked.has(name)) continue;
      asked.add(name);
      for (const statement of statementsOf(info)) {
        const target = sources.get(String(statement.source?.value));
        if (statement.type === "ExportNamedDeclaration") {
          for (const specifier of statement.specifiers ?? [])
            if (nameOf(specifier.exported ?? specifier.local) === name) ask(target, nameOf(specifier.local));
        } else if (statement.type === "ExportAllDeclaration") {
          if (statement.exported) {
            if (nameOf(statement.exported) === name) ask(target, EVERYTHING);
          } else if (target && meta.getModuleInfo(target)?.exports?.includes(name)) ask(target, name);
        } else if (target && meta.getModuleInfo(target)?.moduleSideEffects) ask(target, EVERYTHING);
      }
      continue;
    }
    loaded.add(id);
    if (dynamic) for (const target of info.dynamicallyImportedIds) ask(target, EVERYTHING);
    if (!sources) {
      for (const target of info.importedIds) ask(target, EVERYTHING);
      continue;
    }
    for (const statement of statementsOf(info)) {
      const target = sources.get(String(statement.source?.value));
      if (!target) continue;
      const specifiers = statement.specifiers ?? [];
      if (statement.type === "ImportDeclaration" && specifiers.length > 0) {
        for (const specifier of specifiers) {
          if (specifier.type === "ImportSpecifier")
            ask(target, nameOf(specifier.imported ?? specifier.local));
          else ask(target, specifier.type === "ImportDefaultSpecifier" ? "default" : EVERYTHING);
        }
      } else if (statement.type === "ExportNamedDeclaration") {
        for (const specifier of specifiers) ask(target, nameOf(specifier.local));
      } else ask(target, EVERYTHING);
    }
  }
  return loaded;
}

/**
 * Rollup's `manualChunks` for the browser build: React and Remix in one chunk; then, from the root down, each layout
 * route with what it loads and its ancestors do not, leaving out any module that a page outside the layout (or code
 * such a page loads later) would load too. `routes` is called once the Remix config is resolved. entry.client stays
 * a chunk of its own: Remix imports it after the route modules, and its top level reads what they set.
 */
export function layoutChunks(appDirectory: string, routes: () => Record<string, ChunkRoute | undefined>) {
  let chunkOf: Map<string, string> | undefined;
  const assign = (meta: ManualChunkMeta) => {
    const all = [...meta.getModuleIds()];
    const table = Object.values(routes()).filter((route) => route !== undefined);
    const byId = new Map(table.map((route) => [route.id, route]));
    // A route's module in the browser build is its file with a query that Remix adds.
    const moduleOf = (route: ChunkRoute) => {
      const file = path.join(appDirectory, route.file);
      return all.find((id) => id.startsWith(`${file}?`)) ?? file;
    };
    const isUnder = (route: ChunkRoute | undefined, ancestorId: string): boolean =>
      route !== undefined && (route.id === ancestorId || isUnder(byId.get(route.parentId ?? ""), ancestorId));
    const depth = (route: ChunkRoute | undefined): number =>
      route?.parentId ? 1 + depth(byId.get(route.parentId)) : 0;
    const layouts = table
      .filter((route) => table.some((child) => child.parentId === route.id))
      .sort((a, b) => depth(a) - depth(b));
    // The vendor chunk with what it imports (CommonJS helpers): left to another chunk, they would make the two
    // chunks import each other, and React would run before the helpers it calls are defined.
    const entryClient = path.join(appDirectory, "entry.client.tsx");
    const vendor = modulesLoadedBy(
      meta,
      all.filter((id) => VENDOR.test(id)),
    );
    chunkOf = new Map([...vendor].map((id) => [id, "vendor"]));
    for (const layout of layouts) {
      const elsewhere = modulesLoadedBy(
        meta,
        table.filter((route) => !isUnder(route, layout.id)).map(moduleOf),
        true,
      );
      const name = `${path
        .basename(layout.file)
        .replace(/\.[jt]sx?$/, "")
        .replace(/[^\w.-]/g, "_")}-shared`;
      // The root's chunk holds what entry.client imports too, but not entry.client itself (see above).
      const entryImports = layout.parentId ? [] : (meta.getModuleInfo(entryClient)?.importedIds ?? []);
      for (const id of modulesLoadedBy(meta, [moduleOf(layout), ...entryImports]))
        if (!chunkOf.has(id) && !elsewhere.has(id)) chunkOf.set(id, name);
    }
  };
  return (id: string, meta: ManualChunkMeta): string | undefined => {
    if (!chunkOf) assign(meta);
    return chunkOf?.get(id);
  };
}
