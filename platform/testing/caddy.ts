import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../tests/setup/moto-server";
import type { ContainerProxyConfig } from "../cloud/container/proxy";

/**
 * A real Caddy for the reverse proxy's tests (docs/decisions/063): `caddy run` with its admin API on a free
 * loopback port and its config directory (where it autosaves every change) in a temporary directory. `restart`
 * stops it and starts it again with `--resume`, as an operator's service does, to show the routes survive.
 * Without Caddy the tests fail naming the apt package (.ci/run installs it as root).
 */

const CADDY = "/usr/bin/caddy";

export type TestCaddy = ContainerProxyConfig & {
  /** Stops Caddy and starts it again from its autosaved config (`caddy run --resume`). */
  restart(): Promise<void>;
};

export function setUpCaddy(): TestCaddy {
  let child: ChildProcess | undefined;
  let output = "";
  let dir = "";
  let config = "";
  const proxy = { adminUrl: "", host: "127.0.0.1" };

  async function start(resume: boolean) {
    output = "";
    const started = spawn(CADDY, ["run", "--config", config, ...(resume ? ["--resume"] : [])], {
      stdio: ["ignore", "pipe", "pipe"],
      // The autosave (and any certificate store) go to the temporary directory, never root's home.
      env: {
        ...process.env,
        XDG_CONFIG_HOME: path.join(dir, "config"),
        XDG_DATA_HOME: path.join(dir, "data"),
      },
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    started.stdout.on("data", keep);
    started.stderr.on("data", keep);
    child = started;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (started.exitCode !== null)
        throw new Error(`caddy exited with code ${started.exitCode}:\n${output}`);
      const ready = await fetch(`${proxy.adminUrl}/config/`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`caddy's admin API did not answer within 15 s:\n${output}`);
  }

  async function stop() {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (running.exitCode === null) {
      running.kill("SIGKILL");
      await exited;
    }
  }

  beforeAll(async () => {
    if (!existsSync(CADDY)) {
      throw new Error(
        "The reverse proxy's tests need Caddy: apt-get install -y caddy (as root; .ci/run does it in CI).",
      );
    }
    dir = mkdtempSync(path.join(tmpdir(), "caddy-"));
    proxy.adminUrl = `http://127.0.0.1:${await freePort()}`;
    config = path.join(dir, "caddy.json");
    writeFileSync(config, JSON.stringify({ admin: { listen: new URL(proxy.adminUrl).host } }));
    await start(false);
  });

  afterAll(async () => {
    await stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  return Object.assign(proxy, {
    async restart() {
      await stop();
      await start(true);
    },
  });
}
