import { randomBytes } from "node:crypto";
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { coalescingStream } from "~/coalescing-stream.server";
import { getEnv } from "~/env.server";
import { reportServerError } from "~/features/error-reporting/error-reporting.server";
import { NonceProvider } from "~/nonce";
import { bodyLimitOf, bodyTooLarge } from "~/body-limit.server";
import { crossOriginRefusal, isCrossOriginWrite } from "~/cross-origin.server";
import { applySecurityHeaders, completeSecurityHeaders } from "~/security-headers.server";

// Fail fast: a bad configuration stops the server at start-up, naming the variable.
getEnv();

const ABORT_DELAY = 5_000;

/** What the app server (scripts/app-server.mjs) runs around every request, before Remix and static files. */
export const appServerHooks = {
  isCrossOriginWrite,
  crossOriginRefusal,
  bodyLimitOf,
  bodyTooLarge,
  completeSecurityHeaders,
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = randomBytes(16).toString("base64");
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = coalescingStream();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          applySecurityHeaders(responseHeaders, nonce);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers);
  return response;
};

export const handleError: HandleErrorFunction = (error, { request }) => {
  reportServerError(error, request);
};
