import { parseArgs } from "node:util";
import { API_TOKEN_PREFIX, apiTokenPaths, currentApiTokenSchema } from "#contract/api-tokens";
import {
  environmentListSchema,
  environmentPaths,
  environmentVariableListSchema,
} from "#contract/environments";
import { tenantPaths, tenantResponseSchema } from "#contract/tenants";
import { CliError, platformClient, type PlatformCall } from "./client";
import { configFileOf, connectionOf, readSavedLogin, saveLogin, type Environment } from "./config";
import { deploy } from "./deploy";
import { logs } from "./logs";
import { outputOf, table, type Output, type Streams } from "./output";
import { findEnvironment, servicesOf } from "./resources";

export const usage = `cloud-console: deploy and inspect services of the platform from a terminal or a CI pipeline.

Usage:
  cloud-console login --token <token> --organization <id> [--url <url>]
  cloud-console environments list [--json]
  cloud-console services list --environment <name> [--json]
  cloud-console deploy <application> --image <ref> --environment <name> [--timeout <seconds>] [--json]
  cloud-console deploy <application> --ref <commit> --environment <name> [--timeout <seconds>] [--json]
  cloud-console logs <service> --environment <name> [--follow] [--lines <n>] [--json]
  cloud-console variables list --environment <name> [--json]
  cloud-console variables set NAME=value [NAME=value...] --environment <name> [--secret]

Options and their variables (a flag wins over its variable, which wins over the saved login):
  --url <url>            the platform's address (CLOUD_CONSOLE_URL; default http://localhost:4000)
  --token <token>        an API token (CLOUD_CONSOLE_TOKEN)
  --organization <id>    the organization's identifier (CLOUD_CONSOLE_ORGANIZATION; an API token's own if not given)
  --environment <name>   an environment's name or id (CLOUD_CONSOLE_ENVIRONMENT)
  --json                 the platform's objects as JSON instead of text

deploy --image deploys an image (or a registry source's tag); deploy --ref builds a commit, branch or tag of an
application's GitHub repository. It exits 0 once the new version runs, 2 when the deployment failed, 3 when it failed and was rolled back
(the previous version still runs), 1 on any other error.`;

export type CliContext = Streams & {
  env: Environment;
  fetch?: typeof globalThis.fetch;
  /** Ends `logs --follow`. */
  signal?: AbortSignal;
  /** Between two looks at a deployment or at new log lines. */
  pollMs?: number;
};

/** Runs one command line and answers the process's exit code; errors are reported on stderr, in words. */
export async function runCli(argv: string[], context: CliContext): Promise<number> {
  const output = outputOf(context);
  try {
    return await run(argv, context, output);
  } catch (error) {
    if (error instanceof CliError) {
      output.err(`Error: ${error.message}`);
      return error.exitCode;
    }
    throw error;
  }
}

