import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

/**
 * A real Docker Engine API for the container host connection's tests (issue 26): `podman system service` on a
 * socket of its own in a temporary directory, started in beforeAll and stopped in afterAll. Nothing is built or
 * pulled: a connection's check only asks for the version. (The containers driver's tests on branch `containers`
 * start a fuller engine with a registry and images, platform/testing/container-engine.ts: at the merge this can
 * become a thin use of it.) Without podman the tests fail saying what to install.
 */

/** crun refuses the sandbox's rlimits and hybrid cgroups; runc with cgroupfs works (the finding). */
const CONTAINERS_CONF = `[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
`;

const PODMAN = "/usr/bin/podman";

/** GET /version over the socket answers 200: the service is up. */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const call = request({ socketPath, path: "/version", timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    call.on("error", () => resolve(false));
    call.on("timeout", () => call.destroy());
    call.end();
  });
}

export function setUpPodmanService(): { readonly dockerHost: string; readonly socketPath: string } {
  let dir: string | undefined;
  let podman: ChildProcess | undefined;
  let socketPath: string | undefined;

  beforeAll(async () => {
    if (!existsSync(PODMAN)) {
      throw new Error(
        "The container host's tests need a container engine: apt-get install -y podman runc (as root; .ci/run does it in CI).",
      );
    }
    dir = mkdtempSync(path.join(tmpdir(), "podman-service-"));
    writeFileSync(path.join(dir, "containers.conf"), CONTAINERS_CONF);
    const socket = path.join(dir, "podman.sock");
    let output = "";
    const child = spawn(PODMAN, ["system", "service", "--time=0", `unix://${socket}`], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CONTAINERS_CONF: path.join(dir, "containers.conf") },
    });
    podman = child;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const deadline = Date.now() + 30_000;
    while (!(await answers(socket))) {
      if (child.exitCode !== null) throw new Error(`podman exited with code ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline)
        throw new Error(`podman system service did not answer within 30 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    socketPath = socket;
  }, 60_000);

  afterAll(async () => {
    const child = podman;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const started = () => {
    if (!socketPath) throw new Error("The podman service starts in beforeAll: use it in hooks and tests");
    return socketPath;
  };
  return {
    get socketPath() {
      return started();
    },
    get dockerHost() {
      return `unix://${started()}`;
    },
  };
}
