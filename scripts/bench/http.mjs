// A browser's worth of HTTP for the benchmark: a cookie jar (name, path, expiry; one host, as localhost ports share
// cookies in a browser too) and fetch with manual redirects so every hop's cookies are kept.
import { Buffer } from "node:buffer";
import { performance } from "node:perf_hooks";

export class CookieJar {
  /** `${name}\u0000${path}` → { name, value, path } */
  #cookies = new Map();

  /** Stores the Set-Cookie headers of a response; an expired or Max-Age=0 cookie is removed. */
  store(response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
      const separator = pair.indexOf("=");
      if (separator <= 0) continue;
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = "/";
      let expired = false;
      for (const attribute of attributes) {
        const [key = "", attributeValue = ""] = attribute.split("=");
        const lower = key.toLowerCase();
        if (lower === "path" && attributeValue.startsWith("/")) path = attributeValue;
        if (lower === "max-age" && Number(attributeValue) <= 0) expired = true;
        if (lower === "expires" && Date.parse(attributeValue) <= Date.now()) expired = true;
      }
      const key = `${name}\u0000${path}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }

  /** The Cookie header for a request to `url`: the cookies whose path covers it, longest path first. */
  header(url) {
    const { pathname } = new URL(url);
    return [...this.#cookies.values()]
      .filter(({ path }) => pathname === path || pathname.startsWith(path.endsWith("/") ? path : `${path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map(({ name, value }) => `${name}=${value}`)
      .join("; ");
  }

  has(name) {
    return [...this.#cookies.values()].some((cookie) => cookie.name === name);
  }

  /** A new jar with these cookies but the ones named in `without`: another browser sharing some of the state. */
  copy({ without = [] } = {}) {
    const copy = new CookieJar();
    for (const [key, cookie] of this.#cookies) {
      if (!without.includes(cookie.name)) copy.#cookies.set(key, { ...cookie });
    }
    return copy;
  }
}

/**
 * One request without following redirects; the body is read completely. Returns the response, its body as a
 * Buffer, and the milliseconds from sending to the last byte.
 */
export async function request(url, { jar, method = "GET", headers = {}, body, timeoutMs = 60_000 } = {}) {
  const cookie = jar?.header(url);
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - started;
  jar?.store(response);
  return { response, status: response.status, bytes, text: () => bytes.toString("utf8"), ms };
}

export const isRedirect = (status) => status >= 300 && status < 400;

/** A short description of an unexpected answer, for error messages. */
export function describe(url, result) {
  const location = result.response.headers.get("location");
  const snippet = result
    .text()
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
  return `${result.status} from ${url}${location ? ` (Location: ${location})` : ""}${snippet ? `: ${snippet}` : ""}`;
}
