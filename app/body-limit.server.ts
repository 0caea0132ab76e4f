import { encode } from "turbo-stream";
import { SERVERLESS_UPLOAD_BODY_MAX_BYTES } from "#contract/service-catalogue";

/** A form's worth of fields: the same 1 MB the platform API takes for a JSON body. */
export const FORM_BODY_MAX_BYTES = 1024 * 1024;

/** The archive upload's route (servicePagePaths.serverlessUpload; `.data` when its fetcher posts it). */
const archiveUploadPath = /^\/env\/[^/]+\/services\/serverless-upload(\.data)?$/;

/**
 * How many bytes a request's body may have (scripts/lib/app-gate.mjs refuses more before any action reads it):
 * the archive upload takes its archive, everything else a form.
 */
export function bodyLimitOf(request: Request): number {
  return archiveUploadPath.test(new URL(request.url).pathname)
    ? SERVERLESS_UPLOAD_BODY_MAX_BYTES
    : FORM_BODY_MAX_BYTES;
}

/**
 * The 413 for a body over its limit. A `.data` request comes from Remix's client (a form or fetcher submitted
 * with JavaScript), which decodes a turbo-stream: it gets what an action throwing a 413 would answer, an error
 * response the route's error boundary shows. A document request gets a line of text.
 */
export function bodyTooLarge(request: Request, limit: number): Response {
  const message = `The request is too large: at most ${formatMegabytes(limit)} may be sent.`;
  if (!new URL(request.url).pathname.endsWith(".data")) {
    return new Response(message, { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const body = encode(
    { error: new PayloadTooLarge(message) },
    {
      // The shape of Remix's own encoding of an ErrorResponse (@remix-run/server-runtime single-fetch).
      plugins: [
        (value) =>
          value instanceof PayloadTooLarge
            ? ["ErrorResponse", value.message, 413, "Payload Too Large"]
            : false,
      ],
    },
  );
  return new Response(body, {
    status: 413,
    headers: { "Content-Type": "text/x-script", "X-Remix-Response": "yes" },
  });
}

class PayloadTooLarge {
  constructor(readonly message: string) {}
}

function formatMegabytes(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))} MB`;
}
