import { getEnv } from "~/env.server";
import { analyticsConnectSources } from "~/features/analytics/analytics.server";
import { errorReportingConnectSources } from "~/features/error-reporting/error-reporting.server";

/**
 * Headers every app response carries. Scripts run only with this response's nonce (no 'unsafe-eval');
 * Mantine sets inline style attributes, so styles allow 'unsafe-inline'. Forms may post to the identity
 * provider's origin because sign-out redirects there.
 */
export function applySecurityHeaders(headers: Headers, nonce?: string): Headers {
  const { issuer, production } = getEnv();
  const scriptSources = ["'self'", ...(nonce ? [`'nonce-${nonce}'`] : [])];
  const connectSources = [
    "'self'",
    ...analyticsConnectSources(),
    ...errorReportingConnectSources(),
    ...(production ? [] : ["ws:"]),
  ];
  const policy = [
    "default-src 'self'",
    `script-src ${scriptSources.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src ${connectSources.join(" ")}`,
    `form-action 'self' ${new URL(issuer).origin}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
  headers.set("Content-Security-Policy", policy);
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  return headers;
}

/**
 * Completes the headers of any answer the app server sends, static files and redirects included: the security
 * headers (documents already carry them with their nonce), HSTS when the app is served over https, and
 * `Cache-Control: no-store` unless the answer says how it may be cached, since pages and data carry a user's data.
 */
export function completeSecurityHeaders(headers: Headers): Headers {
  if (!headers.has("Content-Security-Policy")) applySecurityHeaders(headers);
  if (new URL(getEnv().appUrl).protocol === "https:") {
    headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return headers;
}
