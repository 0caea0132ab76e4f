import { CloudStepError } from "../driver";
import type { Engine } from "./engine";

/** What a data service's readiness check found: ready or not, and in words what the server said. */
export type ProbeAnswer = { healthy: boolean; said: string };

/**
 * How a data service's server says it accepts connections: a command of its own official image (its client:
 * `pg_isready`, `redis-cli ping`, `mysqladmin ping`, …) run in its container, and what its exit code and output
 * mean. Run through the engine (decision 072), so the check reaches the server wherever the engine runs it: on
 * this machine or on a Docker host on a network, where the server's port stays on that host's loopback.
 */
export type ReadinessCheck = {
  /**
   * The command, variables of its own (a password a client reads from one rather than its arguments), and the
   * user to run it as when not the image's (RabbitMQ's tools must not make its Erlang cookie root's).
   */
  command(password: string): { Cmd: string[]; Env?: string[]; User?: string };
  /** Ready or not from the command's exit code and output (stdout and stderr, trimmed). */
  answer(exitCode: number, output: string): ProbeAnswer;
};

/** A check silent this long is not ready (a server that accepts the connection and says nothing). */
const CHECK_LIMIT_MS = 10_000;
/** Exit codes of a shell that found no such command (126: not executable, 127: not found). */
const NO_COMMAND = new Set([126, 127]);

/**
 * Runs `check` in the container and answers what it found. An image without the command fails the step in words
 * (it would never answer otherwise); an engine that would not run it is not ready yet.
 */
export async function readinessOf(
  engine: Engine,
  containerId: string,
  image: string,
  check: ReadinessCheck,
  password: string,
): Promise<ProbeAnswer> {
  const { Cmd, Env, User } = check.command(password);
  let ran: { exitCode: number; output: string };
  try {
    ran = await execIn(engine, containerId, Cmd, Env, User);
  } catch (error) {
    const said = (error as { json?: { message?: unknown } }).json?.message ?? (error as Error).message;
    if (/executable file .*not found|no such file or directory/i.test(String(said)))
      throw noCommand(image, Cmd);
    return { healthy: false, said: `the engine could not run ${Cmd[0]} (${String(said)})` };
  }
  if (NO_COMMAND.has(ran.exitCode) && /not found|no such file|cannot execute/i.test(ran.output)) {
    throw noCommand(image, Cmd);
  }
  return check.answer(ran.exitCode, ran.output);
}

const noCommand = (image: string, [command]: string[]) =>
  new CloudStepError(
    `The image ${image} has no ${command}: the driver asks the server's own client in its container whether it ` +
      "accepts connections.",
    { transient: false },
  );

/**
 * Runs `command` in the container (the engine's exec) and answers its exit code and output. The output is read
 * from the start call's own response (no connection upgrade), which any proxy in front of a Docker host passes.
 */
export async function execIn(
  engine: Engine,
  containerId: string,
  command: string[],
  env?: string[],
  user?: string,
): Promise<{ exitCode: number; output: string }> {
  const exec = await engine.getContainer(containerId).exec({
    Cmd: command,
    ...(env ? { Env: env } : {}),
    ...(user ? { User: user } : {}),
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: false, stdin: false });
  let received = Buffer.alloc(0);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.destroy();
      reject(new Error(`no answer within ${CHECK_LIMIT_MS / 1000} s`));
    }, CHECK_LIMIT_MS);
    stream.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]).subarray(-64 * 1024);
    });
    stream.on("end", () => {
      clearTimeout(timer);
      resolve();
    });
    stream.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  const { ExitCode: exitCode } = await exec.inspect();
  return { exitCode: exitCode ?? -1, output: demultiplexed(received).trim() };
}

/**
 * The text of the engine's multiplexed stream (no TTY): frames of a header (stream, 3 zero bytes, length) and
 * their bytes; a stream that is not framed is taken as it is.
 */
function demultiplexed(received: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= received.length) {
    const stream = received[at];
    if ((stream !== 1 && stream !== 2) || received.readUIntBE(at + 1, 3) !== 0) return received.toString();
    const length = received.readUInt32BE(at + 4);
    parts.push(received.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  return Buffer.concat(parts).toString();
}
