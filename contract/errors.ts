import { z } from "zod";

/** The one error body every platform endpoint answers with. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

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

/** Collects zod issues as `{ "a.b": ["message"] }`, the shape of `fieldErrors`. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}
