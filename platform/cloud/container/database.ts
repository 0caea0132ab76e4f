import { configOf } from "../configs";
import type { DriverResource } from "../driver";
import type { DataServiceKind } from "./data-service";
import { probe, type ProbeAnswer } from "./probe";

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
  probe: (resource, port) =>
    postgresAnswers(port, configOf(resource, "database").username, databaseNameOf(resource)),
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
    probe: (_resource, port) => mysqlAnswers(port),
    attributes: (resource, address) => attributesOf("mysql", resource, address),
  };
}

const databases = { postgres, mysql: mysqlLike("MySQL", "MYSQL"), mariadb: mysqlLike("MariaDB", "MARIADB") };

/** The server of the database's engine. */
export const containerDatabase = (resource: DriverResource): DataServiceKind =>
  databases[configOf(resource, "database").engine];

/**
 * Whether PostgreSQL accepts connections on `port`: to a startup message (protocol 3.0, `user` and `database`) the
 * server that accepts them answers with an authentication request (`R`); one still starting up or recovering
 * answers an error (`E`: "the database system is starting up"), and a port the engine forwards to nothing
 * answers nothing.
 */
function postgresAnswers(port: number, user: string, database: string): Promise<ProbeAnswer> {
  const parameters = Buffer.from(`user\0${user}\0database\0${database}\0\0`);
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + parameters.length, 0);
  header.writeInt32BE(196608, 4);
  return probe(
    port,
    Buffer.concat([header, parameters]),
    (received) => {
      if (received[0] === 0x52) return { healthy: true, said: "it asked for the password" };
      // An ErrorResponse: its message field (M) says why.
      const message = /M([^\0]*)\0/.exec(received.subarray(5).toString())?.[1];
      return {
        healthy: false,
        said: message ? `it answered "${message}"` : "it answered no authentication request",
      };
    },
    () => "the connection closed without an answer",
  );
}

/**
 * Whether MySQL (or MariaDB) accepts connections on `port`: a server that does greets each connection first with
 * its handshake (protocol 10, then its version); one that refuses it sends an error packet (0xff: "Too many
 * connections", "Host … is blocked") instead. The official images initialise their data with networking off, so
 * the port answers only once the server is up.
 */
function mysqlAnswers(port: number): Promise<ProbeAnswer> {
  return probe(
    port,
    "",
    (received) => {
      // A packet: its payload's length (3 bytes, little-endian), a sequence number, the payload.
      if (received.length < 4 || received.length < 4 + received.readUIntLE(0, 3)) return undefined;
      const payload = received.subarray(4, 4 + received.readUIntLE(0, 3));
      if (payload[0] === 0x0a) {
        const version = payload.subarray(1, payload.indexOf(0, 1)).toString();
        return { healthy: true, said: `it greeted as server ${version}` };
      }
      if (payload[0] === 0xff) {
        // Error code (2 bytes), then `#` and the SQL state (5) when the server says one, then the message.
        const message = payload
          .subarray(3)
          .toString()
          .replace(/^#\w{5}/, "");
        return { healthy: false, said: `it answered "${message}"` };
      }
      return { healthy: false, said: "it answered no MySQL handshake" };
    },
    () => "the connection closed without an answer",
  );
}
