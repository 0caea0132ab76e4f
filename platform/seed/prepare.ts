import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { PlatformConfig } from "../lib/config";
import { secretCipherFor } from "../lib/cipher";
import type { OpenDatabase } from "../db/index";
import { ensureRoles } from "../db/roles";
import { seedDemoData } from "./demo-data";
import { connectThisMachine } from "./this-machine";

/** The argument that makes platform/main.ts prepare the database and exit instead of serving. */
export const PREPARE_DATABASE_ARGUMENT = "--prepare-database";

/** Migrations, the role catalogue and (when configured) the demo data: what a database needs before it serves. */
export async function prepareDatabase(database: OpenDatabase, config: PlatformConfig): Promise<void> {
  await ensureRoles(database.db);
  if (!config.seedDemoData) return;
  if (await seedDemoData(database.db, { secrets: secretCipherFor(config) })) {
    console.info("platform: demo data seeded");
  }
  if (!config.seedContainerHost) return;
  const thisMachine = await connectThisMachine(database.db, { sockets: config.containerSockets });
  if (thisMachine) console.info(`platform: ${thisMachine}`);
}

/**
 * A PGlite data dir that does not exist yet. Creating it (migrations, demo data) grows PGlite's WebAssembly memory,
 * which never shrinks: done in the server's own process it stayed about 480 MB heavier for its whole life.
 */
export function isFreshPgliteDataDir(config: PlatformConfig): boolean {
  return (
    !config.databaseUrl &&
    config.dataDir !== "memory" &&
    !existsSync(path.join(config.dataDir, "pglite", "PG_VERSION"))
  );
}

/** Runs this entry point again with PREPARE_DATABASE_ARGUMENT and waits for it: a short-lived process does the work. */
export async function prepareDatabaseInChildProcess(): Promise<void> {
  const [entry] = process.argv.slice(1);
  if (!entry) throw new Error("platform: cannot tell which script to run to prepare the database");
  const child = spawn(process.execPath, [...process.execArgv, entry, PREPARE_DATABASE_ARGUMENT], {
    stdio: "inherit",
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`platform: preparing the database failed (exit code ${code})`);
}
