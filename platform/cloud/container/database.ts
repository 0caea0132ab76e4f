import { connect } from "node:net";
import { configOf } from "../configs";
import { CloudStepError, type DriverResource } from "../driver";
import type { DataServiceKind } from "./data-service";

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
  passwordOf: (inspected) =>
    inspected.Config.Env?.find((variable) => variable.startsWith(PASSWORD_VARIABLE))?.slice(
      PASSWORD_VARIABLE.length,
    ),
  probe: (port) => postgresAnswers(port),
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
 * Whether PostgreSQL answers on `port`: its SSLRequest (8 bytes) is answered with one byte, `N` or `S`, by the
 * server itself once it accepts connections (a port the engine forwards to nothing answers nothing).
 */
function postgresAnswers(port: number): Promise<{ healthy: boolean; said: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (healthy: boolean, said: string) => {
      socket.destroy();
      resolve({ healthy, said });
    };
    socket.setTimeout(2000, () => done(false, "no answer within 2 s"));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done(false, `no answer (${error.code ?? error.message})`),
    );
    socket.once("close", () => done(false, "the connection closed without an answer"));
    socket.once("connect", () => {
      const request = Buffer.alloc(8);
      request.writeInt32BE(8, 0);
      request.writeInt32BE(80877103, 4);
      socket.write(request);
    });
    socket.once("data", (data) => {
      const answer = String.fromCharCode(data[0] ?? 0);
      done(
        answer === "N" || answer === "S",
        `the server answered the SSL request with ${JSON.stringify(answer)}`,
      );
    });
  });
}
