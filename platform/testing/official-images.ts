import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { tarOf } from "./tar";

/**
 * Stand-ins for official Docker Hub images, for the containers driver's tests (no internet here): each keeps its
 * official image's interface (port, variables, data directory) and is built from this machine's own binaries,
 * then pushed to the test engine's Docker Hub mirror under the official name (platform/testing/container-engine.ts).
 * - `nginx` → `nginx:1.27`: busybox httpd on port 80, `/` answering a "Welcome to nginx!" page that includes
 *   $GREETING when it is set (the web-application fastboot stack deploys `nginx:1.27`).
 * - `postgres` → `postgres:16` (and `:17`, the create form's default): this machine's PostgreSQL 15 with an
 *   entrypoint honouring POSTGRES_PASSWORD, POSTGRES_USER and POSTGRES_DB: initdb on an empty
 *   /var/lib/postgresql/data, then postgres on 5432 with password (scram) logins from anywhere.
 * - `redis` → `redis:7`: this machine's redis-server, its arguments as the official image takes them
 *   (`redis-server --requirepass …`), data in /data.
 * - `valkey` → `valkey/valkey:8.0` (and `:7.2`): the same redis-server (Debian 12 has no Valkey; Redis 7 speaks
 *   Valkey's protocol), its entrypoint taking `valkey-server …` as the official image's does.
 * - `mariadb` → `mariadb:11.4`, `mariadb:10.11`, and the same image as `mysql:8.4` and `mysql:8.0`: this machine's
 *   MariaDB 10.11 (Debian has no MySQL server; MariaDB speaks MySQL's protocol), with an entrypoint honouring both
 *   official images' variables (MARIADB_ROOT_PASSWORD or MYSQL_ROOT_PASSWORD, …_DATABASE, …_USER, …_PASSWORD):
 *   mariadb-install-db on an empty /var/lib/mysql, the users and database, then mariadbd on 3306. A test of a
 *   `mysql:` image proves the driver's MySQL interface, not MySQL 8's own server.
 * - `memcached` → `memcached:1.6`: this machine's memcached on 11211 as the memcache user, arguments as the
 *   official image takes them (`memcached -m 64`, or options alone).
 */
export type OfficialImage = "nginx" | "postgres" | "redis" | "valkey" | "mariadb" | "memcached";

/** The names each stand-in is pushed under (the mirror's `library/` is Docker Hub's namespace of official images). */
export const OFFICIAL_IMAGES: Record<OfficialImage, string[]> = {
  nginx: ["nginx:1.27"],
  postgres: ["postgres:16", "postgres:17"],
  redis: ["redis:7"],
  valkey: ["valkey/valkey:8.0", "valkey/valkey:7.2"],
  mariadb: ["mariadb:11.4", "mariadb:10.11", "mysql:8.4", "mysql:8.0"],
  memcached: ["memcached:1.6"],
};

/** The system packages a stand-in is built from (.ci/run installs them as root). */
export const OFFICIAL_IMAGE_SOURCES: Record<OfficialImage, Record<string, string>> = {
  nginx: {},
  postgres: { "postgresql-15": "/usr/lib/postgresql/15/bin/postgres" },
  redis: { "redis-server": "/usr/bin/redis-server" },
  valkey: { "redis-server": "/usr/bin/redis-server" },
  mariadb: { "mariadb-server": "/usr/sbin/mariadbd", "mariadb-client": "/usr/bin/mariadb" },
  memcached: { memcached: "/usr/bin/memcached" },
};

const BUSYBOX = "/bin/busybox";

const nginxDockerfile = `FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
COPY start.sh /start.sh
EXPOSE 80
CMD ["/bin/sh", "/start.sh"]
`;

const nginxStart = `mkdir -p /usr/share/nginx/html
cat > /usr/share/nginx/html/index.html <<PAGE
<!DOCTYPE html>
<html><head><title>Welcome to nginx!</title></head>
<body><h1>Welcome to nginx!</h1><p>\${GREETING:-}</p></body></html>
PAGE
exec httpd -f -v -p 80 -h /usr/share/nginx/html
`;

const PG = "/usr/lib/postgresql/15";

/** Images of the machine's files (their top directories copied whole), busybox as their shell. */
const rootfsDockerfile = (tail: string) => `FROM scratch
COPY usr /usr
COPY lib /lib
COPY lib64 /lib64
COPY rootfs/ /
RUN ["/bin/busybox", "--install", "-s", "/bin"]
RUN mkdir -p /tmp /var/run && chmod 1777 /tmp
${tail}`;

const postgresDockerfile = rootfsDockerfile(`ENV PATH=${PG}/bin:/bin PGDATA=/var/lib/postgresql/data TZ=UTC
VOLUME /var/lib/postgresql/data
EXPOSE 5432
ENTRYPOINT ["/bin/sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
`);

