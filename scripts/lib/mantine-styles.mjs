// Which of Mantine's per-component style sheets (@mantine/core/styles/<Name>.css) a page needs: every Mantine
// component its route modules can render, followed through the app's own modules (lazily loaded parts included,
// server-only modules left out) and through Mantine's modules to the components they are built from. Each
// `<Name>.module.css.mjs` Mantine's code imports is the class names of `styles/<Name>.css`.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const nodeModules = path.join(root, "node_modules");

/** Static and dynamic import specifiers of a module's source, with the names it imports from each (none for `*`). */
function importsOf(source) {
  const found = [];
  const statement =
    /import\s+(type\s+)?([^'";]*?)\s*from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']|export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']|export\s+\*\s+from\s*["']([^"']+)["']/g;
  for (const match of source.matchAll(statement)) {
    if (match[1]) continue; // import type: erased
    const specifier = match[3] ?? match[4] ?? match[5] ?? match[7] ?? match[8];
    const named = /\{([^}]*)\}/.exec(match[2] ?? "")?.[1] ?? match[6] ?? "";
    const names = named
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith("type "))
      .map((name) => name.split(/\s+as\s+/)[0].trim());
    found.push({ specifier, names });
  }
  return found;
}

const extensions = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];
function resolveFile(base) {
  return (
    extensions
      .map((extension) => base + extension)
      .find((file) => existsSync(file) && statSync(file).isFile()) ?? null
  );
}

/** The app module a specifier names, or null for a package (or a file that is not code). */
function resolveApp(specifier, from) {
  let base;
  if (specifier.startsWith("~/")) base = path.join(root, "app", specifier.slice(2));
  else if (specifier.startsWith("#contract/"))
    base = path.join(root, "contract", specifier.slice("#contract/".length));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  if (/\.(css|svg|png|json)$/.test(base)) return null;
  return resolveFile(base);
}

const packageEntries = new Map();
/** The module of a Mantine package that exports `name` (from its ESM index). */
function mantineModuleOf(packageName, name) {
  if (!packageEntries.has(packageName)) {
    const index = path.join(nodeModules, packageName, "esm/index.mjs");
    const exports = new Map();
    for (const { specifier, names } of importsOf(readFileSync(index, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      for (const exported of names) exports.set(exported, path.resolve(path.dirname(index), specifier));
    }
    packageEntries.set(packageName, exports);
  }
  return packageEntries.get(packageName).get(name) ?? null;
}

const parsed = new Map();
/** A module's imports, read once. */
function importsOfFile(file) {
  if (!parsed.has(file)) parsed.set(file, importsOf(readFileSync(file, "utf8")));
  return parsed.get(file);
}

const mantinePackage = /^@mantine\/(core|dates|charts|notifications)$/;
const coreSheets = path.join(nodeModules, "@mantine/core/styles");

/**
 * The names of @mantine/core's style sheets (`styles/<Name>.css`) a module of the app can render: its own Mantine
 * components and those of every module it imports, lazily or not, except server-only modules, followed into
 * Mantine's own modules. The other Mantine packages' own sheets (dates, charts) are loaded with their parts.
 */
export function mantineSheetsOf(file) {
  const sheets = new Set();
  const seen = new Set();
  const queue = [path.resolve(root, file)];
  while (queue.length) {
    const current = queue.pop();
    if (seen.has(current)) continue;
    seen.add(current);
    const css = /([A-Za-z]+)\.module\.css\.mjs$/.exec(current);
    if (css && existsSync(path.join(coreSheets, `${css[1]}.css`))) sheets.add(css[1]);
    const inMantine = current.startsWith(nodeModules);
    for (const { specifier, names } of importsOfFile(current)) {
      if (mantinePackage.test(specifier)) {
        for (const name of names) {
          const module = mantineModuleOf(specifier, name);
          if (module) queue.push(module);
        }
      } else if (inMantine) {
        if (specifier.startsWith(".")) queue.push(path.resolve(path.dirname(current), specifier));
      } else {
        const target = resolveApp(specifier, current);
        if (target && !/\.server\.tsx?$/.test(target)) queue.push(target);
      }
    }
  }
  return sheets;
}

const classesOfSheet = new Map();
/** The class names a Mantine style sheet defines (`.m_1b7284a3`). */
function classesOf(sheet) {
  if (!classesOfSheet.has(sheet)) {
    const css = readFileSync(path.join(coreSheets, `${sheet}.css`), "utf8");
    classesOfSheet.set(sheet, [...new Set(css.match(/\.m_[0-9a-f]+/g) ?? [])]);
  }
  return classesOfSheet.get(sheet);
}

/**
 * The sheets `files` (a page's route modules) need whose classes `css` (the text of the page's style sheets) does not
 * define: the components would render unstyled.
 */
export function missingMantineSheets(files, css) {
  const needed = new Set([files].flat().flatMap((file) => [...mantineSheetsOf(file)]));
  return [...needed].filter((sheet) => classesOf(sheet).some((name) => !css.includes(name))).sort();
}
