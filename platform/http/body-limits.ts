import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { apiErrorCodes } from "#contract/errors";
import { SERVERLESS_UPLOAD_BODY_MAX_BYTES } from "#contract/service-catalogue";
import { serviceErrorMessages } from "#contract/services";
import { HttpError } from "./errors";

/** Every JSON body the API takes is small: a form's worth of fields, a batch of variables. */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;
const tooLarge = (message: string) => () => {
  throw new HttpError(413, { message, code: apiErrorCodes.validationFailed });
};

const jsonLimit = bodyLimit({
  maxSize: JSON_BODY_MAX_BYTES,
  onError: tooLarge(`Request body must be at most ${JSON_BODY_MAX_BYTES} bytes`),
});
const uploadLimit = bodyLimit({
  maxSize: SERVERLESS_UPLOAD_BODY_MAX_BYTES,
  onError: tooLarge(serviceErrorMessages.uploadTooLarge),
});

/**
 * Refuses a body over its route's limit before any handler reads it: at once by Content-Length, and while it
 * arrives for a chunked body, so an oversized request is never held in memory whole.
 */
export function limitRequestBodies(): MiddlewareHandler {
  return (c, next) =>
    c.req.path.endsWith("/infrastructure/serverless/upload") ? uploadLimit(c, next) : jsonLimit(c, next);
}
