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
