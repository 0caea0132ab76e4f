import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema";

/** The query builder both drivers share; code never needs to know which one is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type OpenDatabase = { db: Database; driver: "pglite" | "postgres"; close: () => Promise<void> };

/** Resolves to <repo>/platform/db/migrations from the source tree and from the bundle in build/platform. */
const migrationsFolder = fileURLToPath(new URL("../../platform/db/migrations", import.meta.url));

/**
 * Opens the platform database and applies pending migrations: PostgreSQL when `databaseUrl` is set,
 * otherwise PGlite persisted in `<dataDir>/pglite` (or in memory when `dataDir` is "memory").
 */
export async function openDb({
  databaseUrl,
  dataDir,
}: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<OpenDatabase> {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle connection the server closes (a restart, a failover, a dropped test database) is replaced by the
    // pool on the next query; without a listener its error would crash the process.
    pool.on("error", (error) => console.warn(`database: an idle connection was closed: ${error.message}`));
    const db = drizzlePostgres(pool, { schema });
    await migratePostgres(db, { migrationsFolder });
    return { db: db as unknown as Database, driver: "postgres", close: () => pool.end() };
  }
  let client: PGlite;
  if (dataDir === "memory") {
    client = new PGlite();
  } else {
    const directory = path.join(dataDir, "pglite");
    mkdirSync(directory, { recursive: true });
    client = new PGlite(directory);
  }
  return openPglite(client);
}

/** The platform database over an open PGlite client, with pending migrations applied. */
export async function openPglite(client: PGlite): Promise<OpenDatabase> {
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Database, driver: "pglite", close: () => client.close() };
}
