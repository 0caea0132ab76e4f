import type { PlatformConfig } from "../config";
import type { Database } from "../db/index";
import type { SecretCipher } from "../secrets/cipher";
import { createCloning } from "./cloning";
import { createJobRunner } from "./jobs";

/**
 * The engine: the job runner with every job kind the platform has (clones today). The server starts it and stops
 * it on shutdown; the API creates and moves jobs in its own transactions and wakes the runner afterwards.
 */
export function createEngine({
  db,
  config,
  secrets,
  now = () => new Date(),
}: {
  db: Database;
  config: Pick<PlatformConfig, "engine">;
  secrets: SecretCipher;
  now?: () => Date;
}) {
  const cloning = createCloning({ secrets, settings: config.engine });
  const runner = createJobRunner({
    db,
    kinds: [cloning.kind],
    pollIntervalMs: config.engine.pollIntervalMs,
    now,
    // Retries back off like the steps: scaled, so tests at time scale 0 retry at once.
    retryDelayMs: (attempt) =>
      Math.round(Math.min(1000 * 2 ** (attempt - 1), 60_000) * config.engine.timeScale),
  });
  return { runner, cloning, now };
}

export type Engine = ReturnType<typeof createEngine>;