/** The official image's start: initialise an empty data directory once, as the postgres user, then serve. */
const postgresEntrypoint = `set -e
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "$POSTGRES_PASSWORD" ]; then
    echo "Error: Database is uninitialized and superuser password is not specified." >&2
    exit 1
  fi
  user="\${POSTGRES_USER:-postgres}"
  database="\${POSTGRES_DB:-$user}"
  echo "$POSTGRES_PASSWORD" > /tmp/pwfile
  chown postgres /tmp/pwfile
  su postgres -s /bin/sh -c "initdb -D $PGDATA -U $user --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --no-locale"
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$database" != "postgres" ]; then
    echo "CREATE DATABASE \\"$database\\";" | su postgres -s /bin/sh -c "postgres --single -D $PGDATA postgres" > /dev/null
  fi
  echo "PostgreSQL init process complete; ready for start up."
fi
exec su postgres -s /bin/sh -c "exec postgres -D $PGDATA -c listen_addresses='*'"
`;

const redisDockerfile = rootfsDockerfile(`ENV PATH=/usr/local/bin:/bin
VOLUME /data
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["/bin/sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["redis-server"]
`);

/**
 * As the official image: `redis-server` arguments run the server (as the redis user, from /data); the Valkey
 * image's `valkey-server` runs the same server.
 */
const redisEntrypoint = `set -e
chown -R redis:redis /data
if [ "$1" = "redis-server" ] || [ "$1" = "valkey-server" ]; then
  shift
  # busybox su passes no arguments to the command: they are written into it (the driver's have no spaces).
  exec su redis -s /bin/sh -c "exec /usr/bin/redis-server --bind 0.0.0.0 --protected-mode no --dir /data $*"
fi
exec "$@"
`;

const passwd = `root:x:0:0:root:/root:/bin/sh
postgres:x:999:999:PostgreSQL:/var/lib/postgresql:/bin/sh
redis:x:998:998:Redis:/data:/bin/sh
mysql:x:997:997:MySQL:/var/lib/mysql:/bin/sh
memcache:x:11211:11211:Memcached:/nonexistent:/bin/sh
`;
const group = `root:x:0:
postgres:x:999:
redis:x:998:
mysql:x:997:
memcache:x:11211:
`;

/** A build context of `files` and busybox-static (as `busybox`). */
export const busyboxContext = (files: Record<string, string>) =>
  tarOf([
    ...Object.entries(files).map(([name, content]) => ({ path: name, content })),
    { path: "busybox", content: readFileSync(BUSYBOX), mode: 0o755 },
  ]);

/** The shared libraries `files` load (ldd), and the loader itself. */
function librariesOf(files: string[]): string[] {
  const libraries = new Set<string>(["/lib64/ld-linux-x86-64.so.2"]);
  for (const file of files) {
    const result = spawnSync("ldd", [file], { encoding: "utf8" });
    for (const match of result.stdout.matchAll(/=> (\/\S+)/g)) libraries.add(match[1] ?? "");
  }
  return [...libraries].filter(Boolean);
}

/**
 * A build context: the Dockerfile, the machine's files `from` at their own paths (absolute, under /usr, /lib and
 * /lib64, followed through symlinks), and `rootfs/` holding busybox and `extra` (path in the image → content).
 * Written with the system's tar, which keeps long paths and whole directories.
 */
