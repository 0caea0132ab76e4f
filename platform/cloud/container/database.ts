import { configOf } from "../configs";
import type { DriverResource } from "../driver";
import type { DataServiceKind } from "./data-service";
import type { ReadinessCheck } from "./probe";

/**
 * A database on a container engine, from the official image of its engine: `postgres:<version>` (POSTGRES_PASSWORD,
 * POSTGRES_USER, POSTGRES_DB; data in /var/lib/postgresql/data; port 5432), `mysql:<version>` and
 * `mariadb:<version>` (…_ROOT_PASSWORD, …_USER, …_PASSWORD, …_DATABASE; data in /var/lib/mysql; port 3306), on the
 * service's volume. Its connection attributes are the AWS database's: `password` and `connectionString` sealed,
 * `host`, `port`, `username` and `database` plain.
 */

/** The database the server creates: the service's name as an identifier, as on AWS. */
function databaseNameOf(resource: DriverResource): string {
  const name = resource.name.replace(/-/g, "_");
  return /^[a-z]/.test(name) ? name : `db_${name}`;
}

const secretAttributeNames = ["password", "connectionString"] as const;

/** The attributes of a database at `scheme://username:password@host:port/database`. */
function attributesOf(
  scheme: string,
  resource: DriverResource,
  { host, port, password }: { host: string; port: string; password: string },
) {
  const { username } = configOf(resource, "database");
  const database = databaseNameOf(resource);
  return {
    secrets: {
      password,
      connectionString: `${scheme}://${username}:${password}@${host}:${port}/${database}`,
    },
    outputs: { host, port, username, database },
  };
}

/** The value of the variable `name=` a container was started with. */
const variableOf = (name: string) => (inspected: { Config: { Env?: string[] } }) =>
  inspected.Config.Env?.find((variable) => variable.startsWith(`${name}=`))?.slice(name.length + 1);

const postgres: DataServiceKind = {
  server: "PostgreSQL",
  image: (resource) => `postgres:${configOf(resource, "database").version}`,
  port: 5432,
  dataPath: "/var/lib/postgresql/data",
  container(resource, password) {
    const { username } = configOf(resource, "database");
    return {
      Env: [
        `POSTGRES_PASSWORD=${password}`,
        `POSTGRES_USER=${username}`,
        `POSTGRES_DB=${databaseNameOf(resource)}`,
      ],
    };
  },
  password: {
    of: variableOf("POSTGRES_PASSWORD"),
    attribute: "password",
    keptOnData: true,
    // Through the server's unix socket, which the official image trusts for local connections.
    setOnData(resource, password) {
      const { username } = configOf(resource, "database");
      return [
        "psql",
        "-v",
        "ON_ERROR_STOP=1",
        "-U",
        username,
        "-d",
        "postgres",
        "-c",
        `ALTER USER "${username}" WITH PASSWORD '${password}'`,
      ];
    },
  },
  secretAttributeNames,
  // Over TCP, not the server's socket: the official image's first start runs a server on its socket alone while
  // it initialises the data, and that one is not ready.
  ready: (resource): ReadinessCheck => ({
    command: () => ({
      Cmd: [
        ...["pg_isready", "-h", "127.0.0.1", "-p", "5432", "-t", "2"],
        ...["-U", configOf(resource, "database").username, "-d", databaseNameOf(resource)],
      ],
    }),
    // 0: accepting; 1: rejecting (starting up); 2: no answer.
    answer: (exitCode, output) => ({ healthy: exitCode === 0, said: `pg_isready: ${output}` }),
  }),
  attributes: (resource, address) => attributesOf("postgres", resource, address),
};

/**
 * MySQL and MariaDB, whose official images take the same variables under their own prefix (MariaDB's also reads
 * MYSQL_'s). The superuser (root) has the service's one password too, as an RDS master user has every privilege;
 * the form's user owns the database. A user named root is the superuser alone: the images refuse it as …_USER.
 * Neither server takes a new password from a command inside its container without the old one (no trusted local
 * socket, as PostgreSQL's): data whose containers were all removed outside is started again with the sealed one
 * (decision 068).
 */
function mysqlLike(server: "MySQL" | "MariaDB", prefix: "MYSQL" | "MARIADB"): DataServiceKind {
  return {
    server,
    image: (resource) => `${server.toLowerCase()}:${configOf(resource, "database").version}`,
    port: 3306,
    dataPath: "/var/lib/mysql",
    container(resource, password) {
      const { username } = configOf(resource, "database");
      return {
        Env: [
          `${prefix}_ROOT_PASSWORD=${password}`,
          ...(username === "root" ? [] : [`${prefix}_USER=${username}`, `${prefix}_PASSWORD=${password}`]),
          `${prefix}_DATABASE=${databaseNameOf(resource)}`,
        ],
      };
    },
    password: { of: variableOf(`${prefix}_ROOT_PASSWORD`), attribute: "password", keptOnData: true },
    secretAttributeNames,
    ready: () => mysqlReady(server === "MySQL" ? "mysqladmin" : "mariadb-admin"),
    attributes: (resource, address) => attributesOf("mysql", resource, address),
  };
}

const databases = { postgres, mysql: mysqlLike("MySQL", "MYSQL"), mariadb: mysqlLike("MariaDB", "MARIADB") };

/** The server of the database's engine. */
export const containerDatabase = (resource: DriverResource): DataServiceKind =>
  databases[configOf(resource, "database").engine];

/**
 * Whether MySQL (or MariaDB) accepts connections, by its image's admin client (`mysqladmin`; MariaDB 11's image has
 * `mariadb-admin` only): `ping` over TCP exits 0 once the server answers, even to a login it refuses (no password is
 * given: it stays out of the command), and 1 while no server listens. The official images initialise their data with
 * networking off, so TCP answers only once the server is up.
 */
const mysqlReady = (client: string): ReadinessCheck => ({
  command: () => ({ Cmd: [client, "ping", "-h", "127.0.0.1", "--protocol=tcp", "--connect-timeout=2"] }),
  answer: (exitCode, output) => ({
    healthy: exitCode === 0,
    said: `${client} ping: ${exitCode === 0 ? "the server answers" : output.split("\n").at(-1)}`,
  }),
});
