import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export type MotoServer = { endpoint: string; port: number; stop: () => Promise<void> };

/** Credentials moto accepts; any value works, these make it obvious that no real account is involved. */
export const motoCredentials = { accessKeyId: "testing", secretAccessKey: "testing" };
/** The account moto puts resources in when no role is assumed. */
export const MOTO_ACCOUNT_ID = "123456789012";

/** `moto_server` on PATH, or pyenv's shim (where `pip install "moto[server]"` puts it on these machines). */
export function motoServerCommand(): string {
  if (process.env.MOTO_SERVER) return process.env.MOTO_SERVER;
  const candidates = (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((dir) => path.join(dir, "moto_server"));
  candidates.push(path.join(process.env.HOME ?? "/root", ".pyenv", "shims", "moto_server"));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      'moto_server was not found on PATH: install it with `pip install "moto[server]"` or set MOTO_SERVER',
    );
  }
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${endpoint}/moto-api/data.json`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`moto_server did not answer at ${endpoint} within ${timeoutMs} ms`);
}

/**
 * Starts moto_server on a free loopback port; `stop` ends exactly that process. `environment` sets moto's own
 * switches (MOTO_IAM_LOAD_MANAGED_POLICIES, MOTO_ECS_SERVICE_RUNNING, ...) for this server only.
 */
export async function startMotoServer({
  timeoutMs = 30_000,
  environment = {},
}: { timeoutMs?: number; environment?: Record<string, string> } = {}): Promise<MotoServer> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child = spawn(motoServerCommand(), ["-H", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...environment },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  try {
    await waitUntilUp(endpoint, child, timeoutMs);
  } catch (error) {
    child.kill("SIGTERM");
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${stderr}`);
  }
  return {
    endpoint,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
