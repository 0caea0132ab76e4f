import { setTimeout as sleep } from "node:timers/promises";
import { logListSchema, servicePaths, type LogLine } from "#contract/services";
import type { PlatformCall } from "./client";
import type { Output } from "./output";
import { findEnvironment, findService } from "./resources";

export type LogsOptions = {
  call: PlatformCall;
  output: Output;
  tenantId: string;
  environment: string | undefined;
  service: string;
  json: boolean;
  follow: boolean;
  lines: number;
  pollMs: number;
  /** Ends following (Ctrl-C in the terminal; the test's abort). */
  signal: AbortSignal;
};

/** The service's last lines, then with --follow each new line as it comes, until interrupted. */
export async function logs(options: LogsOptions): Promise<number> {
  const { call, output, tenantId } = options;
  const environment = await findEnvironment(call, tenantId, options.environment);
  const service = await findService(call, tenantId, environment, options.service);
  const print = (line: LogLine) =>
    output.out(
      options.json ? JSON.stringify(line) : `${line.at} ${line.podName} ${line.level} ${line.message}`,
    );

  let after: string | undefined;
  const first = await call(
    "GET",
    servicePaths.logs(tenantId, environment.id, service.id, { logType: "LIVE", limit: options.lines }),
    logListSchema,
  );
  first.logs.forEach(print);
  after = first.logs.at(-1)?.id ?? after;
  while (options.follow && !options.signal.aborted) {
    await sleep(options.pollMs, undefined, { signal: options.signal }).catch(() => undefined);
    if (options.signal.aborted) break;
    const next = await call(
      "GET",
      servicePaths.logs(tenantId, environment.id, service.id, { logType: "LIVE", limit: 500, after }),
      logListSchema,
    );
    next.logs.forEach(print);
    after = next.logs.at(-1)?.id ?? after;
  }
  return 0;
}
