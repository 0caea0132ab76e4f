/**
 * Keeps a post-login return address only when it is a same-origin relative path: "/x?y#z".
 * Absolute ("https://evil.example"), protocol-relative ("//evil.example") and backslash tricks ("/\evil") are dropped,
 * and so is any input that only becomes one of them once normalised ("/.//evil.example" → "//evil.example").
 */
export function safeReturnTo(value: string | null | undefined, fallback = "/"): string {
  if (!value || !isRelativePath(value)) return fallback;
  try {
    const base = "http://app.invalid";
    const resolved = new URL(value, base);
    if (resolved.origin !== base) return fallback;
    const normalised = `${resolved.pathname}${resolved.search}${resolved.hash}`;
    // The browser reads the normalised path, so that is what must still be a plain path of this origin.
    if (!isRelativePath(normalised) || resolved.pathname.startsWith("/auth")) return fallback;
    return normalised;
  } catch {
    return fallback;
  }
}

function isRelativePath(value: string): boolean {
  return value.startsWith("/") && !value.startsWith("//") && !value.includes("\\");
}
