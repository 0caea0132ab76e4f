/**
 * Keeps a post-login return address only when it is a same-origin relative path: "/x?y#z".
 * Absolute ("https://evil.example"), protocol-relative ("//evil.example") and backslash tricks ("/\evil") are dropped.
 */
export function safeReturnTo(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  try {
    const base = "http://app.invalid";
    const resolved = new URL(value, base);
    if (resolved.origin !== base) return fallback;
    if (resolved.pathname.startsWith("/auth")) return fallback;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return fallback;
  }
}
