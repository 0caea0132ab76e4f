import { configOf } from "../configs";
import { CloudStepError } from "../driver";
import type { DataServiceKind } from "./data-service";
import { probe, type ProbeAnswer } from "./probe";

/**
 * A cache on a container engine: the official `redis:<major>` image (the form's 7.1 runs `redis:7`), its password
 * given as the official image takes arguments (`redis-server --requirepass …`), append-only persistence in /data
 * on the service's volume, port 6379. Its connection attributes are the simulated cache's: `authToken` and
 * `connectionString` sealed (`redis://`: the engine's port is plain TCP on loopback, no TLS), `host` and `port`
 * plain. Valkey and Memcached say they cannot run here yet.
 */

const engineNames = { redis: "Redis", valkey: "Valkey", memcached: "Memcached" } as const;
const PASSWORD_FLAG = "--requirepass";

export const containerCache: DataServiceKind = {
  image(resource) {
    const { engine, version } = configOf(resource, "cache");
    if (engine !== "redis") {
      throw new CloudStepError(
        `${engineNames[engine]} caches cannot be deployed to a container engine yet: choose Redis.`,
        { transient: false },
      );
    }
    return `redis:${version.split(".")[0] ?? version}`;
  },
  port: 6379,
  dataPath: "/data",
  container: (_resource, password) => ({
    Cmd: ["redis-server", PASSWORD_FLAG, password, "--appendonly", "yes"],
  }),
  passwordOf(inspected) {
    const command = inspected.Config.Cmd ?? [];
    const at = command.indexOf(PASSWORD_FLAG);
    return at >= 0 ? command[at + 1] : undefined;
  },
  probe: (_resource, port, password) => redisAnswers(port, password),
  attributes: (_resource, { host, port, password }) => ({
    secrets: { authToken: password, connectionString: `redis://:${password}@${host}:${port}` },
    outputs: { host, port },
  }),
};

/** Whether Redis answers on `port` with `password`: AUTH then PING, answered +OK and +PONG. */
function redisAnswers(port: number, password: string): Promise<ProbeAnswer> {
  return probe(
    port,
    `AUTH ${password}\r\nPING\r\n`,
    (received) => {
      const answer = received.toString();
      if (answer.startsWith("+OK\r\n+PONG\r\n")) return { healthy: true, said: "PING answered PONG" };
      if (answer.startsWith("-") && answer.includes("\r\n")) {
        return { healthy: false, said: `it answered ${answer.trim()}` };
      }
      return undefined;
    },
    (received) => (received.length ? `it answered ${JSON.stringify(received.toString())}` : "no answer"),
  );
}
