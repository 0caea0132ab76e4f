import type { PlatformConfig } from "../config";
import type { Database } from "../db/index";
import { createNotifier } from "../notifications/outbox";
import type { SecretCipher } from "../secrets/cipher";
import { createCloning } from "./cloning";
import { createDeploys } from "./deploys";
import type { CloudDriver } from "./driver";
import { createJobRunner } from "./jobs";
import { createSimulatedDriver } from "./simulated/driver";

/**
 * The engine: the job runner with every job kind the platform has (clones and service deployments), and the cloud
 * driver deployments run on (the simulated one unless another is given). Their ends are announced through the
 * notification outbox (platform/notifications/), which the delivery worker posts from. The server starts it and stops it on
 * shutdown; the API creates and moves jobs in its own transactions and wakes the runner afterwards.
 */
export function createEngine({
  db,
  config,
  secrets,
  now = () => new Date(),
  driver = createSimulatedDriver(),
}: {
  db: Database;
  config: Pick<PlatformConfig, "engine" | "appUrl">;
  secrets: SecretCipher;
  now?: () => Date;
  driver?: CloudDriver;
}) {
  // Deployments and clones announce their ends to Slack and Teams, with links to the app's pages.
  const notify = createNotifier({ appUrl: config.appUrl });
  const deploys = createDeploys({ driver, secrets, settings: config.engine, notify });
  const cloning = createCloning({ secrets, settings: config.engine, deploys, notify });
  const runner = createJobRunner({
    db,
    kinds: [cloning.kind, deploys.kind],
    pollIntervalMs: config.engine.pollIntervalMs,
    now,
    // Retries back off like the steps: scaled, so tests at time scale 0 retry at once.
    retryDelayMs: (attempt) =>
      Math.round(Math.min(1000 * 2 ** (attempt - 1), 60_000) * config.engine.timeScale),
  });
  return { runner, cloning, deploys, driver, now };
}

export type Engine = ReturnType<typeof createEngine>;
