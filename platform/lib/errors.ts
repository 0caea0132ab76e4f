import type { ApiErrorBody } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";

/**
 * What a domain refuses, in its own words and the contract's error body; the HTTP layer (platform/http/errors.ts)
 * answers each kind with its status in one place, so no domain module knows HTTP.
 */
export type DomainErrorKind =
  /** The request the schema accepted but the platform's data refuses (400). */
  | "invalid"
  /** The caller may not do this (403). */
  | "forbidden"
  /** What it addresses does not exist, or not for this caller (404). */
  | "not-found"
  /** It clashes with the current state of what it addresses (409). */
  | "conflict"
  /** It existed once and is used up (410). */
  | "gone";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
    this.name = "DomainError";
  }
}

export function notFound(message: string = apiErrorMessages.notFound): DomainError {
  return new DomainError("not-found", { message, code: apiErrorCodes.notFound });
}

/** A uniqueness clash reported on the field the caller can change, like a schema violation. */
export function conflictOn(field: string, message: string): DomainError {
  return new DomainError("conflict", {
    message,
    code: apiErrorCodes.conflict,
    fieldErrors: { [field]: [message] },
  });
}

/** A request the schema accepted but the platform's data refuses, reported like a schema violation. */
export function invalidFields(fieldErrors: Record<string, string[]>): DomainError {
  const message = Object.values(fieldErrors)[0]?.[0] ?? "Request is not valid";
  return new DomainError("invalid", { message, code: apiErrorCodes.validationFailed, fieldErrors });
}

/** A request that clashes with the current state of what it addresses. */
export function conflict(message: string, fieldErrors?: Record<string, string[]>): DomainError {
  return new DomainError("conflict", {
    message,
    code: apiErrorCodes.conflict,
    ...(fieldErrors ? { fieldErrors } : {}),
  });
}
