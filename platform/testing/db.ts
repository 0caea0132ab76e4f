import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDb, type OpenDatabase } from "../db/index";

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped again on close), so the same tests prove both drivers.
 */
export async function openTestDb(): Promise<OpenDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDb({ dataDir: "memory" });
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened = await openDb({ databaseUrl: url.toString(), dataDir: "memory" });
  return {
    ...opened,
    close: async () => {
      await opened.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A database that outlives its connections, to test a restart: PGlite in a temporary directory, or a new
 * database on the TEST_DATABASE_URL server. `open()` connects (again); `dispose()` removes it.
 */
export async function openReopenableTestDb(): Promise<{
  open: () => Promise<OpenDatabase>;
  dispose: () => Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), "platform-db-"));
    return {
      open: () => openDb({ dataDir }),
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    open: () => openDb({ databaseUrl: url.toString(), dataDir: "memory" }),
    dispose: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
