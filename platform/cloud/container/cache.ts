import { configOf } from "../configs";
import type { DriverResource } from "../driver";
import type { DataServiceKind } from "./data-service";
import { probe, type ProbeAnswer } from "./probe";

/**
 * A cache on a container engine, from the official image of its engine:
 * - `redis:<major>` (the form's 7.1 runs `redis:7`) and `valkey/valkey:<version>`: the password given as the
 *   official images take arguments (`redis-server --requirepass …`, `valkey-server …`), append-only persistence
 *   in /data on the service's volume, port 6379. Attributes as the simulated cache's: `authToken` and
 *   `connectionString` sealed (`redis://`: the engine's port is plain TCP on loopback, no TLS), `host` and `port`
 *   plain.
 * - `memcached:<version>`: Memcached's official image takes no password (SASL needs a build and a file it has
 *   not), and Memcached keeps its items in memory only: no volume. Like every data service here it is published
 *   on the host's loopback alone; its `connectionString` (`memcached://host:port`) is sealed as AWS's is, with
 *   `host` and `port` plain, and its deployment says in its log that anyone on the host can reach it.
 */

const PASSWORD_FLAG = "--requirepass";

function redisLike(server: "Redis" | "Valkey"): DataServiceKind {
  const command = server === "Redis" ? "redis-server" : "valkey-server";
  return {
    server,
    image(resource) {
      const { version } = configOf(resource, "cache");
      return server === "Redis" ? `redis:${version.split(".")[0] ?? version}` : `valkey/valkey:${version}`;
    },
    port: 6379,
    dataPath: "/data",
    container: (_resource, password) => ({
      Cmd: [command, PASSWORD_FLAG, password, "--appendonly", "yes"],
    }),
    password: {
      of(inspected) {
        const started = inspected.Config.Cmd ?? [];
        const at = started.indexOf(PASSWORD_FLAG);
        return at >= 0 ? started[at + 1] : undefined;
      },
      attribute: "authToken",
      keptOnData: false,
    },
    secretAttributeNames: ["authToken", "connectionString"],
    probe: (_resource, port, password) => redisAnswers(port, password),
    attributes: (_resource, { host, port, password }) => ({
      secrets: { authToken: password, connectionString: `redis://:${password}@${host}:${port}` },
      outputs: { host, port },
    }),
  };
}

/** Three quarters of the container's memory for items: the rest is Memcached's own and its connections'. */
const ITEM_MEMORY_SHARE = 0.75;

const memcached: DataServiceKind = {
  server: "Memcached",
  image: (resource) => `memcached:${configOf(resource, "cache").version}`,
  port: 11211,
  container: (resource) => ({
    Cmd: [
      "memcached",
      "-m",
      String(Math.max(16, Math.floor(resource.settings.hardware.memoryMb * ITEM_MEMORY_SHARE))),
    ],
  }),
  warning:
    "Memcached takes no password: it is published on 127.0.0.1 only, where any process on this host can read " +
    "and write its items; no other machine can reach it",
  secretAttributeNames: ["connectionString"],
  probe: (_resource, port) => memcachedAnswers(port),
  attributes: (_resource, { host, port }) => ({
    secrets: { connectionString: `memcached://${host}:${port}` },
    outputs: { host, port },
  }),
};

const caches = { redis: redisLike("Redis"), valkey: redisLike("Valkey"), memcached };

/** The server of the cache's engine. */
export const containerCache = (resource: DriverResource): DataServiceKind =>
  caches[configOf(resource, "cache").engine];

/** Whether Redis (or Valkey) answers on `port` with `password`: AUTH then PING, answered +OK and +PONG. */
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

/** Whether Memcached answers on `port`: `version`, answered `VERSION 1.6.…`. */
function memcachedAnswers(port: number): Promise<ProbeAnswer> {
  return probe(
    port,
    "version\r\n",
    (received) => {
      const answer = received.toString();
      if (!answer.includes("\r\n")) return undefined;
      return answer.startsWith("VERSION ")
        ? { healthy: true, said: `it answered ${answer.trim()}` }
        : { healthy: false, said: `it answered ${JSON.stringify(answer.trim())}` };
    },
    (received) => (received.length ? `it answered ${JSON.stringify(received.toString())}` : "no answer"),
  );
}