async function run(argv: string[], context: CliContext, output: Output): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: "string" },
        token: { type: "string" },
        organization: { type: "string" },
        environment: { type: "string", short: "e" },
        image: { type: "string" },
        ref: { type: "string" },
        timeout: { type: "string" },
        follow: { type: "boolean", short: "f" },
        lines: { type: "string" },
        secret: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${usage}`);
  }
  const { values: flags, positionals } = parsed;
  const [command, subcommand, ...rest] = positionals;
  if (flags.help || !command) {
    output.out(usage);
    return command || flags.help ? 0 : 1;
  }
  const configFile = configFileOf(context.env);
  const connection = connectionOf(flags, context.env, await readSavedLogin(configFile));
  const call = platformClient({ url: connection.url, token: connection.token, fetch: context.fetch });
  const json = flags.json ?? false;
  const environment = flags.environment ?? context.env.CLOUD_CONSOLE_ENVIRONMENT;
  const pollMs = context.pollMs ?? 2000;
  const organization = async () => {
    if (connection.organization) return connection.organization;
    // An API token is for one organization and says which, so a pipeline needs only the address and the token.
    if (connection.token?.startsWith(API_TOKEN_PREFIX)) {
      return (await call("GET", apiTokenPaths.current, currentApiTokenSchema)).tenantId;
    }
    throw new CliError(
      "Name the organization with --organization <id> (or CLOUD_CONSOLE_ORGANIZATION), or save it with " +
        "`cloud-console login`: it is the id the platform API names it by (/api/v2/organizations/<id>/…).",
    );
  };

  switch (`${command} ${subcommand ?? ""}`.trim()) {
    case "login":
      return login(call, output, {
        file: configFile,
        url: connection.url,
        token: flags.token,
        organization: await organization(),
      });
    case "environments list": {
      const { environments } = await call(
        "GET",
        environmentPaths.list(await organization()),
        environmentListSchema,
      );
      if (json) return printJson(output, environments);
      table(
        ["NAME", "STAGE", "SERVICES", "CLOUD", "REGION", "ID"],
        environments.map((item) => [
          item.name,
          item.stage.replace(/^STAGE_/, ""),
          String(item.serviceCount),
          item.cloudProvider,
          item.region,
          item.id,
        ]),
      ).forEach(output.out);
      return 0;
    }
    case "services list": {
      const tenantId = await organization();
      const found = await findEnvironment(call, tenantId, environment);
      const services = await servicesOf(call, tenantId, found.id);
      if (json) return printJson(output, services);
      table(
        ["NAME", "TYPE", "STAGE", "ID"],
        services.map((item) => [item.name, item.serviceType, item.stage.replace(/^STAGE_/, ""), item.id]),
      ).forEach(output.out);
      return 0;
    }
    case "variables list": {
      const tenantId = await organization();
      const found = await findEnvironment(call, tenantId, environment);
      const { envVariables } = await call(
        "GET",
        environmentPaths.variables(tenantId, found.id),
        environmentVariableListSchema,
      );
      if (json) return printJson(output, envVariables);
      table(
        ["NAME", "VALUE", "SECRET"],
        envVariables.map((item) => [item.name, item.value, item.secret ? "yes" : "no"]),
      ).forEach(output.out);
      return 0;
    }
    case "variables set": {
      const tenantId = await organization();
      const assignments = rest.map((text) => {
        const at = text.indexOf("=");
        if (at < 1) throw new CliError(`Give each variable as NAME=value (got ${text}).`);
        return { name: text.slice(0, at), value: text.slice(at + 1), secret: flags.secret ?? false };
      });
      if (!assignments.length) throw new CliError("Give the variables to set as NAME=value.");
      const found = await findEnvironment(call, tenantId, environment);
      const { envVariables } = await call(
        "PUT",
        environmentPaths.variablesImport(tenantId, found.id),
        environmentVariableListSchema,
        { envVariables: assignments },
      );
      output.out(
        `Set ${envVariables.map((item) => item.name).join(", ")} in ${found.name}; services read them at ` +
          "their next deployment.",
      );
      return 0;
    }
    default:
      break;
  }
  if (command === "deploy" && subcommand) {
    if (rest.length)
      throw new CliError(`deploy takes one application, not ${[subcommand, ...rest].join(" ")}.`);
    if (Boolean(flags.image) === Boolean(flags.ref)) {
      throw new CliError(
        "Give what to deploy, one of: --image <ref> (e.g. ghcr.io/acme/web:1.4.2) for an application that runs " +
          "an image, --ref <commit> (a SHA, branch or tag) for one built from a GitHub repository.",
      );
    }
    return deploy({
      call,
      output,
      tenantId: await organization(),
      environment,
      application: subcommand,
      target: flags.ref ? { ref: flags.ref } : { image: flags.image ?? "" },
      json,
      pollMs,
      timeoutMs: secondsOf(flags.timeout, 1800) * 1000,
    });
  }
  if (command === "logs" && subcommand) {
    return logs({
      call,
      output,
      tenantId: await organization(),
      environment,
      service: subcommand,
      json,
      follow: flags.follow ?? false,
      lines: secondsOf(flags.lines, 100),
      pollMs,
      signal: context.signal ?? new AbortController().signal,
    });
  }
  throw new CliError(`Unknown command: ${positionals.join(" ")}\n\n${usage}`);
}

/** Checks the token against the organization before saving both, so a typo shows now rather than in CI. */
async function login(
  call: PlatformCall,
  output: Output,
  { file, url, token, organization }: { file: string; url: string; token?: string; organization: string },
): Promise<number> {
  if (!token) throw new CliError("Give the token: cloud-console login --token <token> --organization <id>.");
  const { tenant } = await call("GET", tenantPaths.one(organization), tenantResponseSchema);
  await saveLogin(file, { url, token, organization });
  output.out(
    `Signed in to ${tenant.displayName} at ${url}; the token is saved in ${file} (readable by you only).`,
  );
  return 0;
}

function printJson(output: Output, value: unknown): number {
  output.out(JSON.stringify(value, null, 2));
  return 0;
}

function secondsOf(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new CliError(`Expected a whole number, got ${text}.`);
  return value;
}
