import { getEnv, type AppEnv } from "~/env.server";
import {
  createErrorReporter,
  type ErrorReporter,
  type ErrorReportingConfig,
  type ReportOutcome,
} from "./reporter";

const SEND_TIMEOUT_MS = 10_000;

/** The configuration the browser may see: the endpoint and the client-side token (both public by design). */
export function publicErrorReportingConfig(env: AppEnv = getEnv()): ErrorReportingConfig {
  return { endpoint: env.errorReporting.endpoint, token: env.errorReporting.token };
}

/** Origins the page must be allowed to connect to (CSP connect-src) for browser reports to reach the endpoint. */
export function errorReportingConnectSources(env: AppEnv = getEnv()): string[] {
  const { endpoint } = env.errorReporting;
  return endpoint ? [new URL(endpoint).origin] : [];
}

let serverReporter: ErrorReporter | undefined;

/** The server's reporter, made on first use from `env` (default: the app's); its host (local or not) is APP_URL's. */
export function getServerErrorReporter(env?: AppEnv): ErrorReporter {
  if (serverReporter) return serverReporter;
  return createServerErrorReporter(env ?? getEnv());
}

function createServerErrorReporter(env: AppEnv): ErrorReporter {
  serverReporter = createErrorReporter({
    config: publicErrorReportingConfig(env),
    hostname: new URL(env.appUrl).hostname,
    platform: "node",
    send: (endpoint, body) => {
      fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      }).catch((cause: unknown) => console.warn("error report not delivered:", cause));
    },
  });
  return serverReporter;
}

/**
 * Reports an error raised while serving `request` (Remix's handleError); the server log gets it too, sent or not.
 * The page is recorded without its query string, which can carry sign-in codes. Aborted requests are not errors.
 */
export function reportServerError(error: unknown, request?: Request): ReportOutcome {
  if (request?.signal.aborted) return "ignored";
  const url = request ? new URL(request.url) : null;
  const outcome = getServerErrorReporter().report(error, url ? { url: `${url.origin}${url.pathname}` } : {});
  // Items that are not sent are already written to the console by the reporter.
  if (outcome === "sent") console.error(error);
  return outcome;
}
