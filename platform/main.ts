import { loadPlatformConfig } from "./lib/config";
import { setContainerSockets } from "./lib/container-sockets";
import { setOutboundAllowList } from "./lib/egress";
import { openDb } from "./db/index";
import {
  isFreshPgliteDataDir,
  PREPARE_DATABASE_ARGUMENT,
  prepareDatabase,
  prepareDatabaseInChildProcess,
} from "./seed/prepare";
import { startPlatform } from "./server";

const config = loadPlatformConfig();
// Once, before anything calls out: the internal addresses a tenant's connections and chart repositories may reach.
setOutboundAllowList(config.outboundAllow);
// And the container engines' sockets they may name (none unless listed).
setContainerSockets(config.containerSockets);

if (process.argv.includes(PREPARE_DATABASE_ARGUMENT)) {
  const database = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await prepareDatabase(database, config);
  await database.close();
  process.exit(0);
}

// A new PGlite data dir is created and seeded by a short-lived process, so the server never carries the memory
// that work grew (docs/decisions/014-first-visit-bytes.md).
if (isFreshPgliteDataDir(config)) await prepareDatabaseInChildProcess();

const platform = await startPlatform(config);
console.info(
  `platform: listening on ${config.publicUrl} (API ${config.publicUrl}/api, issuer ${config.issuer})`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    platform.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
