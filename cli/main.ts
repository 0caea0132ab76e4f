#!/usr/bin/env node
// The command-line client's entry (package.json "bin": cloud-console); run.ts does the work.
import { runCli } from "./run";

const interrupted = new AbortController();
process.once("SIGINT", () => interrupted.abort());
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupted.signal,
});
