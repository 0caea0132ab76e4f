import {
  createErrorReporter,
  type ErrorReporter,
  type ErrorReportingConfig,
  type ReportContext,
} from "./reporter";

let browserReporter: ErrorReporter | null = null;

/**
 * Starts reporting in the browser: uncaught errors and unhandled rejections are reported from now on. Returns the
 * function that stops it. Calling it again replaces the previous reporter.
 */
export function installErrorReporting(config: ErrorReportingConfig): () => void {
  const reporter = createErrorReporter({ config, hostname: window.location.hostname, platform: "browser" });
  browserReporter = reporter;
  const onError = (event: ErrorEvent) => {
    reporter.report(event.error ?? event.message, { url: currentPage() });
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    reporter.report(event.reason, { url: currentPage() });
  };
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  return () => {
    window.removeEventListener("error", onError);
    window.removeEventListener("unhandledrejection", onRejection);
    if (browserReporter === reporter) browserReporter = null;
  };
}

/** Reports an error caught by the app (an error boundary, a failed fetcher); before installation, console only. */
export function reportError(error: unknown, context: ReportContext = {}): void {
  if (browserReporter) browserReporter.report(error, { url: currentPage(), ...context });
  else console.error(error);
}

/** Records a navigation so the next report shows how the user got there. */
export function recordNavigation(path: string): void {
  browserReporter?.recordTelemetry({ type: "navigation", body: { to: path } });
}

/** The page without its query string, which can carry sign-in codes. */
function currentPage(): string {
  return `${window.location.origin}${window.location.pathname}`;
}
