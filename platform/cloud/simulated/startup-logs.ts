import type { DriverResource } from "../driver";
import type { EventLine } from "./log-formats";
import { configOf } from "../configs";
import { randomFrom } from "./random";
import { klogTime, mariadbTime, mysqlTime, postgresTime, redisTime } from "./timestamps";

/** What the software prints as it starts on a pod at the end of a deployment, in its own format. */
export function startupLinesOf(resource: DriverResource, pod: string, at: Date, index: number): EventLine[] {
  const random = randomFrom("startup", resource.id, pod);
  const later = (ms: number) => new Date(at.getTime() + ms);
  const lines: EventLine[] = [];
  const add = (offsetMs: number, level: EventLine["level"], message: (time: Date) => string) =>
    lines.push({ offsetMs, level, message: message(later(offsetMs)) });

  switch (resource.serviceType) {
    case "database": {
      const { engine, version } = configOf(resource, "database");
      if (engine === "postgres") {
        const minor = `${version}.${random.int(1, 4)}`;
        add(
          0,
          "info",
          (t) =>
            `${postgresTime(t)} [1] LOG:  starting PostgreSQL ${minor} on aarch64-unknown-linux-gnu, compiled by gcc (GCC) 12.4.0, 64-bit`,
        );
        add(4, "info", (t) => `${postgresTime(t)} [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432`);
        add(6, "info", (t) => `${postgresTime(t)} [1] LOG:  listening on Unix socket "/tmp/.s.PGSQL.5432"`);
        add(
          40,
          "info",
          (t) =>
            `${postgresTime(t)} [${60 + index}] LOG:  database system was shut down at ${postgresTime(later(-90_000))}`,
        );
        if (index > 0)
          add(60, "info", (t) => `${postgresTime(t)} [${60 + index}] LOG:  entering standby mode`);
        add(
          120,
          "info",
          (t) =>
            `${postgresTime(t)} [1] LOG:  database system is ready to accept ${index > 0 ? "read-only " : ""}connections`,
        );
      } else if (engine === "mysql") {
        add(
          0,
          "info",
          (t) =>
            `${mysqlTime(t)} 0 [System] [MY-010116] [Server] /usr/sbin/mysqld (mysqld ${version}.${random.int(30, 40)}) starting as process 1`,
        );
        add(
          30,
          "info",
          (t) => `${mysqlTime(t)} 1 [System] [MY-013576] [InnoDB] InnoDB initialization has started.`,
        );
        add(
          900,
          "info",
          (t) => `${mysqlTime(t)} 1 [System] [MY-013577] [InnoDB] InnoDB initialization has ended.`,
        );
        add(
          1300,
          "warn",
          (t) => `${mysqlTime(t)} 0 [Warning] [MY-010068] [Server] CA certificate ca.pem is self signed.`,
        );
        add(
          1400,
          "info",
          (t) =>
            `${mysqlTime(t)} 0 [System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '${version}.${random.int(30, 40)}'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL.`,
        );
      } else {
        add(
          0,
          "info",
          (t) =>
            `${mariadbTime(t)} 0 [Note] Starting MariaDB ${version}.${random.int(2, 9)}-MariaDB-ubu2404 source revision ${random.chars(40, "0123456789abcdef")} as process 1`,
        );
        add(20, "info", (t) => `${mariadbTime(t)} 0 [Note] InnoDB: Using transactional memory`);
        add(
          600,
          "info",
          (t) =>
            `${mariadbTime(t)} 0 [Note] InnoDB: Buffer pool(s) load completed at ${mariadbTime(t).slice(2).replace(/-/g, "")}`,
        );
        add(
          900,
          "info",
          (t) =>
            `${mariadbTime(t)} 0 [Note] mariadbd: ready for connections.\nVersion: '${version}.${random.int(2, 9)}-MariaDB-ubu2404'  socket: '/run/mysqld/mysqld.sock'  port: 3306  mariadb.org binary distribution`,
        );
      }
      break;
    }
    case "cache": {
      const { engine, version } = configOf(resource, "cache");
      if (engine === "memcached") {
        add(
          0,
          "info",
          () => `Starting memcached ${version}.${random.int(20, 34)} with -m 512 -c 65000 -t 4 -v`,
        );
        add(5, "info", () => `slab class   1: chunk size        96 perslab   10922`);
        add(8, "info", () => `<26 server listening (auto-negotiate)`);
      } else {
        const role = index > 0 ? "S" : "M";
        const product = engine === "valkey" ? "Valkey" : "Redis";
        add(0, "info", (t) => `1:C ${redisTime(t)} # oO0OoO0OoO0Oo ${product} is starting oO0OoO0OoO0Oo`);
        add(
          1,
          "info",
          (t) =>
            `1:C ${redisTime(t)} # ${product} version=${version}.${random.int(1, 9)}, bits=64, commit=00000000, modified=0, pid=1, just started`,
        );
        add(
          3,
          "warn",
          (t) =>
            `1:C ${redisTime(t)} # WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition.`,
        );
        add(5, "info", (t) => `1:${role} ${redisTime(t)} * monotonic clock: POSIX clock_gettime`);
        add(8, "info", (t) => `1:${role} ${redisTime(t)} * Running mode=standalone, port=6379.`);
        add(10, "info", (t) => `1:${role} ${redisTime(t)} * Server initialized`);
        if (index > 0)
          add(30, "info", (t) => `1:S ${redisTime(t)} * Connecting to MASTER ${resource.name}-0:6379`);
        add(40, "info", (t) => `1:${role} ${redisTime(t)} * Ready to accept connections tcp`);
      }
      break;
    }
    case "kubernetes":
      add(0, "info", (t) => `I${klogTime(t)}    2345 server.go:1268] "Started kubelet"`);
      add(
        200,
        "info",
        (t) =>
          `I${klogTime(t)}    2345 kubelet_node_status.go:75] "Attempting to register node" node="${pod}"`,
      );
      add(
        900,
        "info",
        (t) =>
          `I${klogTime(t)}    2345 kubelet_node_status.go:78] "Successfully registered node" node="${pod}"`,
      );
      add(
        1800,
        "info",
        (t) =>
          `I${klogTime(t)}    2345 kubelet_node_status.go:502] "Fast updating node status as it just became ready"`,
      );
      break;
    case "control-plane":
      add(
        0,
        "info",
        (t) =>
          `I${klogTime(t)}       1 server.go:155] Version: v${configOf(resource, "control-plane").version}.${random.int(0, 4)}-eks-${random.chars(7, "0123456789abcdef")}`,
      );
      add(400, "info", (t) => `I${klogTime(t)}       1 secure_serving.go:213] Serving securely on [::]:443`);
      add(
        800,
        "info",
        (t) =>
          `I${klogTime(t)}       1 controller.go:615] quota admission added evaluator for: leases.coordination.k8s.io`,
      );
      break;
    case "serverless": {
      const { runtime } = configOf(resource, "serverless");
      add(
        0,
        "info",
        () =>
          `INIT_START Runtime Version: ${runtime}.v${random.int(20, 60)}\tRuntime Version ARN: arn:aws:lambda:${resource.region}::runtime:${random.chars(64, "0123456789abcdef")}`,
      );
      break;
    }
    case "application": {
      const port = resource.settings.networking.port;
      add(0, "info", (t) => `${t.toISOString()} INFO Starting ${resource.name} (pid 1)`);
      add(300, "info", (t) => `${t.toISOString()} INFO Listening on http://0.0.0.0:${port}`);
      break;
    }
    case "queue":
      add(
        0,
        "info",
        (t) =>
          `time="${t.toISOString()}" level=info msg="polling queue" queue=${resource.name} max_messages=10 wait_time_seconds=20`,
      );
      break;
    case "file-storage":
    case "nosql-database":
    case "network":
    case "tls":
      add(
        0,
        "info",
        (t) =>
          `time="${t.toISOString()}" level=info msg="monitoring agent started" resource=${resource.name} region=${resource.region}`,
      );
      break;
  }
  return lines;
}
