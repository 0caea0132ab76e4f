import { spawn } from "node:child_process";
import { createServer } from "node:net";

/**
 * How long start.mjs waits for the platform and the app to answer once it has started them (a first start on a
 * fresh data dir migrates and seeds, which takes a while on a loaded machine). Playwright's web server
 * (playwright.config.ts) allows start.mjs as long, so start.mjs never gives up before Playwright does.
 */
export const READY_TIMEOUT_MS = 180_000;

const READY = "stack-ready";

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

/**
 * Tells the process that started this one, when it did so with an IPC channel (the bench, load and Lighthouse runs,
 * scripts/bench/stack.mjs), that the stack answers, and the ids of the processes it started (`{ app, platform }`,
 * the `child.pid` of each): they measure those processes' memory and CPU time without guessing from command lines.
 */
export function announceReady(pids) {
  if (process.connected) process.send({ type: READY, pids }, () => {});
}

/**
 * The ids `child` (a start.mjs spawned with an IPC channel) announces once ready; rejects when it exits first or
 * after `timeoutMs`. Call it right after spawning, so no message goes unheard.
 */
export function waitForReady(child, timeoutMs) {
  return new Promise((resolve, reject) => {
    const done = (settle, value) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      settle(value);
    };
    const onMessage = (message) => {
      if (message?.type === READY) done(resolve, message.pids);
    };
    const onExit = (code, signal) =>
      done(reject, new Error(`the stack exited (${signal ?? `exit code ${code}`}) before it was ready`));
    const timer = setTimeout(
      () => done(reject, new Error(`the stack was not ready within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child.on("message", onMessage);
    child.once("exit", onExit);
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
  });
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

/** A loopback port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
