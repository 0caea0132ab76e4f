import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./processes.mjs";

/** Where Debian's postgresql-15 package puts its server binaries. */
export const postgresBin = process.env.POSTGRES_BIN ?? "/usr/lib/postgresql/15/bin";

export function postgresInstalled() {
  return existsSync(path.join(postgresBin, "initdb"));
}

/** initdb refuses to run as root: as root, the cluster belongs to the package's postgres user. */
function asClusterOwner(command) {
  const [file, args] =
    process.getuid?.() === 0 ? ["su", ["postgres", "-s", "/bin/sh", "-c", command]] : ["sh", ["-c", command]];
  const result = spawnSync(file, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} failed:\n${result.stdout}${result.stderr}`);
}

/**
 * A throwaway PostgreSQL server in a temporary directory on a free loopback port, tuned for tests (no fsync:
 * nothing here needs to survive a crash). `stop()` ends it and removes the directory.
 */
export async function startThrowawayPostgres() {
  const directory = mkdtempSync(path.join(tmpdir(), "test-postgres-"));
  chmodSync(directory, 0o777);
  const data = path.join(directory, "data");
  const port = await freePort();
  const bin = (name) => path.join(postgresBin, name);
  asClusterOwner(`${bin("initdb")} -D ${data} -U postgres --auth=trust >/dev/null`);
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  asClusterOwner(
    `${bin("pg_ctl")} -D ${data} -o '${options}' -l ${directory}/postgres.log -w start >/dev/null`,
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        asClusterOwner(`${bin("pg_ctl")} -D ${data} -m immediate stop >/dev/null`);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
