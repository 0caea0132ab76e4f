// The e2e stack's container engine (issue 26): the engine tests' set-up (platform/testing/container-engine.ts,
// podman's service, a local registry that is also Docker Hub's mirror, the test images and the nginx:1.27 and
// postgres stand-ins) started in a process of its own, as one of playwright.config.ts's web servers, before the platform.
// The platform lists E2E_ENGINE_DIR/podman.sock in CONTAINER_SOCKETS before the engine exists, so that path is a
// link to the engine's own socket (the list compares paths, not what they link to). engine.json beside it tells
// the specs the registry's images. SIGTERM (Playwright, at the end) stops it all and removes what it started.
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { containerEngine } from "../../platform/testing/container-engine";
import { engineFileOf, engineSocketOf, type E2eEngine } from "./container-engine";

const dir = process.env.E2E_ENGINE_DIR;
if (!dir)
  throw new Error("E2E_ENGINE_DIR names where the e2e engine's socket link goes (playwright.config.ts)");

const { handle, start, stop } = containerEngine({ officialImages: ["nginx", "postgres"] });
let stopping = false;
const stopAll = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await stop().catch((error: unknown) => console.error(`engine: stopping failed: ${String(error)}`));
  rmSync(engineSocketOf(dir), { force: true });
  process.exit(code);
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stopAll(0));

try {
  const startedAt = Date.now();
  await start();
  rmSync(engineSocketOf(dir), { force: true });
  symlinkSync(handle.socketPath, engineSocketOf(dir));
  const described: E2eEngine = { socketPath: engineSocketOf(dir), images: handle.images };
  writeFileSync(engineFileOf(dir), JSON.stringify(described));
  console.info(`engine: ready on ${path.basename(handle.socketPath)} in ${Date.now() - startedAt} ms`);
} catch (error) {
  console.error(`engine: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
}
