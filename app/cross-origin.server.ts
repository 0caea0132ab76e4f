import { getEnv } from "~/env.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery check for every request that can change something, whichever route it reaches
 * (pages, routes without a page component, fetchers): it must come from a page of the app itself. The browser's
 * Origin header says so (its Referer when Origin is absent); a request showing neither is refused too. With
 * organizations on subdomains (APP_BASE_DOMAIN), every subdomain of the base domain is the app as well.
 */
export function isCrossOriginWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const source = request.headers.get("Origin") ?? originOf(request.headers.get("Referer"));
  if (!source || source === "null") return true;
  return !isAppOrigin(source);
}

function isAppOrigin(origin: string): boolean {
  const { appUrl, baseDomain } = getEnv();
  const app = new URL(appUrl);
  if (origin === app.origin) return true;
  if (!baseDomain || !URL.canParse(origin)) return false;
  const candidate = new URL(origin);
  return (
    candidate.protocol === app.protocol &&
    candidate.port === app.port &&
    candidate.hostname.endsWith(`.${baseDomain.toLowerCase()}`)
  );
}

function originOf(referer: string | null): string | null {
  return referer && URL.canParse(referer) ? new URL(referer).origin : null;
}

/** The answer to a refused cross-origin write: nothing ran. */
export function crossOriginRefusal(): Response {
  return new Response("Forbidden: this request did not come from a page of this app.", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
