import type { DriverResource } from "../driver";
import type { DataServiceKind } from "./data-service";
import type { ReadinessCheck } from "./probe";

/**
 * A queue on a container engine: a RabbitMQ broker from the official `rabbitmq:3` image (management plugin off:
 * one port, AMQP, and no second login page to guard), its user, password and virtual host given as the image takes
 * them (RABBITMQ_DEFAULT_USER, RABBITMQ_DEFAULT_PASS, RABBITMQ_DEFAULT_VHOST: used when the data is new), its data
 * in /var/lib/rabbitmq on the service's volume, port 5672. The broker names its data after its node,
 * rabbit@<hostname>: every container of the service gets the same hostname, or a redeploy would start empty.
 * Its connection attributes: `password` and `connectionString` (`amqp://user:password@127.0.0.1:PORT/vhost`) sealed,
 * `host`, `port`, `username` and `vhost` plain. The user and the virtual host are the service's name.
 */

const PASSWORD_VARIABLE = "RABBITMQ_DEFAULT_PASS=";

/** The broker's user and virtual host: the service's name (lowercase letters, digits and dashes). */
const userOf = (resource: DriverResource) => resource.name;

export const containerQueue: DataServiceKind = {
  server: "RabbitMQ",
  image: () => "rabbitmq:3",
  port: 5672,
  dataPath: "/var/lib/rabbitmq",
  container: (resource, password) => ({
    Hostname: `${resource.name}-${resource.id.slice(0, 8)}`,
    Env: [
      `RABBITMQ_DEFAULT_USER=${userOf(resource)}`,
      `${PASSWORD_VARIABLE}${password}`,
      `RABBITMQ_DEFAULT_VHOST=${userOf(resource)}`,
    ],
  }),
  password: {
    of: (inspected) =>
      inspected.Config.Env?.find((variable) => variable.startsWith(PASSWORD_VARIABLE))?.slice(
        PASSWORD_VARIABLE.length,
      ),
    attribute: "password",
    // The image's variables only seed new data: the broker's own tool sets a new password on the kept data.
    keptOnData: true,
    setOnData: (resource, password) => ["rabbitmqctl", "change_password", userOf(resource), password],
  },
  secretAttributeNames: ["password", "connectionString"],
  ready: () => rabbitmqReady,
  attributes(resource, { host, port, password }) {
    const user = userOf(resource);
    return {
      secrets: { password, connectionString: `amqp://${user}:${password}@${host}:${port}/${user}` },
      outputs: { host, port, username: user, vhost: user },
    };
  },
};

/**
 * Whether RabbitMQ accepts connections, by its image's own diagnostics (what RabbitMQ's documentation advises for a
 * readiness check): every listener (AMQP on 5672) accepts a connection. The login is not tried here: after every
 * container of the service was removed, the kept data still has the old password until the new one is set on it.
 */
const rabbitmqReady: ReadinessCheck = {
  // As the broker's user: run as root before the broker made its Erlang cookie, the tool would make one the
  // broker cannot read, and the broker would stop.
  command: () => ({ Cmd: ["rabbitmq-diagnostics", "-q", "check_port_connectivity"], User: "rabbitmq" }),
  answer: (exitCode, output) =>
    exitCode === 0
      ? { healthy: true, said: "rabbitmq-diagnostics: its listeners accept connections" }
      : {
          healthy: false,
          said: `rabbitmq-diagnostics answered ${exitCode}${output ? `: ${output.split("\n")[0]}` : ""}`,
        },
};
