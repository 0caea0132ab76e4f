import { randomUUID } from "node:crypto";
import type * as z from "zod";
import { apiErrorSchema } from "#contract/error-body";

/** A failure the command-line client reports in words, saying what to do; `exitCode` is what the process ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export type PlatformCall = <Schema extends z.ZodType>(
  method: string,
  path: string,
  schema: Schema | null,
  body?: unknown,
) => Promise<z.output<Schema>>;

/**
 * The client's one transport: the platform API under `${url}/api`, the token as a bearer token (a person's access
 * token or an API token alike), an X-Request-ID per call, answers parsed with the contract's schemas.
 */
export function platformClient({
  url,
  token,
  fetch = globalThis.fetch,
  timeoutMs = 30_000,
}: {
  url: string;
  token: string | undefined;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}): PlatformCall {
  return async (method, path, schema, body) => {
    if (!token) {
      throw new CliError(
        "No token: run `cloud-console login --token <token>` or set CLOUD_CONSOLE_TOKEN (create a token under " +
          "Settings → API tokens).",
      );
    }
    const requestId = randomUUID();
    let response: Response;
    try {
      response = await fetch(`${url}/api${path}`, {
        method,
        headers: {
          Accept: "application/json",
          Authorization: `Bearer ${token}`,
          "X-Request-ID": requestId,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? causeOf(error) : String(error);
      throw new CliError(
        `Cannot reach the platform at ${url} (${reason}). Check the address (--url or CLOUD_CONSOLE_URL) and ` +
          "that the platform is running.",
      );
    }
    const text = await response.text();
    const json: unknown = text ? safeJson(text) : undefined;
    if (!response.ok) throw errorOf(response.status, json, requestId);
    if (!schema) return undefined as never;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new CliError(
        `The platform at ${url} answered ${method} ${path} with something this client does not understand ` +
          `(request ${requestId}). Is --url the platform's address, and is this client as new as the platform?`,
      );
    }
    return parsed.data;
  };
}

function causeOf(error: Error): string {
  if (error.name === "TimeoutError") return "no answer in time";
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? error.message;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorOf(status: number, json: unknown, requestId: string): CliError {
  const body = apiErrorSchema.safeParse(json);
  const message = body.success ? body.data.message : `HTTP ${status}`;
  const fields = body.success && body.data.fieldErrors ? fieldLines(body.data.fieldErrors) : "";
  switch (status) {
    case 401:
      return new CliError(
        `The platform refused the token: ${message}. Run \`cloud-console login --token <token>\` with a valid ` +
          "token or set CLOUD_CONSOLE_TOKEN; tokens expire and can be revoked.",
      );
    case 403:
      return new CliError(
        body.success && body.data.permission
          ? `Not allowed: the token lacks the permission ${body.data.permission} here. Ask an administrator ` +
            "of the organization for a role that holds it."
          : `Not allowed: ${message}. Check --organization (or CLOUD_CONSOLE_ORGANIZATION) and the token's roles.`,
      );
    default:
      return new CliError(`${message}${fields} (HTTP ${status}, request ${requestId})`);
  }
}

function fieldLines(fieldErrors: Record<string, string[]>): string {
  return Object.entries(fieldErrors)
    .map(([field, messages]) => `\n  ${field}: ${messages.join("; ")}`)
    .join("");
}
