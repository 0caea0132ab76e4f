// Messages and codes only: the error page shows them on every page, so this module stays free of zod schemas (the
// error body's schema is in error-body.ts).
import type * as z from "zod";

/** Messages and codes named by the specification (SPEC §8). */
export const errorMessages = {
  generic: "Something went wrong. Please try again later or contact support if the issue persists.",
  noLink: "Could not establish link with server",
  unexpectedResponse: "Api response not as expected",
  tenantApprovalRequired: "Tenant approval required",
  restrictedAccess: "You have restricted access. Please contact admin.",
  invalidRefreshToken: "Unknown or invalid refresh token",
  invalidState: "Invalid state",
} as const;

export const errorCodes = {
  applicationFetch: "KE-AP-001",
  resourceListFetch: "KE-RC-001",
  unexpectedResponse: "KE-API-501",
  workspaceListFetch: "KE-WK-001",
} as const;

/** What each code means, shown beside it (SPEC §8). */
export const errorCodeTitles: Record<string, string> = {
  [errorCodes.applicationFetch]: "Error Fetching Application",
  [errorCodes.resourceListFetch]: "Error Fetching Resource List",
  [errorCodes.unexpectedResponse]: "Api response not as expected",
  [errorCodes.workspaceListFetch]: "Error Fetching Workspace List",
};

/** Collects zod issues as `{ "a.b": ["message"] }`, the shape of `fieldErrors`. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}

/** The `code` of the platform API's error bodies, so callers branch on codes rather than messages (a 500 has none). */
export const apiErrorCodes = {
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  tenantApprovalRequired: "TENANT_APPROVAL_REQUIRED",
  permissionDenied: "PERMISSION_DENIED",
  invalidJson: "INVALID_JSON",
  validationFailed: "VALIDATION_FAILED",
  notFound: "NOT_FOUND",
  conflict: "CONFLICT",
} as const;
export type ApiErrorCode = (typeof apiErrorCodes)[keyof typeof apiErrorCodes];

/** Messages of the platform API's own errors (those not named by the specification). */
export const apiErrorMessages = {
  unauthorized: "Unauthorized",
  invalidAccessToken: "Invalid access token",
  expiredAccessToken: "Access token expired",
  unknownUser: "Unknown user",
  endedSession: "Session has ended",
  forbiddenOrganization: "You do not have access to this organization",
  invalidJson: "Request body is not valid JSON",
  notFound: "Not found",
  environmentNotFound: "Environment not found",
  organizationNameTaken: "An organization with this name already exists",
  environmentNameTaken: "An environment with this name already exists",
  internal: "Internal server error",
} as const;
