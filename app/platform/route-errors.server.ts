import { data, redirect } from "@remix-run/node";
import { errorCodes, errorMessages } from "#contract/errors";
import { isPlatformError } from "./client.server";

/** The body of an error a loader throws for the error page: what to say and, where SPEC §8 names one, a code. */
export type RouteErrorBody = { message: string; code?: string };

/**
 * Turns a failed platform call in a loader into what SPEC §8 asks for: 404 → /404, 401 → /401, 403 → the
 * restricted-access message, anything else → the error page carrying `code` (for example KE-WK-001). A schema
 * mismatch keeps its own code, KE-API-501. Thrown responses (redirects to sign-in) pass through.
 */
export function throwRouteError(error: unknown, code: string | undefined, headers?: Headers): never {
  if (error instanceof Response || !isPlatformError(error)) throw error;
  if (error.status === 404) throw redirect("/404", { headers });
  if (error.status === 401) throw redirect("/401", { headers });
  if (error.status === 403) {
    throw data<RouteErrorBody>(
      { message: errorMessages.restrictedAccess, code: error.code },
      { status: 403, headers },
    );
  }
  const body: RouteErrorBody =
    error.code === errorCodes.unexpectedResponse
      ? { message: errorMessages.unexpectedResponse, code: errorCodes.unexpectedResponse }
      : { message: error.message || errorMessages.generic, code };
  throw data(body, { status: error.status >= 400 ? error.status : 502, headers });
}
