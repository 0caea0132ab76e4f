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
import { motoServerCommand } from "../../tests/setup/moto-server";
import { RUSTFS_IMAGE } from "../cloud/container/file-storage";
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
 *   (`redis-server --requirepass …`), data in /data, and redis-cli (the readiness check's client).
 * - `valkey` → `valkey/valkey:8.0` (and `:7.2`): the same redis-server (Debian 12 has no Valkey; Redis 7 speaks
 *   Valkey's protocol), its entrypoint taking `valkey-server …` as the official image's does.
 * - `mariadb` → `mariadb:11.4`, `mariadb:10.11`, and the same image as `mysql:8.4` and `mysql:8.0`: this machine's
 *   MariaDB 10.11 (Debian has no MySQL server; MariaDB speaks MySQL's protocol), with an entrypoint honouring both
 *   official images' variables (MARIADB_ROOT_PASSWORD or MYSQL_ROOT_PASSWORD, …_DATABASE, …_USER, …_PASSWORD):
 *   mariadb-install-db on an empty /var/lib/mysql, the users and database, then mariadbd on 3306. A test of a
 *   `mysql:` image proves the driver's MySQL interface, not MySQL 8's own server. Its admin client is there as
 *   both images name it (`mariadb-admin`, `mysqladmin`).
 * - `memcached` → `memcached:1.6`: this machine's memcached on 11211 as the memcache user, arguments as the
 *   official image takes them (`memcached -m 64`, or options alone), and bash (the official image is Debian's slim).
 * - `rabbitmq` → `rabbitmq:3`: this machine's RabbitMQ 3.10 (Debian's rabbitmq-server and its Erlang) with an
 *   entrypoint honouring RABBITMQ_DEFAULT_USER, RABBITMQ_DEFAULT_PASS and RABBITMQ_DEFAULT_VHOST; data in
 *   /var/lib/rabbitmq (its node named after the container's hostname, as the official image's); port 5672.
 * - `rustfs` → `rustfs/rustfs:1.0.0-alpha.85` (not in Docker Hub's library/): no S3 server is packaged in Debian 12, so this machine's moto
 *   (its Python and the packages its S3 server imports) behind the official image's interface: RUSTFS_ACCESS_KEY
 *   and RUSTFS_SECRET_KEY, the data directory as its argument (/data), the S3 API and `GET /health` on port 9000.
 *   moto keeps objects in memory: the stand-in records every request on the volume (moto's own recorder) and
 *   replays the recording at start, so objects survive a new container as they do on RustFS's disk. moto checks
 *   no signature: a wrong secret is not refused here (RustFS refuses it).
 */
export type OfficialImage =
  | "nginx"
  | "postgres"
  | "redis"
  | "valkey"
  | "mariadb"
  | "memcached"
  | "rabbitmq"
  | "rustfs";

const RABBITMQ_SBIN = "/usr/lib/rabbitmq/lib/rabbitmq_server-3.10.8/sbin";

/** The names each stand-in is pushed under (the mirror's `library/` is Docker Hub's namespace of official images). */
export const OFFICIAL_IMAGES: Record<OfficialImage, string[]> = {
  nginx: ["nginx:1.27"],
  postgres: ["postgres:16", "postgres:17"],
  redis: ["redis:7"],
  valkey: ["valkey/valkey:8.0", "valkey/valkey:7.2"],
  mariadb: ["mariadb:11.4", "mariadb:10.11", "mysql:8.4", "mysql:8.0"],
  memcached: ["memcached:1.6"],
  rabbitmq: ["rabbitmq:3"],
  rustfs: [RUSTFS_IMAGE],
};

/** The system packages a stand-in is built from (.ci/run installs them as root). */
export const OFFICIAL_IMAGE_SOURCES: Record<OfficialImage, Record<string, string>> = {
  nginx: {},
  postgres: { "postgresql-15": "/usr/lib/postgresql/15/bin/postgres" },
  redis: { "redis-server": "/usr/bin/redis-server" },
  valkey: { "redis-server": "/usr/bin/redis-server" },
  mariadb: { "mariadb-server": "/usr/sbin/mariadbd", "mariadb-client": "/usr/bin/mariadb" },
  memcached: { memcached: "/usr/bin/memcached" },
  rabbitmq: { "rabbitmq-server": `${RABBITMQ_SBIN}/rabbitmq-server` },
  get rustfs() {
    return { "moto (pip install 'moto[server]')": motoPython()?.executable ?? "/moto_server/not/found" };
  },
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

const redisDockerfile = rootfsDockerfile(`ENV PATH=/usr/local/bin:/usr/bin:/bin
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

const rabbitmqDockerfile =
  rootfsDockerfile(`ENV PATH=${RABBITMQ_SBIN}:/usr/lib/erlang/bin:/bin HOME=/var/lib/rabbitmq RABBITMQ_LOGS=-
VOLUME /var/lib/rabbitmq
EXPOSE 5672
ENTRYPOINT ["/bin/sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["rabbitmq-server"]
`);

/**
 * As the official image: the default user, password and virtual host from its variables (used when the data
 * directory is new), then the server as the rabbitmq user. Its node is rabbit@<hostname>, so its data on the volume
 * is found again only by a container with the same hostname (the official image's documentation says so too).
 */
const rabbitmqEntrypoint = `set -e
mkdir -p /var/lib/rabbitmq /etc/rabbitmq /var/log/rabbitmq
{
  echo "loopback_users = none"
  echo "listeners.tcp.default = 5672"
  [ -z "$RABBITMQ_DEFAULT_USER" ] || echo "default_user = $RABBITMQ_DEFAULT_USER"
  [ -z "$RABBITMQ_DEFAULT_PASS" ] || echo "default_pass = $RABBITMQ_DEFAULT_PASS"
  [ -z "$RABBITMQ_DEFAULT_VHOST" ] || echo "default_vhost = $RABBITMQ_DEFAULT_VHOST"
} > /etc/rabbitmq/rabbitmq.conf
chown -R rabbitmq:rabbitmq /var/lib/rabbitmq /etc/rabbitmq /var/log/rabbitmq
if [ "$1" = "rabbitmq-server" ]; then
  exec su rabbitmq -s /bin/sh -c "exec ${RABBITMQ_SBIN}/rabbitmq-server"
fi
exec "$@"
`;

const passwd = `root:x:0:0:root:/root:/bin/sh
postgres:x:999:999:PostgreSQL:/var/lib/postgresql:/bin/sh
redis:x:998:998:Redis:/data:/bin/sh
mysql:x:997:997:MySQL:/var/lib/mysql:/bin/sh
memcache:x:11211:11211:Memcached:/nonexistent:/bin/sh
rabbitmq:x:996:996:RabbitMQ:/var/lib/rabbitmq:/bin/sh
`;
const group = `root:x:0:
postgres:x:999:
redis:x:998:
mysql:x:997:
memcache:x:11211:
rabbitmq:x:996:
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
        // Python's optimised bytecode (-O, -OO: a hundred MB under pyenv's standard library), never loaded here.
        "--exclude=*.opt-[12].pyc",
        "-C",
        dir,
        "Dockerfile",
        "rootfs",
        "-C",
        "/",
        // Once each: tar would store a second copy as a hard link, which the engine's build endpoint fails to unpack.
        ...[...new Set(from)].map((file) => file.replace(/^\//, "")),
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
  const binaries = ["/usr/bin/redis-server", "/usr/bin/redis-cli"];
  return rootfsContext(redisDockerfile + tail, [...binaries, ...librariesOf(binaries)], {
    "etc/passwd": passwd,
    "etc/group": group,
    "usr/local/bin/docker-entrypoint.sh": redisEntrypoint,
    // Valkey's image names its client valkey-cli; Redis's reads the same password variable (REDISCLI_AUTH).
    "usr/local/bin/valkey-cli": readFileSync("/usr/bin/redis-cli"),
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
  // mariadb-admin as MariaDB's image has it, and as mysqladmin (MySQL's image's name for the same ping).
  const binaries = [
    "/usr/sbin/mariadbd",
    "/usr/bin/my_print_defaults",
    "/usr/bin/resolveip",
    "/usr/bin/mariadb-admin",
    "/usr/bin/mysqladmin",
  ];
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
  // bash as the official (Debian slim) image has it: its /dev/tcp is the readiness check's client.
  const binaries = ["/usr/bin/memcached", "/usr/bin/bash"];
  return rootfsContext(memcachedDockerfile + tail, [...binaries, ...librariesOf(binaries)], {
    "etc/passwd": passwd,
    "etc/group": group,
    "usr/local/bin/docker-entrypoint.sh": memcachedEntrypoint,
  });
}

function rabbitmqContext(tail: string): Buffer {
  const erts = readdirSync("/usr/lib/erlang").find((name) => name.startsWith("erts-")) ?? "erts";
  const natives = spawnSync("find", ["/usr/lib/erlang", "-name", "*.so"], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean);
  const binaries = ["beam.smp", "erl_child_setup", "epmd", "inet_gethost"].map(
    (name) => `/usr/lib/erlang/${erts}/bin/${name}`,
  );
  return rootfsContext(
    rabbitmqDockerfile + tail,
    ["/usr/lib/erlang", "/usr/lib/rabbitmq", ...librariesOf([...binaries, ...natives])],
    {
      "etc/passwd": passwd,
      "etc/group": group,
      "usr/local/bin/docker-entrypoint.sh": rabbitmqEntrypoint,
    },
  );
}

/** The Python that runs this machine's moto_server (pyenv's on these machines), or null. */
let motoFound: { executable: string; prefix: string; version: string } | null | undefined;
function motoPython() {
  if (motoFound !== undefined) return motoFound;
  let python: string;
  try {
    python = path.join(path.dirname(motoServerCommand()), "python3");
  } catch {
    return (motoFound = null);
  }
  const result = spawnSync(
    python,
    [
      "-c",
      "import moto, os, sys; print(os.path.realpath(sys.executable), sys.prefix, '%d.%d' % sys.version_info[:2])",
    ],
    { encoding: "utf8" },
  );
  const [executable = "", prefix = "", version = ""] = result.stdout.trim().split(" ");
  return (motoFound = result.status === 0 && executable ? { executable, prefix, version } : null);
}

/** The packages moto's S3 server imports (found by running it), besides the standard library. */
const MOTO_S3_PACKAGES = [
  "_cffi_backend",
  "_distutils_hack",
  "_yaml",
  "blinker",
  "boto3",
  "botocore",
  "certifi",
  "cffi",
  "charset_normalizer",
  "click",
  "colorama",
  "cryptography",
  "dateutil",
  "flask",
  "flask_cors",
  "idna",
  "itsdangerous",
  "jinja2",
  "jmespath",
  "markupsafe",
  "moto",
  "pycparser",
  "requests",
  "responses",
  "s3transfer",
  "six",
  "typing_extensions",
  "urllib3",
  "werkzeug",
  "xmltodict",
  "yaml",
];

/**
 * RustFS's interface over moto: /health answered here, everything else by moto's S3. Requests are recorded on the
 * volume; at start the recording is replayed into moto on a loopback port only this process reaches, before port
 * 9000 opens, so the first answer a client gets already has the objects.
 */
const rustfsServe = `import os, signal, sys, threading
data = sys.argv[1] if len(sys.argv) > 1 else "/data"
os.makedirs(data, exist_ok=True)
os.environ["MOTO_ENABLE_RECORDING"] = "True"
os.environ["MOTO_RECORDER_FILEPATH"] = os.path.join(data, ".moto-recording")
from werkzeug.serving import make_server
from moto.server import DomainDispatcherApplication, create_backend_app
from moto.moto_api import recorder

s3 = DomainDispatcherApplication(create_backend_app)

def app(environ, start_response):
    if environ.get("PATH_INFO") == "/health":
        start_response("200 OK", [("Content-Type", "application/json")])
        return [b'{"status":"ok"}']
    return s3(environ, start_response)

recording = os.environ["MOTO_RECORDER_FILEPATH"]
if os.path.exists(recording) and os.path.getsize(recording) > 0:
    inner = make_server("127.0.0.1", 9009, s3, threaded=True)
    threading.Thread(target=inner.serve_forever, daemon=True).start()
    recorder.replay_recording(target_host="http://127.0.0.1:9009")
    inner.shutdown()
    print("replayed the recorded requests", flush=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
print("S3 API on :9000, data in " + data, flush=True)
make_server("0.0.0.0", 9000, app, threaded=True).serve_forever()
`;

function rustfsContext(tail: string): Buffer {
  const moto = motoPython();
  if (!moto) throw new Error("moto_server and its Python were not found: pip install 'moto[server]'");
  const stdlib = path.join(moto.prefix, "lib", `python${moto.version}`);
  const library = path.join(moto.prefix, "lib", `libpython${moto.version}.so.1.0`);
  const sitePackages = path.join(stdlib, "site-packages");
  // The packages (a directory, a module or a compiled module), every package's metadata (importlib.metadata reads
  // versions), and the compiled module charset_normalizer loads.
  const packages = readdirSync(sitePackages)
    .filter(
      (name) =>
        MOTO_S3_PACKAGES.some((wanted) => name === wanted || name.startsWith(`${wanted}.`)) ||
        name.endsWith(".dist-info") ||
        name.includes("__mypyc"),
    )
    .map((name) => path.join(sitePackages, name));
  const natives = spawnSync("find", [path.join(stdlib, "lib-dynload"), ...packages, "-name", "*.so"], {
    encoding: "utf8",
  })
    .stdout.split("\n")
    .filter(Boolean);
  // pyenv's Python lives under /root: its top directory is copied too (/usr and /lib are already).
  const top = moto.prefix.split("/")[1] ?? "usr";
  const dockerfile =
    rootfsDockerfile(`${["usr", "lib", "lib64"].includes(top) ? "" : `COPY ${top} /${top}\n`}ENV PATH=/bin:${moto.prefix}/bin PYTHONDONTWRITEBYTECODE=1
VOLUME /data
EXPOSE 9000
ENTRYPOINT ["${moto.executable}", "/usr/local/bin/serve.py"]
CMD ["/data"]
${tail}`);
  const standard = readdirSync(stdlib)
    .filter((name) => !["site-packages", "test", "idlelib", "tkinter", "ensurepip", "lib2to3"].includes(name))
    .map((name) => path.join(stdlib, name));
  return rootfsContext(
    dockerfile,
    [
      moto.executable,
      library,
      ...standard,
      ...packages,
      ...librariesOf([moto.executable, library, ...natives]),
      // Python's clock in UTC (and a /usr for the image's COPY).
      "/usr/share/zoneinfo/UTC",
    ],
    { "usr/local/bin/serve.py": rustfsServe },
  );
}

/** The build context of each official image's stand-in, `tail` ending its Dockerfile (the set-up's own label). */
export const officialContexts: Record<OfficialImage, (tail: string) => Buffer> = {
  nginx: (tail) => busyboxContext({ Dockerfile: nginxDockerfile + tail, "start.sh": nginxStart }),
  postgres: postgresContext,
  redis: redisContext,
  valkey: redisContext,
  mariadb: mariadbContext,
  memcached: memcachedContext,
  rabbitmq: rabbitmqContext,
  rustfs: rustfsContext,
};
