import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { openDb, openPglite, type OpenDatabase } from "../db/index";
import { adminQuery } from "./db-template";

let dump: Promise<Blob> | undefined;

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped again on close), so the same tests prove both drivers.
 * Both are copies of the run's migrated template (db-template.ts), so no file runs the migrations again.
 */
export async function openTestDb(): Promise<OpenDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dumpFile = inject("testDbDump");
    if (!dumpFile) return openDb({ dataDir: "memory" });
    dump ??= readFile(dumpFile).then((bytes) => new Blob([bytes]));
    return openPglite(new PGlite({ loadDataDir: await dump }));
  }
  const { name, url } = await createDatabase(serverUrl);
  const opened = await openDb({ databaseUrl: url, dataDir: "memory" });
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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
  const { name, url } = await createDatabase(serverUrl);
  return {
    open: () => openDb({ databaseUrl: url, dataDir: "memory" }),
    dispose: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** A new database on the server: a copy of the run's migrated template when there is one. */
async function createDatabase(serverUrl: string): Promise<{ name: string; url: string }> {
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  const template = inject("testDbTemplate");
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}
