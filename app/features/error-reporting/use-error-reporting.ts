import { isRouteErrorResponse, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { installErrorReporting, recordNavigation, reportError } from "./browser";
import type { ErrorReportingConfig } from "./reporter";

/** For root's App: starts browser error reporting and records each navigation as telemetry. */
export function useErrorReporting(config: ErrorReportingConfig | null | undefined): void {
  const endpoint = config?.endpoint ?? null;
  const token = config?.token ?? null;
  useEffect(() => installErrorReporting({ endpoint, token }), [endpoint, token]);
  const { pathname } = useLocation();
  useEffect(() => recordNavigation(pathname), [pathname]);
}

/** For error boundaries: reports the error they show, once per error; expected responses (4xx) are not errors. */
export function useReportError(error: unknown): void {
  useEffect(() => {
    if (isRouteErrorResponse(error) && error.status < 500) return;
    reportError(error);
  }, [error]);
}
