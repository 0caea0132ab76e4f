import { readFileSync } from "node:fs";
import path from "node:path";
import type { TestImages } from "../../platform/testing/container-engine";

/** What the e2e stack's engine (container-engine-service.ts) tells the specs. */
export type E2eEngine = { socketPath: string; images: TestImages };

/** The socket CONTAINER_SOCKETS lists: a link to the engine's own, made once it answers. */
export const engineSocketOf = (dir: string) => path.join(dir, "podman.sock");
export const engineFileOf = (dir: string) => path.join(dir, "engine.json");

/** The run's engine, for a spec: its socket as a container host names it, and the registry's test images. */
export function e2eEngine(): E2eEngine & { dockerHost: string } {
  const dir = process.env.E2E_ENGINE_DIR;
  if (!dir) throw new Error("E2E_ENGINE_DIR is set by playwright.config.ts");
  const engine = JSON.parse(readFileSync(engineFileOf(dir), "utf8")) as E2eEngine;
  return { ...engine, dockerHost: `unix://${engine.socketPath}` };
}
