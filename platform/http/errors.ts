import { DrizzleQueryError } from "drizzle-orm/errors";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ApiErrorBody } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages, errorMessages } from "#contract/errors";
import { DomainError, notFound, type DomainErrorKind } from "../lib/errors";

/** An error the API answers with as it is: a status and the contract's error body. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly body: ApiErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = "HttpError";
  }
}

/**
 * `invalid_token` tells an OAuth client (RFC 6750 §3) that fetching a new token may help; a request without a
 * token only gets the scheme.
 */
export function unauthorized(message: string, { tokenPresented }: { tokenPresented: boolean }): HttpError {
  const challenge = tokenPresented ? `Bearer error="invalid_token"` : "Bearer";
  return new HttpError(401, { message, code: apiErrorCodes.unauthorized }, { "WWW-Authenticate": challenge });
}

export function forbiddenOrganization(): HttpError {
  return new HttpError(403, {
    message: apiErrorMessages.forbiddenOrganization,
    code: apiErrorCodes.forbidden,
  });
}

export function tenantApprovalRequired(): HttpError {
  return new HttpError(403, {
    message: errorMessages.tenantApprovalRequired,
    code: apiErrorCodes.tenantApprovalRequired,
  });
}

/** A member whose roles do not hold `permission` where the request applies. */
export function permissionDenied(permission: string): HttpError {
  return new HttpError(403, {
    message: errorMessages.restrictedAccess,
    code: apiErrorCodes.permissionDenied,
    permission,
  });
}

export const handleNotFound: NotFoundHandler = (c) => c.json(notFound().body, 404);

/** The status each kind of domain error is answered with: the one place domain errors meet HTTP. */
const statusOf: Record<DomainErrorKind, ContentfulStatusCode> = {
  invalid: 400,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  gone: 410,
};

/**
 * Every failure leaves as the contract's JSON error body. Anything unexpected is logged here with the request id
 * and answered with a fixed message, so stack traces, SQL and driver messages never reach a caller.
 */
export const handleError: ErrorHandler = (error, c) => {
  if (error instanceof HttpError) return c.json(error.body, error.status, error.headers);
  if (error instanceof DomainError) return c.json(error.body, statusOf[error.kind]);
  if (error instanceof HTTPException && error.status < 500) {
    return c.json({ message: error.message || "Request rejected" }, error.status);
  }
  console.error(`platform api: ${describeRequest(c)} failed`, loggable(error));
  return c.json({ message: apiErrorMessages.internal }, 500);
};

/**
 * A failed database query is logged without its text and parameters: Drizzle's error message carries every
 * parameter of the statement (a batch of variable values, in plain text) and the driver's can quote one. What
 * stays is where it failed and the SQLSTATE, enough to find the cause.
 */
function loggable(error: Error): Error {
  if (!(error instanceof DrizzleQueryError)) return error;
  const cause: unknown = error.cause;
  const code = cause && typeof cause === "object" && "code" in cause ? String(cause.code) : "unknown";
  const summary = new Error(`database query failed (SQLSTATE ${code})`);
  summary.stack = [
    summary.message,
    ...(error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line)),
  ].join("\n");
  return summary;
}

/** Method and path only: query parameters can carry what a user typed, so they are never logged. */
function describeRequest(c: Context): string {
  const requestId: unknown = c.get("requestId");
  return `${c.req.method} ${c.req.path}${typeof requestId === "string" ? ` (request ${requestId})` : ""}`;
}
