import { configOf } from "../configs";
import { CloudStepError, type DriverResource } from "../driver";
import type { DataServiceKind } from "./data-service";
import { probe, type ProbeAnswer } from "./probe";

/**
 * A database on a container engine: the official `postgres:<version>` image (POSTGRES_PASSWORD, POSTGRES_USER,
 * POSTGRES_DB; data in /var/lib/postgresql/data; port 5432) on the service's volume. Its connection attributes are
 * the AWS database's: `password` and `connectionString` sealed, `host`, `port`, `username` and `database` plain.
 * MySQL and MariaDB say they cannot run here yet.
 */

/** The database the server creates: the service's name as an identifier, as on AWS. */
function databaseNameOf(resource: DriverResource): string {
  const name = resource.name.replace(/-/g, "_");
  return /^[a-z]/.test(name) ? name : `db_${name}`;
}

const PASSWORD_VARIABLE = "POSTGRES_PASSWORD=";

export const containerDatabase: DataServiceKind = {
  image(resource) {
    const { engine, version } = configOf(resource, "database");
    if (engine !== "postgres") {
      throw new CloudStepError(
        `${engine === "mysql" ? "MySQL" : "MariaDB"} databases cannot be deployed to a container engine yet: ` +
          "choose PostgreSQL.",
        { transient: false },
      );
    }
    return `postgres:${version}`;
  },
  port: 5432,
  dataPath: "/var/lib/postgresql/data",
  container(resource, password) {
    const { username } = configOf(resource, "database");
    return {
      Env: [
        `${PASSWORD_VARIABLE}${password}`,
        `POSTGRES_USER=${username}`,
        `POSTGRES_DB=${databaseNameOf(resource)}`,
      ],
    };
  },
  // Through the server's unix socket, which the official image trusts for local connections.
  passwordOnData(resource, password) {
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
  passwordOf: (inspected) =>
    inspected.Config.Env?.find((variable) => variable.startsWith(PASSWORD_VARIABLE))?.slice(
      PASSWORD_VARIABLE.length,
    ),
  probe: (resource, port) =>
    postgresAnswers(port, configOf(resource, "database").username, databaseNameOf(resource)),
  attributes(resource, { host, port, password }) {
    const { username } = configOf(resource, "database");
    const database = databaseNameOf(resource);
    return {
      secrets: {
        password,
        connectionString: `postgres://${username}:${password}@${host}:${port}/${database}`,
      },
      outputs: { host, port, username, database },
    };
  },
};

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
