import type { MiddlewareHandler } from "hono";

/**
 * Headers on every API answer, errors included: JSON only, never sniffed, framed, cached or shown as a page. Every
 * answer is a tenant's data and some carry secrets (a revealed variable, a service's credentials), so none may be
 * stored by a browser or a proxy.
 */
export function apiSecurityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cache-Control", "no-store");
    c.header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
    c.header("X-Frame-Options", "DENY");
    c.header("Referrer-Policy", "no-referrer");
  };
}
