import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";

/**
 * "This machine" under `npm start` (issue 26, docs/decisions/059): the start script lists the sockets of the
 * container engines it finds in CONTAINER_SOCKETS, so the platform connects the demo organization to the first one
 * that answers and fastboot deploys for real. Only `npm start` on a developer's machine: the platform's own default
 * stays none, and in production (NODE_ENV=production, as the Docker image sets) the operator lists them.
 */

/**
 * What `podman system service` needs on these machines: crun (podman's default runtime) refuses the sandbox's
 * rlimits and hybrid cgroups, runc with cgroupfs works, and podman's default ulimits would be refused too. The
 * engine tests' set-up (platform/testing/container-engine.ts) and the start script use the same.
 */
export const CONTAINERS_CONF = `[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
`;

const PODMAN = "/usr/bin/podman";

/** Where engines usually listen, in the order tried: DOCKER_HOST's socket first, then Podman's and Docker's. */
export function usualContainerSockets(env) {
  const dockerHost = env.DOCKER_HOST?.startsWith("unix://") ? [env.DOCKER_HOST.slice("unix://".length)] : [];
  const rootless = env.XDG_RUNTIME_DIR ? [path.join(env.XDG_RUNTIME_DIR, "podman", "podman.sock")] : [];
  return [...new Set([...dockerHost, "/run/podman/podman.sock", "/var/run/docker.sock", ...rootless])];
}

/** Where this user's podman service listens: root's system socket, or the user's runtime directory. */
export function podmanSocketFor(env, uid = process.getuid?.() ?? 0) {
  if (uid === 0) return "/run/podman/podman.sock";
  return env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, "podman", "podman.sock") : null;
}

/** Whether an engine answers Docker's ping on `socketPath`. */
export function answers(socketPath, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const call = request({ socketPath, path: "/_ping", timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    call.on("timeout", () => call.destroy());
    call.on("error", () => resolve(false));
    call.end();
  });
}

/**
 * What the start script does about container engines, decided from the environment alone: keep the operator's
 * CONTAINER_SOCKETS (even empty, which means none); in production add nothing; else list the usual sockets an
 * engine answers on (`answering`), or, with none and podman installed, start podman's service at its usual socket.
 */
export function containerEnginePlan(env, { answering, podmanInstalled, uid }) {
  if (env.CONTAINER_SOCKETS !== undefined) return { kind: "operator" };
  if (env.NODE_ENV === "production") return { kind: "production" };
  if (answering.length) return { kind: "found", sockets: answering };
  const socket = podmanInstalled ? podmanSocketFor(env, uid) : null;
  return socket ? { kind: "start-podman", socket } : { kind: "none" };
}

async function waitUntilAnswers(socketPath, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await answers(socketPath, 500)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/**
 * The environment's CONTAINER_SOCKETS for the platform, saying on the console what it found or started. A podman
 * service it starts runs with CONTAINERS_CONF (written into `dataDir`) and stops when the start script exits.
 */
export async function containerSocketsForStart(env, dataDir) {
  const candidates = usualContainerSockets(env);
  const answering = [];
  for (const socket of candidates) if (await answers(socket)) answering.push(socket);
  const plan = containerEnginePlan(env, { answering, podmanInstalled: existsSync(PODMAN) });
  const simulated = "environments run on the simulated cloud";
  switch (plan.kind) {
    case "operator":
      return env.CONTAINER_SOCKETS;
    case "production":
      return undefined;
    case "found":
      console.info(
        `start: container engine on ${plan.sockets.join(", ")} (CONTAINER_SOCKETS for "This machine")`,
      );
      return plan.sockets.join(",");
    case "none":
      console.info(`start: no container engine answers (${candidates.join(", ")}): ${simulated}`);
      return undefined;
    case "start-podman": {
      mkdirSync(path.dirname(plan.socket), { recursive: true });
      const conf = path.join(dataDir, "containers.conf");
      writeFileSync(conf, CONTAINERS_CONF);
      console.info(
        `start: podman is installed but no engine answers: starting \`podman system service\` on ${plan.socket} ` +
          `(CONTAINERS_CONF=${conf}); it stops with npm start`,
      );
      const podman = spawn(PODMAN, ["system", "service", "--time=0", `unix://${plan.socket}`], {
        env: { ...env, CONTAINERS_CONF: conf },
        stdio: ["ignore", "ignore", "inherit"],
      });
      process.once("exit", () => podman.kill("SIGTERM"));
      if (await waitUntilAnswers(plan.socket, podman, 15_000)) return plan.socket;
      podman.kill("SIGTERM");
      console.info(`start: podman's service did not answer on ${plan.socket}: ${simulated}`);
      return undefined;
    }
  }
}
