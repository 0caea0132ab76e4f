// The platform's folders import each other without cycles (docs/decisions/040-platform-layers.md): the layers'
// order is what eslint.config.js checks file by file; this checks that the domain modules, which may import each
// other, never do so in a loop. Tests and platform/testing/ are left out, as the lint rule leaves them out.
// Usage: node scripts/check-platform-layers.mjs   (exit code 1 and the loops when there are some)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "platform");
const folderOf = (file) => path.relative(root, file).split(path.sep)[0] ?? "";

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

/** folder -> folder -> the imports that tie them, file by file. */
const edges = new Map();
for (const file of sources(root)) {
  const from = folderOf(file);
  // The composition root's own files (main.ts, server.ts) and the test support are no domain.
  if (from === "testing" || from.includes(".")) continue;
  const text = readFileSync(file, "utf8");
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = path.resolve(path.dirname(file), specifier);
    if (!target.startsWith(root + path.sep)) continue;
    const to = folderOf(target);
    if (to === from || to.includes(".")) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const ties = edges.get(from);
    if (!ties.has(to)) ties.set(to, []);
    ties.get(to).push(`${path.relative(root, file)} -> ${specifier}`);
  }
}

// Tarjan's strongly connected components: a component of more than one folder is a loop.
let index = 0;
const indexOf = new Map();
const lowOf = new Map();
const stack = [];
const onStack = new Set();
const loops = [];
function visit(folder) {
  indexOf.set(folder, index);
  lowOf.set(folder, index);
  index += 1;
  stack.push(folder);
  onStack.add(folder);
  for (const next of edges.get(folder)?.keys() ?? []) {
    if (!indexOf.has(next)) {
      visit(next);
      lowOf.set(folder, Math.min(lowOf.get(folder), lowOf.get(next)));
    } else if (onStack.has(next)) {
      lowOf.set(folder, Math.min(lowOf.get(folder), indexOf.get(next)));
    }
  }
  if (lowOf.get(folder) === indexOf.get(folder)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) loops.push(component.sort());
  }
}
for (const folder of edges.keys()) if (!indexOf.has(folder)) visit(folder);

if (loops.length) {
  for (const loop of loops) {
    console.error(`platform: these folders import each other in a loop: ${loop.join(", ")}`);
    for (const from of loop) {
      for (const [to, ties] of edges.get(from) ?? []) {
        if (loop.includes(to)) for (const tie of ties) console.error(`  ${tie}`);
      }
    }
  }
  process.exit(1);
}
console.info(`platform: ${edges.size} folders, no import loops between them`);
