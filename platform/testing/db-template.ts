import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDb } from "../db/index";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database that each test file's database is copied from (TEST_DATABASE_URL runs). */
    testDbTemplate: string;
    /** A migrated PGlite data dir, dumped to this file, that each test file's PGlite loads (PGlite runs). */
    testDbDump: string;
  }
}

/**
 * Vitest global set-up: migrates one database per run, so a test file copies it instead of running every
 * migration again (on PostgreSQL `CREATE DATABASE … TEMPLATE`, on PGlite a loaded data-dir dump).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A project may clear TEST_DATABASE_URL for its workers (vitest.config.ts: the PGlite parity set).
  const projectEnv = project.config.env ?? {};
  const serverUrl =
    "TEST_DATABASE_URL" in projectEnv ? projectEnv.TEST_DATABASE_URL : process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `template_${randomUUID().replaceAll("-", "")}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const migrated = await openDb({ databaseUrl: url.toString(), dataDir: "memory" });
    await migrated.close();
    project.provide("testDbTemplate", template);
    project.provide("testDbDump", "");
    return () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  }
  const directory = await mkdtemp(path.join(tmpdir(), "platform-db-template-"));
  const migrated = await openDb({ dataDir: "memory" });
  const client = (migrated.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir("none");
  await migrated.close();
  const dumpFile = path.join(directory, "pgdata.tar");
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide("testDbTemplate", "");
  project.provide("testDbDump", dumpFile);
  return () => rm(directory, { recursive: true, force: true });
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
