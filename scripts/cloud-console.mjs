#!/usr/bin/env node
// `cloud-console` (package.json "bin"): the command-line client of cli/. It runs the bundle `npm run build` makes
// (build/cli/cloud-console.mjs, also in the production image) when there is one, else the TypeScript source
// through tsx, as in a development checkout.
import { existsSync } from "node:fs";

const bundle = new URL("../build/cli/cloud-console.mjs", import.meta.url);
if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../cli/main.ts", import.meta.url).href);
}