function rootfsContext(dockerfile: string, from: string[], extra: Record<string, string | Buffer>): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "official-image-"));
  try {
    const rootfs = path.join(dir, "rootfs");
    for (const [file, content] of Object.entries({ ...extra, "bin/busybox": readFileSync(BUSYBOX) })) {
      mkdirSync(path.dirname(path.join(rootfs, file)), { recursive: true });
      writeFileSync(path.join(rootfs, file), content, { mode: 0o755 });
    }
    writeFileSync(path.join(dir, "Dockerfile"), dockerfile);
    const result = spawnSync(
      "tar",
      [
        "-c",
        "--dereference",
        "-C",
        dir,
        "Dockerfile",
        "rootfs",
        "-C",
        "/",
        ...from.map((file) => file.replace(/^\//, "")),
      ],
      { maxBuffer: 512 * 1024 * 1024 },
    );
    if (result.status !== 0) throw new Error(`tar failed: ${result.stderr.toString()}`);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function postgresContext(tail: string): Buffer {
  const binaries = ["postgres", "initdb", "pg_isready", "psql"].map((name) => `${PG}/bin/${name}`);
  // llvmjit pulls in LLVM (a hundred MB): without it, postgres runs with JIT off.
  const modules = readdirSync(`${PG}/lib`)
    .filter((name) => name.endsWith(".so") && name !== "llvmjit.so")
    .map((name) => `${PG}/lib/${name}`);
  const zoneinfo = ["UTC", "GMT", "Etc/UTC"]
    .map((name) => `/usr/share/zoneinfo/${name}`)
    .filter((file) => existsSync(file));
  return rootfsContext(
    postgresDockerfile + tail,
    [
      ...binaries,
      ...modules,
      ...librariesOf([...binaries, ...modules]),
      "/usr/share/postgresql/15",
      ...zoneinfo,
    ],
    {
      "etc/passwd": passwd,
      "etc/group": group,
      "usr/local/bin/docker-entrypoint.sh": postgresEntrypoint,
    },
  );
}

function redisContext(tail: string): Buffer {
  const binaries = ["/usr/bin/redis-server"];
  return rootfsContext(redisDockerfile + tail, [...binaries, ...librariesOf(binaries)], {
    "etc/passwd": passwd,
    "etc/group": group,
    "usr/local/bin/docker-entrypoint.sh": redisEntrypoint,
  });
}

const mariadbDockerfile = rootfsDockerfile(`ENV PATH=/usr/sbin:/usr/bin:/bin
RUN mkdir -p /var/lib/mysql /run/mysqld
VOLUME /var/lib/mysql
EXPOSE 3306
ENTRYPOINT ["/bin/sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["mariadbd"]
`);

/**
 * As the official images: on an empty /var/lib/mysql, mariadb-install-db, then (in bootstrap mode, no network)
 * the root password for local and remote logins, the database and its user; then the server on 3306. Options
 * alone (`--max-connections=50`) are the server's.
 */
const mariadbEntrypoint = `set -e
case "$1" in -*) set -- mariadbd "$@" ;; esac
if [ "$1" != "mariadbd" ] && [ "$1" != "mysqld" ]; then exec "$@"; fi
shift
datadir=/var/lib/mysql
chown -R mysql:mysql "$datadir" /run/mysqld
root_password="\${MARIADB_ROOT_PASSWORD:-$MYSQL_ROOT_PASSWORD}"
database="\${MARIADB_DATABASE:-$MYSQL_DATABASE}"
user="\${MARIADB_USER:-$MYSQL_USER}"
password="\${MARIADB_PASSWORD:-$MYSQL_PASSWORD}"
if [ ! -d "$datadir/mysql" ]; then
  if [ -z "$root_password" ]; then
    echo "error: database is uninitialized and password option is not specified" >&2
    echo "  You need to specify one of MARIADB_ROOT_PASSWORD or MYSQL_ROOT_PASSWORD" >&2
    exit 1
  fi
  echo "Initializing database files"
  mariadb-install-db --user=mysql --datadir="$datadir" --auth-root-authentication-method=normal \\
    --skip-test-db --skip-name-resolve > /dev/null
  {
    echo "FLUSH PRIVILEGES;"
    echo "DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1';"
    echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '$root_password';"
    echo "CREATE USER 'root'@'%' IDENTIFIED BY '$root_password';"
    echo "GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
    if [ -n "$database" ]; then echo "CREATE DATABASE IF NOT EXISTS \\\`$database\\\`;"; fi
    if [ -n "$user" ]; then
      echo "CREATE USER '$user'@'%' IDENTIFIED BY '$password';"
      if [ -n "$database" ]; then echo "GRANT ALL ON \\\`$database\\\`.* TO '$user'@'%';"; fi
    fi
  } | mariadbd --bootstrap --user=mysql --datadir="$datadir" --log-warnings=0
  echo "MariaDB init process done. Ready for start up."
fi
exec mariadbd --user=mysql --datadir="$datadir" --bind-address=0.0.0.0 --port=3306 "$@"
`;

const memcachedDockerfile = rootfsDockerfile(`ENV PATH=/usr/bin:/bin
USER memcache
EXPOSE 11211
ENTRYPOINT ["/bin/sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["memcached"]
`);

/** As the official image: options alone are memcached's. */
const memcachedEntrypoint = `case "$1" in -*) set -- memcached "$@" ;; esac
exec "$@"
`;

function mariadbContext(tail: string): Buffer {
  const binaries = ["/usr/sbin/mariadbd", "/usr/bin/my_print_defaults", "/usr/bin/resolveip"];
  return rootfsContext(
    mariadbDockerfile + tail,
    [...binaries, "/usr/bin/mariadb-install-db", ...librariesOf(binaries), "/usr/share/mysql"],
    {
      "etc/passwd": passwd,
      "etc/group": group,
      "usr/local/bin/docker-entrypoint.sh": mariadbEntrypoint,
    },
  );
}

function memcachedContext(tail: string): Buffer {
  const binaries = ["/usr/bin/memcached"];
  return rootfsContext(memcachedDockerfile + tail, [...binaries, ...librariesOf(binaries)], {
    "etc/passwd": passwd,
    "etc/group": group,
    "usr/local/bin/docker-entrypoint.sh": memcachedEntrypoint,
  });
}

/** The build context of each official image's stand-in, `tail` ending its Dockerfile (the set-up's own label). */
export const officialContexts: Record<OfficialImage, (tail: string) => Buffer> = {
  nginx: (tail) => busyboxContext({ Dockerfile: nginxDockerfile + tail, "start.sh": nginxStart }),
  postgres: postgresContext,
  redis: redisContext,
  valkey: redisContext,
  mariadb: mariadbContext,
  memcached: memcachedContext,
};
