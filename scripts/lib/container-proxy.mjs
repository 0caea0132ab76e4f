import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

/**
 * Stable addresses for "This machine" under `npm start` (issue 26, docs/decisions/063 and 072): when the start
 * script found or started the container engine itself, it also runs Caddy (Debian's `caddy`) as the applications'
 * reverse proxy, so an application's URL stays the same across deployments instead of following each new
 * container's published port. Caddy keeps its config in DATA_DIR (its admin port in caddy.json, its routes in its
 * autosave, restored with `--resume`), so the routes the platform made survive a restart of both. Only on a
 * developer's machine: in production, or when the operator chose the engines (CONTAINER_SOCKETS) or the proxy
 * (CONTAINER_PROXY_ADMIN_URL), nothing is started.
 */

const CADDY = "/usr/bin/caddy";

/** What the start script does about the proxy, decided from the environment alone. */
export function containerProxyPlan(env, { engineDiscovered, caddyInstalled }) {
  if (env.CONTAINER_PROXY_ADMIN_URL !== undefined) return { kind: "operator" };
  if (env.NODE_ENV === "production" || !engineDiscovered) return { kind: "none" };
  return caddyInstalled ? { kind: "start-caddy" } : { kind: "not-installed" };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The admin address kept in `dataDir`'s caddy.json (chosen once, free at the time), so routes stay where they were. */
async function adminAddressIn(dir) {
  const file = path.join(dir, "caddy.json");
  if (existsSync(file)) {
    const listen = JSON.parse(readFileSync(file, "utf8"))?.admin?.listen;
    if (typeof listen === "string") return { file, listen };
  }
  const listen = `127.0.0.1:${await freePort()}`;
  writeFileSync(file, JSON.stringify({ admin: { listen } }));
  return { file, listen };
}

async function waitForAdmin(adminUrl, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    const ready = await fetch(`${adminUrl}/config/`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/**
 * The platform's CONTAINER_PROXY_ADMIN_URL under `npm start`, saying on the console what it did; undefined when it
 * started nothing. Caddy stops when the start script exits.
 */
export async function containerProxyForStart(env, dataDir, { engineDiscovered }) {
  const plan = containerProxyPlan(env, { engineDiscovered, caddyInstalled: existsSync(CADDY) });
  if (plan.kind === "not-installed") {
    console.info(
      "start: Caddy is not installed: applications on this machine get a new port with each deployment " +
        "(apt-get install caddy for addresses that stay)",
    );
  }
  if (plan.kind !== "start-caddy") return undefined;
  const dir = path.join(dataDir, "caddy");
  mkdirSync(dir, { recursive: true });
  const { file, listen } = await adminAddressIn(dir);
  const adminUrl = `http://${listen}`;
  const caddy = spawn(CADDY, ["run", "--resume", "--config", file], {
    // Its autosave (the platform's routes) and certificate store stay in DATA_DIR, never the user's home.
    env: { ...env, XDG_CONFIG_HOME: path.join(dir, "config"), XDG_DATA_HOME: path.join(dir, "data") },
    stdio: ["ignore", "ignore", "ignore"],
  });
  process.once("exit", () => caddy.kill("SIGTERM"));
  if (await waitForAdmin(adminUrl, caddy, 15_000)) {
    console.info(
      `start: Caddy at ${adminUrl} (CONTAINER_PROXY_ADMIN_URL): applications on this machine keep their address`,
    );
    return adminUrl;
  }
  caddy.kill("SIGTERM");
  console.info(
    `start: Caddy did not answer at ${adminUrl}: applications get a new port with each deployment`,
  );
  return undefined;
}
