import { spawn } from "node:child_process";

/**
 * Runs long-lived children as one unit: Ctrl-C (SIGINT/SIGTERM) stops them all and exits 0; if any child dies
 * on its own, the others are stopped and the command exits non-zero.
 */
export function supervise() {
  const children = new Set();
  let stopping = false;

  const stopAll = (exitCode) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill("SIGTERM");
    const forceExit = setTimeout(() => {
      for (const child of children) child.kill("SIGKILL");
      process.exit(exitCode);
    }, 5_000);
    forceExit.unref();
    const waitForChildren = setInterval(() => {
      if ([...children].every((child) => child.exitCode !== null || child.signalCode !== null)) {
        clearInterval(waitForChildren);
        process.exit(exitCode);
      }
    }, 50);
  };

  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));

  return {
    start(name, command, args, env) {
      const child = spawn(command, args, { env, stdio: "inherit" });
      children.add(child);
      child.on("exit", (code, signal) => {
        if (stopping) return;
        console.error(`${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping the rest.`);
        stopAll(code || 1);
      });
      return child;
    },
    stopAll,
  };
}

/** Polls a URL until it answers 2xx; rejects after `timeoutMs`. */
export async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
